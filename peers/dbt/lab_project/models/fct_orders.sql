{#- replaces the range's days (delete+insert on order_day) -#}
{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key='order_day',
          event_time='order_day', post_hook=[after_commit("{{ lab_half_hook('fct_orders') }}")]) }}
select order_id, order_day, country, amount
from {{ ref('stg_orders') }}
where order_day >= date '{{ lab_first_day() }}' and order_day < date '{{ lab_end_day() }}'
  and {{ lab_control('fct_orders', 'order_day', 'order_id % 2 = 0') }}
