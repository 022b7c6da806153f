import type { AirflowConnection, PlannedRequest } from "@/lib/contracts/orchestrators";
import { compositeKey } from "@/lib/domain/composite-key";
import type { DispatchPlan, PairRef, RequestsResult, TaskFacts, Unsupported } from "./port";

/**
 * What Reparo asks Airflow 3 (REST API v2), as pure functions of the plan: no clock, no network.
 * A wave is one `POST /api/v2/dags/{dag_id}/clearTaskInstances` per DAG and range of logical
 * dates (the plan's UnitSet ranges, lib/domain windowRanges), with exactly the plan's task ids —
 * downstream, upstream, past and future OFF, because Reparo already listed the closure and the
 * orchestrator's own "include downstream" would pull back in the side-effecting tasks the plan
 * left out (seed 001). Checked against the 3.0 and 3.2 documents and the recorded answers of a
 * real Airflow (test/fixtures/peers/airflow/spike).
 */

/** One clear: a DAG's tasks over one range of logical dates (window starts, inclusive), in a wave. */
export interface ClearGroup {
  readonly wave: number;
  readonly dagId: string;
  readonly taskIds: string[];
  readonly start: string;
  readonly end: string;
}

export interface AirflowClearBody {
  dry_run: boolean;
  task_ids: string[];
  start_date: string;
  end_date: string;
  only_failed: boolean;
  only_running: boolean;
  reset_dag_runs: boolean;
  include_upstream: boolean;
  include_downstream: boolean;
  include_future: boolean;
  include_past: boolean;
}

export interface TaskInstance {
  dag_id: string;
  task_id: string;
  logical_date?: string | null;
  state?: string | null;
  try_number: number;
  map_index: number;
  end_date?: string | null;
  dag_run_id: string;
}
export interface TaskInstanceCollection {
  task_instances: TaskInstance[];
  total_entries: number;
}

/** Airflow caps page_limit at [api] maximum_page_limit (100 by default). */
export const PAGE = 100;
/** DAG run states after which Airflow's scheduler looks at none of the run's task instances again. */
export const RUN_ENDED = ["success", "failed"] as const;
/** Task instance states a cancel stops (none: cleared and not yet scheduled — it would still start). */
const STILL_TO_RUN = [null, "scheduled", "queued", "running", "restarting", "up_for_retry", "up_for_reschedule", "deferred"];
export const LIST_TASK_INSTANCES = "/api/v2/dags/~/dagRuns/~/taskInstances/list";
export const LIST_DAG_RUNS = "/api/v2/dags/~/dagRuns/list";

/** The Airflow DAG and task of a Reparo task: an override, else its OpenLineage name `dag_id.task_id`, else the pipeline as the DAG. */
export function airflowTaskOf(connection: AirflowConnection, task: TaskFacts): { dagId: string; taskId: string } {
  const named = connection.tasks[task.taskNodeId] ?? connection.tasks[task.name];
  const split = (s: string) => {
    const dot = s.indexOf(".");
    return dot > 0 ? { dagId: s.slice(0, dot), taskId: s.slice(dot + 1) } : null;
  };
  if (named) return (!connection.dagId && split(named)) || { dagId: connection.dagId ?? task.pipeline, taskId: named };
  if (connection.dagId) return { dagId: connection.dagId, taskId: task.name };
  return split(task.name) ?? { dagId: task.pipeline, taskId: task.name };
}

/** Why Airflow cannot run a task's pairs as planned, or null. */
function whyUnsupported(plan: DispatchPlan, taskNodeId: string, task: TaskFacts | undefined, timed: boolean): string | null {
  if (!task) return "the task is not in the catalog";
  if (!timed) return "Airflow clears task instances by logical date, and this task's units are not time windows";
  if (plan.idempotencyKeys[taskNodeId])
    return "a cleared task instance cannot carry Reparo's idempotency key: replay this side-effecting task in Airflow yourself, with the key";
  const overrides = Object.keys(plan.parameterOverrides);
  if (overrides.length > 0) return `clearing a task instance re-runs it with its DAG run's conf: the overrides (${overrides.join(", ")}) cannot be passed`;
  return null;
}

/**
 * The clears that run the plan, in wave order: per wave, the tasks of one DAG over the same range
 * of logical dates share one clear. Example: stg_orders {08-17, 08-18} and stg_payments {08-17,
 * 08-18} in wave 0 of DAG orders → one clear of both over 08-17..08-18.
 */
export function clearGroups(connection: AirflowConnection, plan: DispatchPlan): { groups: ClearGroup[]; unsupported: Unsupported[] } {
  const byTask = new Map<string, PairRef[]>();
  for (const p of plan.pairs) {
    const key = compositeKey(String(p.wave), p.taskNodeId);
    byTask.set(key, [...(byTask.get(key) ?? []), p]);
  }
  const groups = new Map<string, ClearGroup>();
  const unsupported: Unsupported[] = [];
  for (const pairs of byTask.values()) {
    const { taskNodeId, wave } = pairs[0]!;
    const task = plan.tasks.get(taskNodeId);
    const units = pairs.map((p) => p.unitKey);
    const ranges = plan.windowRanges?.(taskNodeId, units) ?? null;
    const why = whyUnsupported(plan, taskNodeId, task, ranges !== null);
    if (why || !task || !ranges) {
      unsupported.push({ taskNodeId, units, reason: why ?? "" });
      continue;
    }
    const { dagId, taskId } = airflowTaskOf(connection, task);
    for (const r of ranges) {
      const start = new Date(r.startMs).toISOString();
      const end = new Date(r.lastStartMs).toISOString();
      const key = compositeKey(String(wave), dagId, start, end);
      const g = groups.get(key) ?? { wave, dagId, taskIds: [], start, end };
      if (!g.taskIds.includes(taskId)) g.taskIds.push(taskId);
      groups.set(key, g);
    }
  }
  return { groups: [...groups.values()].sort((a, b) => a.wave - b.wave), unsupported };
}

export function clearBody(g: ClearGroup, dryRun: boolean): AirflowClearBody {
  return {
    dry_run: dryRun,
    task_ids: g.taskIds,
    start_date: g.start,
    end_date: g.end,
    only_failed: false,
    only_running: false,
    reset_dag_runs: true,
    include_upstream: false,
    include_downstream: false,
    include_future: false,
    include_past: false,
  };
}

/** GET of a DAG (DAGResponse: `is_paused`). */
export const dagPath = (dagId: string) => `/api/v2/dags/${encodeURIComponent(dagId)}`;

export const clearPath = (g: ClearGroup) => `/api/v2/dags/${encodeURIComponent(g.dagId)}/clearTaskInstances`;

/** The clear of one DAG run's task instances again, at its logical date (a clear that landed while its run was ending). */
export const clearAgainGroup = (dagId: string, taskIds: readonly string[], logicalDate: string): ClearGroup => {
  const at = new Date(logicalDate).toISOString();
  return { wave: -1, dagId, taskIds: [...new Set(taskIds)], start: at, end: at };
};

/** One page of the task instances a clear touched (every state): how a wave's progress is read. */
export const listClearedBody = (g: ClearGroup, offset: number) => ({
  dag_ids: [g.dagId],
  task_ids: g.taskIds,
  logical_date_gte: g.start,
  logical_date_lte: g.end,
  page_limit: PAGE,
  page_offset: offset,
});

/** The task instances of a clear that still run or would start: what a cancel marks failed. */
export const listStillToRunBody = (g: ClearGroup) => ({
  dag_ids: [g.dagId],
  task_ids: g.taskIds,
  logical_date_gte: g.start,
  logical_date_lte: g.end,
  state: STILL_TO_RUN,
  page_limit: PAGE,
});

/** One page of a DAG's ended runs between two logical dates (ms). */
export const listEndedRunsBody = (dagId: string, fromMs: number, toMs: number, offset: number) => ({
  dag_ids: [dagId],
  states: [...RUN_ENDED],
  logical_date_gte: new Date(fromMs).toISOString(),
  logical_date_lte: new Date(toMs).toISOString(),
  page_limit: PAGE,
  page_offset: offset,
});

/** Airflow 3 has no "cancel these task instances" call; marking one failed stops it. */
export const markFailed = (ti: Pick<TaskInstance, "dag_id" | "dag_run_id" | "task_id">) => ({
  path: `/api/v2/dags/${encodeURIComponent(ti.dag_id)}/dagRuns/${encodeURIComponent(ti.dag_run_id)}/taskInstances/${encodeURIComponent(ti.task_id)}`,
  body: { new_state: "failed", note: "stopped by Reparo: the repair was cancelled" },
});

/** The requests that run the plan, to copy or to review: one clear per group, named by the pipeline of its DAG. */
export function airflowRequests(connection: AirflowConnection, plan: DispatchPlan): RequestsResult {
  const { groups, unsupported } = clearGroups(connection, plan);
  const pipeline = (g: ClearGroup) => [...plan.tasks.values()].find((t) => airflowTaskOf(connection, t).dagId === g.dagId)?.pipeline ?? g.dagId;
  const requests: PlannedRequest[] = groups.map((g) => ({
    orchestrator: "airflow",
    pipeline: pipeline(g),
    wave: g.wave,
    method: "POST",
    path: clearPath(g),
    body: clearBody(g, false),
  }));
  return { requests, unsupported };
}
