-- One peer's schema in reparo_lab_warehouse (airflow_lab, dagster_lab). psql -v schema=<name>.
-- dbt builds its own schema (dbt_lab) from peers/dbt/lab_project.
DROP SCHEMA IF EXISTS :"schema" CASCADE;
CREATE SCHEMA :"schema";
SET search_path TO :"schema";
CREATE TABLE raw_orders      (order_id int NOT NULL, order_day date NOT NULL, country text NOT NULL,
                              amount numeric(10,2) NOT NULL);
-- append-only: a re-run after a partial write duplicates rows (on purpose)
CREATE TABLE stg_orders      (order_id int NOT NULL, order_day date NOT NULL, country text NOT NULL,
                              amount numeric(10,2) NOT NULL, loaded_at timestamptz NOT NULL DEFAULT now());
CREATE TABLE fct_orders      (order_id int NOT NULL, order_day date NOT NULL, country text NOT NULL,
                              amount numeric(10,2) NOT NULL);
CREATE TABLE revenue_daily   (order_day date NOT NULL, country text NOT NULL, orders int NOT NULL,
                              revenue numeric(12,2) NOT NULL);
CREATE TABLE running_balance (order_day date NOT NULL, country text NOT NULL, balance numeric(14,2) NOT NULL);
-- the "external" side effect of finance_export: one row per file sent, appended, never re-sent silently
CREATE TABLE sent_files      (day date NOT NULL, file_name text NOT NULL, rows int NOT NULL,
                              sent_at timestamptz NOT NULL DEFAULT now());
CREATE INDEX ON raw_orders (order_day);
CREATE INDEX ON stg_orders (order_day);
CREATE INDEX ON fct_orders (order_day);
