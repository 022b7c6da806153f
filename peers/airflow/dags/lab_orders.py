"""Peers-lab pipeline `lab_orders` (Airflow 3.3): one DAG run per day of August 2026.

raw_orders -> stg_orders -> fct_orders -> revenue_daily -> finance_export
                                                       \\-> running_balance (depends_on_past)

Every task is a SQLExecuteQueryOperator on the connection `lab_warehouse` (env AIRFLOW_CONN_LAB_WAREHOUSE,
set by peers/lab.sh) writing to schema `airflow_lab` of reparo_lab_warehouse, so the OpenLineage provider
reports real datasets (postgres://127.0.0.1:5432, reparo_lab_warehouse.airflow_lab.<table>).

Failures come from data only: a row (peer 'airflow', task, day, mode) in public.lab_control makes the task
- mode `clean`: raise before writing anything;
- mode `half`:  write half of the day's rows, commit (autocommit=True, one statement per list item), raise.
The tables are created by `bash peers/lab.sh warehouse` (peers/warehouse/peer_tables.sql).

stg_orders APPENDS (INSERT ... SELECT, no delete): a re-run after a half write duplicates on purpose.
finance_export appends one row per sent file to sent_files (the "external" side effect).
running_balance reads its own previous day: balance(day) = balance(day - 1) + revenue(day).
"""
from __future__ import annotations

from datetime import datetime, timezone

from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.sdk import DAG

PEER = "airflow"
S = "airflow_lab"
DAY = "DATE '{{ ds }}'"


def guarded(task: str, body: list[str], half_sql: str) -> list[str]:
    """The statements of one task: clean check, the body (with {half} = "write only half" predicate), half check."""
    half = f"(public.lab_mode('{PEER}', '{task}', {DAY}) IS DISTINCT FROM 'half' OR {half_sql})"
    return (
        [f"SELECT public.lab_fail_if('{PEER}', '{task}', {DAY}, 'clean')"]
        + [s.replace("{half}", half) for s in body]
        + [f"SELECT public.lab_fail_if('{PEER}', '{task}', {DAY}, 'half')"]
    )


SQL = {
    "raw_orders": guarded(
        "raw_orders",
        [
            f"DELETE FROM {S}.raw_orders WHERE order_day = {DAY}",
            f"""INSERT INTO {S}.raw_orders (order_id, order_day, country, amount)
SELECT extract(day FROM d.day)::int * 1000 + g, d.day, (ARRAY['DE', 'FR', 'NL', 'US'])[1 + g % 4],
       round(10 + ((g * 37 + extract(day FROM d.day)::int * 11) % 190) + (g % 100) / 100.0, 2)
FROM (SELECT {DAY} AS day) d, generate_series(1, 40 + extract(day FROM {DAY})::int % 7) g
WHERE {{half}}""",
        ],
        "g % 2 = 0",
    ),
    # append only, on purpose
    "stg_orders": guarded(
        "stg_orders",
        [
            f"""INSERT INTO {S}.stg_orders (order_id, order_day, country, amount)
SELECT order_id, order_day, country, amount FROM {S}.raw_orders
WHERE order_day = {DAY} AND {{half}}""",
        ],
        "order_id % 2 = 0",
    ),
    "fct_orders": guarded(
        "fct_orders",
        [
            f"DELETE FROM {S}.fct_orders WHERE order_day = {DAY}",
            f"""INSERT INTO {S}.fct_orders (order_id, order_day, country, amount)
SELECT order_id, order_day, country, amount FROM {S}.stg_orders
WHERE order_day = {DAY} AND {{half}}""",
        ],
        "order_id % 2 = 0",
    ),
    "revenue_daily": guarded(
        "revenue_daily",
        [
            f"DELETE FROM {S}.revenue_daily WHERE order_day = {DAY}",
            f"""INSERT INTO {S}.revenue_daily (order_day, country, orders, revenue)
SELECT order_day, country, count(*), sum(amount) FROM {S}.fct_orders
WHERE order_day = {DAY} AND {{half}}
GROUP BY order_day, country""",
        ],
        "country IN ('DE', 'NL')",
    ),
    # the external side effect: one "file" per day, appended (a re-run sends it again, visibly)
    "finance_export": guarded(
        "finance_export",
        [
            f"""INSERT INTO {S}.sent_files (day, file_name, rows, sent_at)
SELECT {DAY}, 'finance_revenue_' || to_char({DAY}, 'YYYYMMDD') || '.csv', count(*), now()
FROM {S}.revenue_daily WHERE order_day = {DAY} AND {{half}}""",
        ],
        "true",  # one file per day: nothing to halve
    ),
    # reads its own previous day
    "running_balance": guarded(
        "running_balance",
        [
            f"DELETE FROM {S}.running_balance WHERE order_day = {DAY}",
            f"""INSERT INTO {S}.running_balance (order_day, country, balance)
SELECT {DAY}, coalesce(r.country, p.country), coalesce(p.balance, 0) + coalesce(r.revenue, 0)
FROM (SELECT country, revenue FROM {S}.revenue_daily WHERE order_day = {DAY}) r
FULL JOIN (SELECT country, balance FROM {S}.running_balance WHERE order_day = {DAY} - 1) p
  ON p.country = r.country
WHERE {{half}}""",
        ],
        "coalesce(r.country, p.country) IN ('DE', 'NL')",
    ),
}


with DAG(
    dag_id="lab_orders",
    description="Reparo peers lab: daily orders pipeline on reparo_lab_warehouse.airflow_lab",
    schedule="@daily",
    start_date=datetime(2026, 8, 1, tzinfo=timezone.utc),
    end_date=datetime(2026, 8, 31, tzinfo=timezone.utc),
    catchup=False,
    # Not 1: a run whose running_balance waits on a failed previous day (depends_on_past) stays `running`
    # forever (Airflow's deadlock check skips depends_on_past tasks), which would block every later run.
    max_active_runs=31,
    tags=["reparo-lab", "orders"],
    default_args={"owner": "orders-team", "retries": 0, "conn_id": "lab_warehouse"},
    # short on purpose: the OpenLineage provider sends doc_md in a `documentation` job facet on every event
    doc_md="Reparo peers lab: raw_orders -> stg_orders (appends) -> fct_orders -> revenue_daily -> finance_export / running_balance.",
) as dag:
    t = {
        name: SQLExecuteQueryOperator(task_id=name, sql=sql, autocommit=True, split_statements=False)
        for name, sql in SQL.items()
        if name != "running_balance"
    }
    t["running_balance"] = SQLExecuteQueryOperator(
        task_id="running_balance", sql=SQL["running_balance"], autocommit=True, split_statements=False,
        depends_on_past=True,
    )
    t["raw_orders"] >> t["stg_orders"] >> t["fct_orders"] >> t["revenue_daily"]
    t["revenue_daily"] >> [t["finance_export"], t["running_balance"]]
