{#- plain table: the orders of every day of the range, generated (rebuilt on each run) -#}
{{ config(materialized='table', event_time='order_day',
          post_hook=[after_commit("{{ lab_half_hook('raw_orders') }}")]) }}
select extract(day from d)::int * 1000 + g as order_id,
       d::date as order_day,
       (array['DE', 'FR', 'NL', 'US'])[1 + g % 4] as country,
       round(10 + ((g * 37 + extract(day from d)::int * 11) % 190) + (g % 100) / 100.0, 2)::numeric(10, 2) as amount
from generate_series(date '{{ var("lab_month_first", "2026-08-01") }}', date '{{ var("lab_month_last", "2026-08-31") }}',
                     interval '1 day') d
cross join lateral generate_series(1, 40 + extract(day from d)::int % 7) g
where {{ lab_control('raw_orders', 'd::date', 'g % 2 = 0') }}
