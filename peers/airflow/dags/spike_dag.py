"""Peers-lab spike DAGs (Airflow 3.3).

reparo_spike      daily, 2 PythonOperator tasks: extract -> load. `load` raises on its FIRST try when
                  the run's conf has {"fail_load": true}, so a clear (= Reparo's repair) makes it pass.
reparo_spike_sql  daily, SQLExecuteQueryOperator against the lab PostgreSQL (conn reparo_lab_pg), so the
                  OpenLineage provider has an extractor and emits input/output datasets.
"""
from __future__ import annotations

from datetime import datetime

from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.providers.standard.operators.python import PythonOperator
from airflow.sdk import DAG


def extract(**context):
    print("extract for", context["logical_date"])
    return {"rows": 3}


def load(**context):
    ti = context["ti"]
    conf = context["dag_run"].conf or {}
    rows = ti.xcom_pull(task_ids="extract")
    print("load try", ti.try_number, "rows", rows, "conf", conf)
    if conf.get("fail_load") and ti.try_number == 1:
        raise RuntimeError("reparo spike: load fails on its first try (fail_load)")
    return {"loaded": rows}


with DAG(
    dag_id="reparo_spike",
    schedule="@daily",
    start_date=datetime(2026, 8, 1),
    catchup=False,
    tags=["reparo-lab"],
    default_args={"owner": "reparo-lab", "retries": 0},
):
    PythonOperator(task_id="extract", python_callable=extract) >> PythonOperator(
        task_id="load", python_callable=load
    )


with DAG(
    dag_id="reparo_spike_sql",
    schedule="@daily",
    start_date=datetime(2026, 8, 1),
    catchup=False,
    tags=["reparo-lab"],
    default_args={"owner": "reparo-lab", "retries": 0},
):
    create = SQLExecuteQueryOperator(
        task_id="create_tables",
        conn_id="reparo_lab_pg",
        sql="""
        CREATE SCHEMA IF NOT EXISTS lab;
        CREATE TABLE IF NOT EXISTS lab.orders (id int, day date, amount numeric);
        CREATE TABLE IF NOT EXISTS lab.daily_orders (day date, orders int, amount numeric);
        INSERT INTO lab.orders
          SELECT g, DATE '{{ ds }}', g * 10 FROM generate_series(1, 3) g;
        """,
    )
    aggregate = SQLExecuteQueryOperator(
        task_id="aggregate",
        conn_id="reparo_lab_pg",
        sql="""
        INSERT INTO lab.daily_orders (day, orders, amount)
        SELECT day, count(*), sum(amount) FROM lab.orders WHERE day = DATE '{{ ds }}' GROUP BY day;
        """,
    )
    create >> aggregate
