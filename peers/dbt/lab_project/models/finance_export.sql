{#- EXTERNAL side effect: one "file" per day of the range; the post-hook appends a row per file to
    sent_files (never rewritten: a re-run sends again, visibly). -#}
{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key='day',
          meta={'side_effect': 'external', 'owner': 'finance-team'}, tags=['side_effect_external'],
          post_hook=["insert into {{ target.schema }}.sent_files (day, file_name, rows, sent_at)
                      select day, file_name, rows, now() from {{ this }}
                      where day >= date '{{ lab_first_day() }}' and day < date '{{ lab_end_day() }}'"]) }}
select order_day as day,
       'finance_revenue_' || to_char(order_day, 'YYYYMMDD') || '.csv' as file_name,
       count(*)::int as rows
from {{ ref('revenue_daily') }}
where order_day >= date '{{ lab_first_day() }}' and order_day < date '{{ lab_end_day() }}'
  and {{ lab_control('finance_export', 'order_day') }}
group by order_day
