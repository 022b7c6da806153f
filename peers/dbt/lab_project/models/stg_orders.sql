{#- APPENDS the range's raw orders on every run (not idempotent on purpose: a re-run duplicates) -#}
{{ config(materialized='incremental', incremental_strategy='append', event_time='order_day',
          post_hook=[after_commit("{{ lab_half_hook('stg_orders') }}")]) }}
select order_id, order_day, country, amount, now() as loaded_at
from {{ ref('raw_orders') }}
where order_day >= date '{{ lab_first_day() }}' and order_day < date '{{ lab_end_day() }}'
  and {{ lab_control('stg_orders', 'order_day', 'order_id % 2 = 0') }}
