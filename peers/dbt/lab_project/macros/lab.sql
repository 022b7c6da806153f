{#- Day range of the invocation: --event-time-start / --event-time-end when given (end exclusive),
    else the vars lab_first_day / lab_last_day (inclusive), else August 2026. -#}
{% macro lab_first_day() -%}
  {%- set s = invocation_args_dict.get('event_time_start') -%}
  {{- return((s | string)[:10] if s else var('lab_first_day', '2026-08-01')) -}}
{%- endmacro %}

{% macro lab_end_day() -%}
  {%- set e = invocation_args_dict.get('event_time_end') -%}
  {%- if e -%}{{ return((e | string)[:10]) }}{%- endif -%}
  {%- set last = modules.datetime.date.fromisoformat(var('lab_last_day', '2026-08-31')) -%}
  {{- return((last + modules.datetime.timedelta(days=1)).isoformat()) -}}
{%- endmacro %}

{#- Failures from data (public.lab_control, peer 'dbt'): a WHERE predicate that raises for rows of a day
    with mode `clean`, and keeps only the `half_predicate` rows of a day with mode `half`. -#}
{% macro lab_control(task, day_expr, half_predicate='true') -%}
  public.lab_fail_if('dbt', '{{ task }}', {{ day_expr }}, 'clean')
  and (public.lab_mode('dbt', '{{ task }}', {{ day_expr }}) is distinct from 'half' or {{ half_predicate }})
{%- endmacro %}

{#- After-commit hook of mode `half`: the half write is committed, then the model fails. dbt runs a model
    in one transaction, so this is the only way to leave a half write behind (not possible for microbatch
    batches: hooks run once per model, not per batch). -#}
{% macro lab_half_hook(task) -%}
  select public.lab_fail_if('dbt', '{{ task }}', d::date, 'half')
  from generate_series(date '{{ lab_first_day() }}', date '{{ lab_end_day() }}' - 1, interval '1 day') d
{%- endmacro %}
