{#- microbatch: one batch per day; dbt filters ref('fct_orders') on its event_time to the batch's day.
    A `clean` control row for a day fails that day's batch only (partial success). -#}
{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='order_day',
          batch_size='day', begin='2026-08-01', lookback=0,
          unique_key=['order_day', 'country']) }}
select order_day, country, count(*)::int as orders, sum(amount)::numeric(12, 2) as revenue
from {{ ref('fct_orders') }}
where {{ lab_control('revenue_daily', 'order_day') }}
group by order_day, country
