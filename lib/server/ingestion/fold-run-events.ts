import { formatNodeId } from "@/lib/domain/ids";
import type { EventType, RunEvent } from "@/lib/contracts/openlineage";
import { explicitPartitionKeys } from "./partition-facets";

export interface RunRef {
  jobNodeId: string;
  namespace: string;
  name: string;
  runId: string;
}
/** An input, with the units its subset facet says were read (none when it does not say). */
export interface FoldedInput {
  nodeId: string;
  namespace: string;
  name: string;
  version: string | null;
  keys: string[];
}
export interface FoldedOutput {
  nodeId: string;
  namespace: string;
  name: string;
  rowCount: number | null;
  keys: string[];
  /** OpenLineage's lifecycleStateChange on the output (CREATE, DROP, OVERWRITE, TRUNCATE, ALTER, RENAME), the latest said. */
  lifecycle: string | null;
}

export type TryStatus = "running" | "succeeded" | "failed";

/** One try of the job in this run: a START after a terminal event starts a new one. */
export interface FoldedTry {
  tryNumber: number;
  status: TryStatus;
  terminal: EventType | null;
  startedAt: number;
  endedAt: number | null;
  error: string | null;
  lastEventAt: number;
  /**
   * The batch this try built, when the producer says so: a dbt microbatch model runs as ONE
   * OpenLineage run with a START … COMPLETE/FAIL per batch (dbt-ol's structured logs), each batch's
   * window only in its SQL (dbtBatchWindow). Its unit is the window's, not the run's.
   */
  window?: { start: number; end: number };
}

export interface FoldedRun extends RunRef {
  tries: FoldedTry[];
  /** Inputs and outputs merged over every event: some producers send them on START only, some on COMPLETE only. */
  inputs: FoldedInput[];
  outputs: FoldedOutput[];
  nominalStart: number | null;
  /** Airflow 3.2+'s partitioned DAG run: its partition key, and the instant it stands for. */
  partitionKey: string | null;
  partitionDate: number | null;
  parent: RunRef | null;
  root: RunRef | null;
  kind: "scheduled" | "manual" | "backfill";
  kindFromProducer?: boolean;
  codeVersion: string;
  /** A test of what it reads (dbt-ol's jobType TEST): its outputs (a store-failures table) are not datasets to complete. */
  isCheck: boolean;
  /** A dbt microbatch model (its output's `dbt_model` facet): each try is one batch (FoldedTry.window). */
  microbatch: boolean;
  /** The Databricks job run this run was part of (the Spark integration's environment-properties facet): what a repair repairs. */
  databricksJobRunId: number | null;
  /** What the producer's facets say of the task (its repair-safety facts), by source; null: not said. */
  facts: {
    /** Airflow's `airflow` run facet: the task's depends_on_past and owner. */
    airflow: { dependsOnOwnPast: boolean | null; owner: string | null };
    /** OpenLineage's ownership job facet; lifecycleStateChange OVERWRITE or TRUNCATE on an output: it replaces. */
    openlineage: { owner: string | null; writeMode: "replace" | null };
    /** The `ownership` dataset facet of its inputs and outputs: each dataset's first owner, by node id. */
    datasetOwners: Record<string, string>;
  };
}

const CHECK_JOB_TYPES = new Set(["TEST", "CHECK"]);
const ORDER: Record<EventType, number> = { START: 0, RUNNING: 1, OTHER: 2, COMPLETE: 3, FAIL: 3, ABORT: 3 };
const TERMINAL = new Set<EventType>(["COMPLETE", "FAIL", "ABORT"]);

export const runRefOf = (namespace: string, name: string, runId: string): RunRef => ({
  jobNodeId: formatNodeId("job", namespace, name),
  namespace,
  name,
  runId,
});

/**
 * Everything known about one OpenLineage run, from all its events in event-time order — so the
 * answer does not depend on the order the events arrived in. A later value wins (a COMPLETE
 * row count replaces a RUNNING one); lists are merged.
 */
export function foldRunEvents(events: RunEvent[]): FoldedRun | null {
  const all = [...events].sort((a, b) => time(a) - time(b) || ORDER[typeOf(a)] - ORDER[typeOf(b)]);
  // A dbt-ol statement's events are filed under its node's run (runRefOfEvent): they say which
  // batch a try built, nothing else. A run whose own events have not arrived yet is not a run yet.
  const statements = all.filter((e) => dbtStatementParent(e) !== null);
  const sorted = all.filter((e) => dbtStatementParent(e) === null);
  if (sorted.length === 0) return null;
  const first = sorted[0]!;
  // One literal, no spread: V8 gives an object built by a spread followed by more properties a
  // slow path of its own, and this one was ~20 µs of a run's fold (issue 35, docs/ingestion.md).
  const run: FoldedRun = {
    jobNodeId: formatNodeId("job", first.job.namespace, first.job.name),
    namespace: first.job.namespace,
    name: first.job.name,
    runId: first.run.runId,
    tries: [],
    inputs: [],
    outputs: [],
    nominalStart: null,
    partitionKey: null,
    partitionDate: null,
    parent: null,
    root: null,
    kind: "manual",
    codeVersion: "",
    isCheck: false,
    microbatch: false,
    databricksJobRunId: null,
    facts: { airflow: { dependsOnOwnPast: null, owner: null }, openlineage: { owner: null, writeMode: null }, datasetOwners: {} },
  };
  const inputs = new Map<string, FoldedInput>();
  const outputs = new Map<string, FoldedOutput>();
  for (const event of sorted) {
    foldTry(run.tries, event, explicitTry(event));
    foldFacets(run, event);
    for (const d of [...(event.inputs ?? []), ...(event.outputs ?? [])]) {
      const owner = firstOwner(d.facets as Record<string, unknown> | null | undefined);
      if (owner) run.facts.datasetOwners[formatNodeId("dataset", d.namespace, d.name)] = owner;
    }
    for (const i of event.inputs ?? [])
      mergeInput(inputs, i.namespace, i.name, i.facets?.version?.datasetVersion ?? null, explicitPartitionKeys(i.inputFacets?.subset));
    for (const o of event.outputs ?? [])
      mergeOutput(
        outputs,
        o.namespace,
        o.name,
        o.outputFacets?.outputStatistics?.rowCount ?? null,
        explicitPartitionKeys(o.outputFacets?.subset),
        lifecycleOf(o.facets as Record<string, unknown> | null | undefined),
      );
  }
  run.inputs = [...inputs.values()];
  run.outputs = run.isCheck ? [] : [...outputs.values()];
  run.microbatch = sorted.some((e) => (e.outputs ?? []).some((o) => isDbtMicrobatch(o.facets as Record<string, unknown> | null | undefined)));
  if (run.microbatch) assignBatchWindows(run.tries, statements);
  if (run.outputs.some((o) => o.lifecycle === "OVERWRITE" || o.lifecycle === "TRUNCATE")) run.facts.openlineage.writeMode = "replace";
  return run;
}

function foldTry(tries: FoldedTry[], event: RunEvent, explicit: number | null): void {
  const type = typeOf(event);
  const at = time(event);
  let current = explicit !== null ? tries.find((t) => t.tryNumber === explicit) : tries[tries.length - 1];
  const restarted = explicit === null && current?.terminal && type === "START";
  if (!current || restarted) {
    // An implicit try follows the highest one seen (Airflow may have numbered earlier ones itself).
    const next = tries.reduce((m, t) => Math.max(m, t.tryNumber), 0) + 1;
    current = { tryNumber: explicit ?? next, status: "running", terminal: null, startedAt: at, endedAt: null, error: null, lastEventAt: at };
    tries.push(current);
    tries.sort((a, b) => a.tryNumber - b.tryNumber);
  }
  if (type === "START") current.startedAt = Math.min(current.startedAt, at);
  current.lastEventAt = Math.max(current.lastEventAt, at);
  const message = event.run.facets?.errorMessage?.message;
  if (message) current.error = message;
  if (TERMINAL.has(type)) {
    current.terminal = type;
    current.endedAt = at;
    current.status = type === "COMPLETE" ? "succeeded" : "failed";
    if (type === "ABORT" && !current.error) current.error = "run aborted";
  }
}

// ---------------------------------------------------------------- dbt-ol's statements and microbatch batches

/**
 * dbt-ol's structured-logs mode (`dbt-ol … --consume-structured-logs`) reports every SQL statement
 * a node runs as a job of its own, `<node job>.sql.<n>`, whose parent run is the node's run. Such
 * a statement is part of that run, not a task: its events are filed under the node's run. Answers
 * the node's run, or null for any other event.
 */
export function dbtStatementParent(event: RunEvent): RunRef | null {
  const parent = event.run.facets?.parent;
  if (!parent || parent.job.namespace !== event.job.namespace) return null;
  const m = /^(.+)\.sql\.\d+$/.exec(event.job.name);
  if (!m || m[1] !== parent.job.name) return null;
  return runRefOf(parent.job.namespace, parent.job.name, parent.run.runId);
}

/** The run an event belongs to: its own, or for a dbt-ol statement its node's (dbtStatementParent). */
export function runRefOfEvent(event: RunEvent): RunRef {
  return dbtStatementParent(event) ?? runRefOf(event.job.namespace, event.job.name, event.run.runId);
}

function isDbtMicrobatch(facets: Record<string, unknown> | null | undefined): boolean {
  return dig(facets, ["dbt_model", "config", "incremental", "strategy"]) === "microbatch";
}

/**
 * The window of a dbt microbatch batch, from its SQL: dbt renders each ref of a batch as
 * `(select * from <relation> where <event_time> >= '<start>' and <event_time> < '<end>')
 * _dbt_et_filter_subq_<name>` (dbt-adapters' BaseRelation event-time filter), and no event names
 * the batch otherwise. E.g. `… order_day >= '2026-08-17 00:00:00+00:00' and order_day <
 * '2026-08-18 00:00:00+00:00') _dbt_et_filter_subq_fct_orders` → 2026-08-17T00:00Z … 2026-08-18T00:00Z.
 */
export function dbtBatchWindow(sql: string): { start: number; end: number } | null {
  const m = /\swhere\s+\S+\s*>=\s*'([^']+)'\s+and\s+\S+\s*<\s*'([^']+)'\s*\)\s*_dbt_et_filter_subq_/i.exec(sql);
  if (!m) return null;
  const start = Date.parse(m[1]!.replace(" ", "T"));
  const end = Date.parse(m[2]!.replace(" ", "T"));
  return Number.isNaN(start) || Number.isNaN(end) || end <= start ? null : { start, end };
}

/** Each batch (try) gets the window of the first filtered statement that ran inside it. */
function assignBatchWindows(tries: FoldedTry[], statements: RunEvent[]): void {
  for (const s of statements) {
    const query = dig(s.job.facets as Record<string, unknown> | undefined, ["sql", "query"]);
    const window = typeof query === "string" ? dbtBatchWindow(query) : null;
    if (!window) continue;
    const at = time(s);
    const t = tries.find((t) => t.startedAt <= at && at <= (t.endedAt ?? Number.POSITIVE_INFINITY));
    if (t && !t.window) t.window = window;
  }
}

/** Whether the event links its run to a parent run (lockRunLinking). */
export function hasParent(event: RunEvent): boolean {
  return Boolean(event.run.facets?.parent);
}

function foldFacets(run: FoldedRun, event: RunEvent): void {
  const facets = event.run.facets;
  if (facets?.nominalTime) run.nominalStart = Date.parse(facets.nominalTime.nominalStartTime);
  if (facets?.parent) {
    const p = facets.parent;
    run.parent = runRefOf(p.job.namespace, p.job.name, p.run.runId);
    if (p.root) run.root = runRefOf(p.root.job.namespace, p.root.job.name, p.root.run.runId);
  }
  const partition = airflowPartition(facets as Record<string, unknown> | null | undefined);
  if (partition.key !== null) run.partitionKey = partition.key;
  if (partition.date !== null) run.partitionDate = partition.date;
  const runType = airflowRunType(facets as Record<string, unknown> | null | undefined);
  if (runType) run.kind = runType;
  else if (run.nominalStart !== null && !run.kindFromProducer) run.kind = "scheduled";
  if (runType) run.kindFromProducer = true;
  const version = event.job.facets?.sourceCodeLocation?.version;
  if (version) run.codeVersion = version;
  if (CHECK_JOB_TYPES.has(event.job.facets?.jobType?.jobType?.toUpperCase() ?? "")) run.isCheck = true;
  const jobRun = databricksJobRun(facets as Record<string, unknown> | null | undefined);
  if (jobRun !== null) run.databricksJobRunId = jobRun;
  const task = dig(facets, ["airflow", "task"]) as Record<string, unknown> | undefined;
  if (typeof task?.depends_on_past === "boolean") run.facts.airflow.dependsOnOwnPast = task.depends_on_past;
  if (typeof task?.owner === "string" && task.owner.trim() !== "" && task.owner !== "airflow") run.facts.airflow.owner = task.owner.trim();
  const owner = firstOwner(event.job.facets as Record<string, unknown> | undefined);
  if (owner) run.facts.openlineage.owner = owner;
}

/** The first owner an `ownership` facet names (a job's or a dataset's: `{owners: [{name, type}]}`); null when none. */
function firstOwner(facets: Record<string, unknown> | null | undefined): string | null {
  const owners = dig(facets, ["ownership", "owners"]);
  const first = Array.isArray(owners) ? (owners[0] as { name?: unknown } | undefined)?.name : undefined;
  return typeof first === "string" && first.trim() !== "" ? first.trim().slice(0, 200) : null;
}

/**
 * OpenLineage's Spark integration on Databricks reports the cluster's Spark properties in the
 * `environment-properties` run facet; a job's task runs carry the job run as
 * `spark.databricks.job.parentRunId` (multi-task jobs) or `spark.databricks.job.runId`.
 */
function databricksJobRun(facets: Record<string, unknown> | null | undefined): number | null {
  const env = dig(facets, ["environment-properties", "environment-properties"]);
  if (!env || typeof env !== "object") return null;
  const e = env as Record<string, unknown>;
  for (const key of ["spark.databricks.job.parentRunId", "spark.databricks.job.runId"]) {
    const v = e[key];
    const n = typeof v === "number" ? v : typeof v === "string" && /^\d{1,18}$/.test(v) ? Number(v) : NaN;
    if (Number.isSafeInteger(n) && n > 0) return n;
  }
  return null;
}

/** Airflow reports its run type (on some events only); otherwise a nominal time means the run was scheduled. */
function airflowRunType(facets: Record<string, unknown> | null | undefined): FoldedRun["kind"] | null {
  const runType = dig(facets, ["airflow", "dagRun", "run_type"]) ?? dig(facets, ["airflowDagRun", "dagRun", "run_type"]);
  return runType === "scheduled" || runType === "manual" || runType === "backfill" ? runType : null;
}

/**
 * Airflow 3.2+ reports a partitioned DAG run's `partition_key` and `partition_date` on its DAG run
 * info (`airflow.dagRun` on task events, `airflowDagRun.dagRun` on DAG events; apache/airflow
 * #64897). A date that does not parse is ignored, never guessed.
 */
function airflowPartition(facets: Record<string, unknown> | null | undefined): { key: string | null; date: number | null } {
  const dagRun = (dig(facets, ["airflow", "dagRun"]) ?? dig(facets, ["airflowDagRun", "dagRun"])) as Record<string, unknown> | undefined;
  const key = dagRun?.partition_key;
  const date = typeof dagRun?.partition_date === "string" ? Date.parse(dagRun.partition_date) : Number.NaN;
  return { key: typeof key === "string" && key.trim() !== "" ? key : null, date: Number.isNaN(date) ? null : date };
}

/** Airflow numbers its tries; run ids are reused when a task is cleared, so the try is the key. */
function explicitTry(event: RunEvent): number | null {
  const n = dig(event.run.facets as Record<string, unknown> | undefined, ["airflow", "taskInstance", "try_number"]);
  return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : null;
}

function mergeInput(map: Map<string, FoldedInput>, namespace: string, name: string, version: string | null, keys: string[]): void {
  const nodeId = formatNodeId("dataset", namespace, name);
  const prev = map.get(nodeId);
  map.set(nodeId, { nodeId, namespace, name, version: version ?? prev?.version ?? null, keys: [...new Set([...(prev?.keys ?? []), ...keys])] });
}

function mergeOutput(map: Map<string, FoldedOutput>, namespace: string, name: string, rowCount: number | null, keys: string[], lifecycle: string | null): void {
  const nodeId = formatNodeId("dataset", namespace, name);
  const prev = map.get(nodeId);
  const merged = [...new Set([...(prev?.keys ?? []), ...keys])];
  map.set(nodeId, { nodeId, namespace, name, rowCount: rowCount ?? prev?.rowCount ?? null, keys: merged, lifecycle: lifecycle ?? prev?.lifecycle ?? null });
}

function lifecycleOf(facets: Record<string, unknown> | null | undefined): string | null {
  const v = dig(facets, ["lifecycleStateChange", "lifecycleStateChange"]);
  return typeof v === "string" && v.trim() !== "" ? v.toUpperCase() : null;
}

function dig(value: unknown, path: string[]): unknown {
  let v = value;
  for (const k of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

const typeOf = (e: RunEvent): EventType => e.eventType ?? "OTHER";
const time = (e: RunEvent): number => Date.parse(e.eventTime);
