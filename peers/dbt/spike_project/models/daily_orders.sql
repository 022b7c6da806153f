-- incremental model: one row per day; `var('fail')` makes it fail on purpose (division by zero)
{{ config(materialized='incremental', unique_key='day') }}
select day, count(*) as orders, sum(amount) as amount
  {% if var('fail', false) %}, 1 / 0 as boom{% endif %}
from {{ ref('orders') }}
{% if is_incremental() %}
where day >= (select coalesce(max(day), date '1900-01-01') from {{ this }})
{% endif %}
group by day
