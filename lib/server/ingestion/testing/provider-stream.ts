/**
 * An event stream shaped as Airflow's OpenLineage provider (2.20) and dbt-ol send them, for the
 * tests of what real producers leave unsaid: no row counts anywhere, a parent facet naming the
 * DAG run (with its root), the `airflow` run facet with the try number and depends_on_past,
 * nominal times for the units. orders_etl: extract → transform → load, daily over August 2026;
 * transform fails 2026-08-17 on both of its tries; extract 2026-08-10 is cleared and re-run
 * (try 2, a routine re-run); a dbt model reads load's output every day.
 * Shapes checked against peers/recordings/airflow/openlineage-events.ndjson and
 * test/fixtures/openlineage/dbt_ol_postgres_build_events.json.
 */
const PRODUCER = "https://github.com/apache/airflow/tree/providers-openlineage/2.20.3";
const SCHEMA = "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent";
const WAREHOUSE = "postgres://127.0.0.1:5432";
export const AIRFLOW_NS = "airflow-lab";
export const DBT_NS = "dbt";
export const DATASETS = {
  raw: `dataset:${WAREHOUSE}:warehouse.public.orders_raw`,
  clean: `dataset:${WAREHOUSE}:warehouse.public.orders_clean`,
  loaded: `dataset:${WAREHOUSE}:warehouse.public.orders`,
  revenue: `dataset:${WAREHOUSE}:warehouse.analytics.revenue_daily`,
} as const;
export const TASKS = {
  extract: `job:${AIRFLOW_NS}:orders_etl.extract`,
  transform: `job:${AIRFLOW_NS}:orders_etl.transform`,
  load: `job:${AIRFLOW_NS}:orders_etl.load`,
  revenue: `job:${DBT_NS}:warehouse.analytics.jaffle.revenue_daily`,
} as const;

const FAILED_DAY = 17;
const RERUN_DAY = 10;
const days = Array.from({ length: 31 }, (_, i) => i + 1);
const day = (d: number) => `2026-08-${String(d).padStart(2, "0")}`;
const at = (d: number, minute: number, second = 0) => new Date(Date.UTC(2026, 7, d + 1, 2, minute, second)).toISOString();
const uuid = (kind: number, d: number, n: number) =>
  `0193${kind.toString(16).padStart(4, "0")}-${d.toString(16).padStart(4, "0")}-7000-8000-${n.toString(16).padStart(12, "0")}`;

function facet<T extends object>(name: string, body: T) {
  return { _producer: PRODUCER, _schemaURL: `https://openlineage.io/spec/facets/1-0-0/${name}.json`, ...body };
}

function airflowTask(
  d: number,
  task: "extract" | "transform" | "load",
  tryNumber: number,
  eventType: "START" | "COMPLETE" | "FAIL",
  minute: number,
  io: { inputs: string[]; outputs: string[] },
) {
  const dagRunId = uuid(1, d, 0);
  return {
    eventType,
    eventTime: at(d, minute, eventType === "START" ? 0 : 30),
    producer: PRODUCER,
    schemaURL: SCHEMA,
    run: {
      runId: uuid(2, d, ["extract", "transform", "load"].indexOf(task) * 10 + tryNumber),
      facets: {
        nominalTime: facet("NominalTimeRunFacet", { nominalStartTime: `${day(d)}T00:00:00+00:00`, nominalEndTime: `${day(d)}T00:00:00+00:00` }),
        parent: facet("ParentRunFacet", {
          run: { runId: dagRunId },
          job: { namespace: AIRFLOW_NS, name: "orders_etl" },
          root: { run: { runId: dagRunId }, job: { namespace: AIRFLOW_NS, name: "orders_etl" } },
        }),
        airflow: facet("AirflowRunFacet", {
          dag: { dag_id: "orders_etl", owner: "orders-team" },
          dagRun: { dag_id: "orders_etl", run_id: `scheduled__${day(d)}T00:00:00+00:00`, run_type: "scheduled", logical_date: `${day(d)}T00:00:00+00:00` },
          task: { task_id: task, depends_on_past: false, owner: "orders-team", operator_class: "SQLExecuteQueryOperator", retries: 1 },
          taskInstance: { try_number: tryNumber },
        }),
        ...(eventType === "FAIL" ? { errorMessage: facet("ErrorMessageRunFacet", { message: "division by zero", programmingLanguage: "python" }) } : {}),
      },
    },
    job: { namespace: AIRFLOW_NS, name: `orders_etl.${task}` },
    inputs: io.inputs.map((name) => ({ namespace: WAREHOUSE, name })),
    outputs: io.outputs.map((name) => ({ namespace: WAREHOUSE, name })),
  };
}

function dbtModel(d: number, eventType: "START" | "COMPLETE") {
  const invocation = uuid(3, d, 0);
  return {
    eventType,
    eventTime: at(d, 30, eventType === "START" ? 0 : 20),
    producer: "https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/dbt",
    schemaURL: SCHEMA,
    run: {
      runId: uuid(4, d, 1),
      facets: {
        nominalTime: facet("NominalTimeRunFacet", { nominalStartTime: `${day(d)}T00:00:00+00:00` }),
        parent: facet("ParentRunFacet", {
          run: { runId: invocation },
          job: { namespace: DBT_NS, name: "dbt-run-jaffle" },
          root: { run: { runId: invocation }, job: { namespace: DBT_NS, name: "dbt-run-jaffle" } },
        }),
      },
    },
    job: {
      namespace: DBT_NS,
      name: "warehouse.analytics.jaffle.revenue_daily",
      facets: { jobType: facet("JobTypeJobFacet", { processingType: "BATCH", integration: "DBT", jobType: "MODEL" }) },
    },
    inputs: [{ namespace: WAREHOUSE, name: "warehouse.public.orders" }],
    // dbt-ol for PostgreSQL: empty outputFacets, no row count.
    outputs: [{ namespace: WAREHOUSE, name: "warehouse.analytics.revenue_daily", outputFacets: {} }],
  };
}

/** Every event of the month, in the order the provider would send them. */
export function providerStream(): object[] {
  const out: object[] = [];
  for (const d of days) {
    const extract = { inputs: [], outputs: ["warehouse.public.orders_raw"] };
    const transform = { inputs: ["warehouse.public.orders_raw"], outputs: ["warehouse.public.orders_clean"] };
    const load = { inputs: ["warehouse.public.orders_clean"], outputs: ["warehouse.public.orders"] };
    const dagRun = (type: "START" | "COMPLETE" | "FAIL", minute: number) => airflowDagRun(d, type, minute);
    out.push(dagRun("START", 0));
    out.push(airflowTask(d, "extract", 1, "START", 0, extract), airflowTask(d, "extract", 1, "COMPLETE", 0, extract));
    // A routine re-run: the task cleared and run again before anything downstream ran.
    if (d === RERUN_DAY) out.push(airflowTask(d, "extract", 2, "START", 1, extract), airflowTask(d, "extract", 2, "COMPLETE", 1, extract));
    if (d === FAILED_DAY) {
      out.push(airflowTask(d, "transform", 1, "START", 2, transform), airflowTask(d, "transform", 1, "FAIL", 3, transform));
      out.push(airflowTask(d, "transform", 2, "START", 8, transform), airflowTask(d, "transform", 2, "FAIL", 9, transform));
      out.push(dagRun("FAIL", 10));
      continue; // load never ran; the dbt model ran on what was there
    }
    out.push(airflowTask(d, "transform", 1, "START", 2, transform), airflowTask(d, "transform", 1, "COMPLETE", 3, transform));
    out.push(airflowTask(d, "load", 1, "START", 4, load), airflowTask(d, "load", 1, "COMPLETE", 5, load));
    out.push(dagRun("COMPLETE", 6));
  }
  for (const d of days) out.push(dbtInvocation(d, "START"), dbtModel(d, "START"), dbtModel(d, "COMPLETE"), dbtInvocation(d, "COMPLETE"));
  return out;
}

/** The DAG run's own events (job `orders_etl`), as the provider sends them around its tasks'. */
function airflowDagRun(d: number, eventType: "START" | "COMPLETE" | "FAIL", minute: number) {
  return {
    eventType,
    eventTime: at(d, minute, eventType === "START" ? 0 : 45),
    producer: PRODUCER,
    schemaURL: SCHEMA,
    run: {
      runId: uuid(1, d, 0),
      facets: {
        nominalTime: facet("NominalTimeRunFacet", { nominalStartTime: `${day(d)}T00:00:00+00:00` }),
        airflowDagRun: facet("AirflowDagRunFacet", {
          dag: { dag_id: "orders_etl", owner: "orders-team" },
          dagRun: { dag_id: "orders_etl", run_id: `scheduled__${day(d)}T00:00:00+00:00`, run_type: "scheduled" },
        }),
        ...(eventType === "FAIL" ? { errorMessage: facet("ErrorMessageRunFacet", { message: "task_failure", programmingLanguage: "python" }) } : {}),
      },
    },
    job: {
      namespace: AIRFLOW_NS,
      name: "orders_etl",
      facets: { jobType: facet("JobTypeJobFacet", { processingType: "BATCH", integration: "AIRFLOW", jobType: "DAG" }) },
    },
    inputs: [],
    outputs: [],
  };
}

/** dbt-ol's job for the whole command (`dbt-run-<project>`), the parent of its models' runs. */
function dbtInvocation(d: number, eventType: "START" | "COMPLETE") {
  return {
    eventType,
    eventTime: at(d, eventType === "START" ? 29 : 31),
    producer: "https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/dbt",
    schemaURL: SCHEMA,
    run: { runId: uuid(3, d, 0), facets: {} },
    job: {
      namespace: DBT_NS,
      name: "dbt-run-jaffle",
      facets: { jobType: facet("JobTypeJobFacet", { processingType: "BATCH", integration: "DBT", jobType: "JOB" }) },
    },
    inputs: [],
    outputs: [],
  };
}

export const PROVIDER_STREAM = { failedDay: day(FAILED_DAY), rerunDay: day(RERUN_DAY), days: days.map(day) };
