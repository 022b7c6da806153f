{#- view: order ids appended more than once to stg_orders (what a re-run after a half write leaves) -#}
{{ config(materialized='view') }}
select order_day, order_id, count(*) as copies
from {{ ref('stg_orders') }}
group by order_day, order_id
having count(*) > 1
