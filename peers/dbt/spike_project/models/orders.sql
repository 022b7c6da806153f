-- table model: 3 orders per day for the first days of 2026-08
{{ config(materialized='table') }}
select g as id, date '2026-08-01' + (g % 4) as day, g * 10 as amount
from generate_series(1, 12) as g
