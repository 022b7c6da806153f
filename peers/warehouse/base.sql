-- Peers lab warehouse (database reparo_lab_warehouse), shared part: the control table and its helpers.
-- Applied by `bash peers/lab.sh warehouse`. Idempotent.
CREATE TABLE IF NOT EXISTS public.lab_control (
  peer text NOT NULL,   -- airflow | dagster | dbt
  task text NOT NULL,   -- stg_orders, revenue_daily, ...
  day  date NOT NULL,
  mode text NOT NULL CHECK (mode IN ('half', 'clean')),
  PRIMARY KEY (peer, task, day)
);

-- The mode of (peer, task, day), NULL when no control row exists.
CREATE OR REPLACE FUNCTION public.lab_mode(p_peer text, p_task text, p_day date) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT max(mode) FROM public.lab_control WHERE peer = p_peer AND task = p_task AND day = p_day
$$;

-- Raises when a control row (peer, task, day) with mode p_mode exists; returns true otherwise.
-- Airflow calls it as its own statement (autocommit: what was written before stays), dbt per row.
CREATE OR REPLACE FUNCTION public.lab_fail_if(p_peer text, p_task text, p_day date, p_mode text) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM public.lab_control
             WHERE peer = p_peer AND task = p_task AND day = p_day AND mode = p_mode) THEN
    IF p_mode = 'half' THEN
      RAISE EXCEPTION 'lab_control: %.% failed for % after writing half of the rows (mode half)',
        p_peer, p_task, p_day USING ERRCODE = 'P0001';
    ELSE
      RAISE EXCEPTION 'lab_control: %.% failed for % before writing anything (mode clean)',
        p_peer, p_task, p_day USING ERRCODE = 'P0001';
    END IF;
  END IF;
  RETURN true;
END
$$;
