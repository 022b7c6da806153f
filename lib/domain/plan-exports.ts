/**
 * A repair plan as the orchestrator's own request, so the operator runs the repair through
 * the same job (seed 000: "make the repair a parameterised invocation of the same job, never
 * a separate script"):
 *   Airflow 3   POST /api/v2/dags/{dag_id}/clearTaskInstances   (one body per DAG and key range)
 *   Dagster     launchPartitionBackfill(backfillParams)          (one per identical partition set)
 *   Databricks  POST /api/2.2/jobs/runs/repair                   (one per job run)
 *
 * Why downstream/dependent flags are OFF: Reparo already lists the exact closure. The
 * orchestrator's own "include downstream" would pull back in the side-effecting tasks the
 * plan excluded (seed 001: "the safety feature is what sends the duplicate").
 *
 * Example: running_balance 2026-08-17…2026-08-25 in dag `orders` →
 *   { path: "/api/v2/dags/orders/clearTaskInstances", body: { task_ids: ["running_balance"],
 *     start_date: "2026-08-17T00:00:00.000Z", end_date: "2026-08-25T00:00:00.000Z", … } }
 */
import { nodeName, type TaskId } from "./ids";
import type { LineageGraph } from "./lineage-graph";
import { keysOf, sameDefinition } from "./partitions";
import type { PlannedTask, RepairPlan } from "./repair-planner";
import { UnitSet } from "./unit-set";

export interface AirflowClearBody {
  readonly dry_run: boolean;
  readonly task_ids: string[];
  readonly start_date: string;
  readonly end_date: string;
  readonly only_failed: boolean;
  readonly only_running: boolean;
  readonly reset_dag_runs: boolean;
  readonly include_upstream: boolean;
  readonly include_downstream: boolean;
  readonly include_future: boolean;
  readonly include_past: boolean;
}

export interface AirflowClearRequest {
  readonly method: "POST";
  readonly path: string;
  readonly wave: number;
  readonly body: AirflowClearBody;
}

export interface ExportOptions {
  /** Orchestrator names; default: the pipeline is the DAG / job, the task's short name is the task. */
  readonly dagIdOf?: (pipeline: string) => string;
  readonly taskNameOf?: (task: TaskId) => string;
}

const taskName = (o: ExportOptions, t: TaskId) => (o.taskNameOf ?? nodeName)(t);
const spaceOf = (graph: LineageGraph, t: TaskId) => graph.nodes[graph.index.get(t)!]!.space;

/** Each scheduled task with its wave, in execution order. */
function scheduledWithWave(plan: RepairPlan): { wave: number; planned: PlannedTask }[] {
  return plan.waves.flatMap((w, wave) => w.map((planned) => ({ wave, planned })));
}

/**
 * Airflow clears by logical-date range, so each contiguous range of units is one request, and
 * tasks with the same DAG, wave and range share it. Tasks on non-time partitions cannot be
 * addressed by date and are returned in `unsupported`.
 */
export function toAirflowClear(plan: RepairPlan, graph: LineageGraph, options: ExportOptions & { dryRun?: boolean } = {}) {
  const groups = new Map<string, { wave: number; dag: string; start: string; end: string; tasks: string[] }>();
  const unsupported: PlannedTask[] = [];
  for (const { wave, planned } of scheduledWithWave(plan)) {
    const time = spaceOf(graph, planned.task).time;
    if (!time) {
      unsupported.push(planned);
      continue;
    }
    const dag = (options.dagIdOf ?? ((p) => p))(planned.pipeline);
    planned.units.forEachRange((lo, hi) => {
      const start = new Date(time.windowStartMs(lo)).toISOString();
      const end = new Date(time.windowStartMs(hi)).toISOString();
      const key = `${wave}|${dag}|${start}|${end}`;
      const g = groups.get(key) ?? { wave, dag, start, end, tasks: [] };
      g.tasks.push(taskName(options, planned.task));
      groups.set(key, g);
    });
  }
  const requests: AirflowClearRequest[] = [...groups.values()].map((g) => ({
    method: "POST",
    path: `/api/v2/dags/${encodeURIComponent(g.dag)}/clearTaskInstances`,
    wave: g.wave,
    body: {
      dry_run: options.dryRun ?? true,
      task_ids: g.tasks,
      start_date: g.start,
      end_date: g.end,
      only_failed: false,
      only_running: false,
      reset_dag_runs: true,
      include_upstream: false,
      include_downstream: false,
      include_future: false,
      include_past: false,
    },
  }));
  return { requests, unsupported };
}

export interface DagsterBackfillParams {
  readonly partitionNames: string[];
  readonly assetSelection: { readonly path: string[] }[];
  readonly fromFailure: false;
  readonly title: string;
  readonly description: string;
}

/**
 * One backfill per distinct partition set (Dagster applies `partitionNames` to every selected
 * asset). The asset key path defaults to the task's short name split on "/".
 */
export function toDagsterBackfills(
  plan: RepairPlan,
  graph: LineageGraph,
  options: { assetPathOf?: (task: TaskId) => string[]; title?: string } = {}
): DagsterBackfillParams[] {
  const groups: { units: UnitSet; tasks: TaskId[]; space: ReturnType<typeof spaceOf> }[] = [];
  for (const { planned } of scheduledWithWave(plan)) {
    const space = spaceOf(graph, planned.task);
    const same = groups.find((g) => sameDefinition(g.space.def, space.def) && g.units.equals(planned.units));
    if (same) same.tasks.push(planned.task);
    else groups.push({ units: planned.units, tasks: [planned.task], space });
  }
  const pathOf = options.assetPathOf ?? ((t: TaskId) => nodeName(t).split("/"));
  return groups.map((g) => ({
    partitionNames: [...keysOf(g.space, g.units)],
    assetSelection: g.tasks.map((t) => ({ path: pathOf(t) })),
    fromFailure: false,
    title: options.title ?? `Reparo repair (${plan.strategy})`,
    description: `${g.tasks.length} assets × ${g.units.size} partitions from a Reparo ${plan.strategy} plan; side-effecting assets excluded: ${plan.excluded.map((e) => nodeName(e.task)).join(", ") || "none"}.`,
  }));
}

export interface DatabricksRepairBody {
  readonly run_id: number;
  readonly rerun_tasks: string[];
  readonly rerun_dependent_tasks: false;
  readonly latest_repair_id?: number;
  readonly job_parameters?: Record<string, string>;
}

/**
 * A Databricks repair re-runs tasks of one job run; the plan's tasks in `pipeline` become
 * `rerun_tasks`, and the parameter overrides become `job_parameters`. With `unitsParameter`,
 * each task's key ranges are passed as one JSON job parameter so the same job computes the
 * same units. `latest_repair_id` is required by Databricks from the second repair on.
 */
export function toDatabricksRepair(
  plan: RepairPlan,
  options: ExportOptions & { runId: number; pipeline: string; latestRepairId?: number; unitsParameter?: string }
): DatabricksRepairBody {
  const tasks = scheduledWithWave(plan).filter(({ planned }) => planned.pipeline === options.pipeline);
  const params: Record<string, string> = { ...plan.parameterOverrides };
  if (options.unitsParameter) {
    const ranges = Object.fromEntries(tasks.map(({ planned }) => [taskName(options, planned.task), planned.keyRanges.map(([a, b]) => (a === b ? a : `${a}..${b}`))]));
    params[options.unitsParameter] = JSON.stringify(ranges);
  }
  return {
    run_id: options.runId,
    rerun_tasks: tasks.map(({ planned }) => taskName(options, planned.task)),
    rerun_dependent_tasks: false,
    ...(options.latestRepairId !== undefined ? { latest_repair_id: options.latestRepairId } : {}),
    ...(Object.keys(params).length > 0 ? { job_parameters: params } : {}),
  };
}
