"""Peers-lab pipeline `lab_orders` (Dagster 1.13): daily-partitioned assets on reparo_lab_warehouse.dagster_lab.

raw_orders -> stg_orders -> fct_orders -> revenue_daily -> finance_export
                                                       \\-> running_balance (+ its own previous partition)

Same shape and behaviour as peers/airflow/dags/lab_orders.py, written with psycopg2 (DSN in the env var
REPARO_LAB_WAREHOUSE_DSN, default host 127.0.0.1 port 5432 user postgres). Tables are created by
`bash peers/lab.sh warehouse` (peers/warehouse/peer_tables.sql).

Failures come from data only: a row (peer 'dagster', task = asset name, day = partition key, mode) in
public.lab_control makes the asset
- mode `clean`: raise before writing anything;
- mode `half`:  write half of the partition's rows, COMMIT, then raise (the half write stays).
stg_orders APPENDS (not idempotent on purpose); finance_export appends one row per "sent file" to sent_files.
Materializations carry dagster/partition_row_count (rows written for the partition), dagster/row_count
(rows in the table afterwards, Dagster's TableMetadataSet semantics) and the day.
"""

import os

import dagster as dg
import psycopg2

PEER = "dagster"
S = "dagster_lab"
DSN = os.environ.get(
    "REPARO_LAB_WAREHOUSE_DSN", "host=127.0.0.1 port=5432 user=postgres dbname=reparo_lab_warehouse"
)

partitions = dg.DailyPartitionsDefinition(start_date="2026-08-01", end_date="2026-09-01")


class LabControlError(Exception):
    """Raised when public.lab_control says so (same texts as the SQL function public.lab_fail_if)."""


def _run(context: dg.AssetExecutionContext, task: str, table: str, statements: list[str],
         half_sql: str) -> dg.MaterializeResult:
    """Execute the statements for the partition's day in one transaction; {half} is the half-write predicate."""
    day = context.partition_key
    conn = psycopg2.connect(DSN, application_name=f"dagster-lab {task} {day}")
    try:
        with conn.cursor() as cur:
            cur.execute("SELECT public.lab_mode(%s, %s, %s)", (PEER, task, day))
            mode = cur.fetchone()[0]
            if mode == "clean":
                raise LabControlError(
                    f"lab_control: {PEER}.{task} failed for {day} before writing anything (mode clean)")
            written = deleted = 0
            for sql in statements:
                sql = sql.replace("{half}", half_sql if mode == "half" else "true")
                cur.execute(sql.replace(" % ", " %% "), {"day": day})  # modulo vs. psycopg2's %(day)s
                if sql.lstrip().upper().startswith("DELETE"):
                    deleted += cur.rowcount
                else:
                    written += cur.rowcount
            cur.execute(f"SELECT count(*) FROM {S}.{table}")
            table_rows = cur.fetchone()[0]
        conn.commit()
        context.log.info(f"{task} {day}: {written} rows written, {deleted} deleted, table has {table_rows}")
        if mode == "half":
            raise LabControlError(
                f"lab_control: {PEER}.{task} failed for {day} after writing half of the rows (mode half)")
        return dg.MaterializeResult(metadata={
            # Dagster's standard keys (TableMetadataSet: row_count / partition_row_count)
            "dagster/partition_row_count": dg.MetadataValue.int(written),
            "dagster/row_count": dg.MetadataValue.int(table_rows),
            "day": day,
            "rows_deleted": deleted,
            "table": f"reparo_lab_warehouse.{S}.{table}",
        })
    finally:
        conn.close()


COMMON = dict(partitions_def=partitions, group_name="lab_orders", kinds={"postgres"})
DAY = "%(day)s::date"


@dg.asset(owners=["team:orders"], description="Orders of the day, generated (replace per day).", **COMMON)
def raw_orders(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
    return _run(context, "raw_orders", "raw_orders", [
        f"DELETE FROM {S}.raw_orders WHERE order_day = {DAY}",
        f"""INSERT INTO {S}.raw_orders (order_id, order_day, country, amount)
SELECT extract(day FROM d.day)::int * 1000 + g, d.day, (ARRAY['DE', 'FR', 'NL', 'US'])[1 + g % 4],
       round(10 + ((g * 37 + extract(day FROM d.day)::int * 11) % 190) + (g % 100) / 100.0, 2)
FROM (SELECT {DAY} AS day) d, generate_series(1, 40 + extract(day FROM {DAY})::int % 7) g
WHERE {{half}}""",
    ], "g % 2 = 0")


@dg.asset(deps=[raw_orders], owners=["team:orders"],
          description="APPENDS the day's raw orders (not idempotent: a re-run after a half write duplicates).",
          **COMMON)
def stg_orders(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
    return _run(context, "stg_orders", "stg_orders", [
        f"""INSERT INTO {S}.stg_orders (order_id, order_day, country, amount)
SELECT order_id, order_day, country, amount FROM {S}.raw_orders WHERE order_day = {DAY} AND {{half}}""",
    ], "order_id % 2 = 0")


@dg.asset(deps=[stg_orders], owners=["team:orders"], description="Orders fact (replace per day).", **COMMON)
def fct_orders(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
    return _run(context, "fct_orders", "fct_orders", [
        f"DELETE FROM {S}.fct_orders WHERE order_day = {DAY}",
        f"""INSERT INTO {S}.fct_orders (order_id, order_day, country, amount)
SELECT order_id, order_day, country, amount FROM {S}.stg_orders WHERE order_day = {DAY} AND {{half}}""",
    ], "order_id % 2 = 0")


@dg.asset(deps=[fct_orders], owners=["team:finance"], description="Revenue per country and day (replace per day).",
          **COMMON)
def revenue_daily(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
    return _run(context, "revenue_daily", "revenue_daily", [
        f"DELETE FROM {S}.revenue_daily WHERE order_day = {DAY}",
        f"""INSERT INTO {S}.revenue_daily (order_day, country, orders, revenue)
SELECT order_day, country, count(*), sum(amount) FROM {S}.fct_orders WHERE order_day = {DAY} AND {{half}}
GROUP BY order_day, country""",
    ], "country IN ('DE', 'NL')")


@dg.asset(deps=[revenue_daily], owners=["team:finance"], tags={"side_effect": "external"},
          metadata={"side_effect": "external", "sends_to": "finance (sent_files)"},
          description="EXTERNAL side effect: 'sends' the day's revenue file (appends to sent_files; a re-run "
                      "sends again, visibly).",
          **COMMON)
def finance_export(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
    return _run(context, "finance_export", "sent_files", [
        f"""INSERT INTO {S}.sent_files (day, file_name, rows, sent_at)
SELECT {DAY}, 'finance_revenue_' || to_char({DAY}, 'YYYYMMDD') || '.csv', count(*), now()
FROM {S}.revenue_daily WHERE order_day = {DAY} AND {{half}}""",
    ], "true")  # one file per day: nothing to halve


@dg.asset(
    deps=[
        revenue_daily,
        # its own previous day (self-dependency; 2026-08-01 has no previous partition and starts from 0)
        dg.AssetDep("running_balance",
                    partition_mapping=dg.TimeWindowPartitionMapping(start_offset=-1, end_offset=-1)),
    ],
    owners=["team:finance"],
    description="balance(day) = balance(day - 1) + revenue(day), per country.",
    **COMMON,
)
def running_balance(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
    return _run(context, "running_balance", "running_balance", [
        f"DELETE FROM {S}.running_balance WHERE order_day = {DAY}",
        f"""INSERT INTO {S}.running_balance (order_day, country, balance)
SELECT {DAY}, coalesce(r.country, p.country), coalesce(p.balance, 0) + coalesce(r.revenue, 0)
FROM (SELECT country, revenue FROM {S}.revenue_daily WHERE order_day = {DAY}) r
FULL JOIN (SELECT country, balance FROM {S}.running_balance WHERE order_day = {DAY} - 1) p
  ON p.country = r.country
WHERE {{half}}""",
    ], "coalesce(r.country, p.country) IN ('DE', 'NL')")


defs = dg.Definitions(assets=[raw_orders, stg_orders, fct_orders, revenue_daily, finance_export, running_balance])
