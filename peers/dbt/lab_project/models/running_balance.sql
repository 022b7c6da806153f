{#- balance(day) = balance(day - 1) + revenue(day), per country. Reads ITS OWN previous day from {{ this }}
    (the day before the range); inside the range a running sum. A day without revenue (failed batch)
    silently carries the balance forward. -#}
{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key=['order_day', 'country'],
          event_time='order_day', meta={'owner': 'finance-team'},
          post_hook=[after_commit("{{ lab_half_hook('running_balance') }}")]) }}
{%- set first = lab_first_day() -%}
{%- set end = lab_end_day() %}
with rev as (
  select order_day, country, revenue from {{ ref('revenue_daily') }}
  where order_day >= date '{{ first }}' and order_day < date '{{ end }}'
),
prev as (
{%- if is_incremental() %}
  select country, balance from {{ this }} where order_day = date '{{ first }}' - 1
{%- else %}
  select null::text as country, 0::numeric as balance where false
{%- endif %}
),
days as (select d::date as order_day from generate_series(date '{{ first }}', date '{{ end }}' - 1, interval '1 day') d),
countries as (select country from rev union select country from prev)
select days.order_day, c.country,
       (coalesce(p.balance, 0)
        + sum(coalesce(r.revenue, 0)) over (partition by c.country order by days.order_day))::numeric(14, 2) as balance
from days
cross join countries c
left join rev r on r.order_day = days.order_day and r.country = c.country
left join prev p on p.country = c.country
where {{ lab_control('running_balance', 'days.order_day', "c.country in ('DE', 'NL')") }}
