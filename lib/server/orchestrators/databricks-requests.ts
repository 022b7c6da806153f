import type { DatabricksConnection, PlannedRequest } from "@/lib/contracts/orchestrators";
import type { DispatchPlan, PairRef, TaskFacts, Unsupported } from "./port";

/**
 * What Reparo asks Databricks, as pure functions of the plan: a repair wave is one repair of the
 * job run that failed, `POST /api/2.2/jobs/runs/repair`, re-running exactly the wave's tasks with
 * `rerun_dependent_tasks: false` (Reparo already lists the closure; Databricks' dependents would
 * bring back the side-effecting tasks the plan excluded). The units to recompute go to the same
 * job as one JSON job parameter, `connection.unitsParameter`: per task key, its units as ranges
 * of consecutive windows ("lo..hi", from the plan's UnitSet ranges), else one key each.
 *
 * Contract: databricks-sdk-go service/jobs model.go (test/fixtures/peers/databricks) —
 * RepairRun (run_id, rerun_tasks, rerun_dependent_tasks, latest_repair_id, job_parameters:
 * map[string]string), GetRunRequest (run_id, include_history, page_token), CancelRun.run_id.
 */

/** `RepairRun` as Reparo fills it. */
export interface DatabricksRepairRun {
  readonly run_id: number;
  readonly rerun_tasks: string[];
  readonly rerun_dependent_tasks: false;
  /** Required by Databricks from a run's second repair on: its latest repair's id. */
  readonly latest_repair_id?: number;
  readonly job_parameters: Record<string, string>;
}

/** One wave's repair: its body (without latest_repair_id, read from the run when it is sent) and the pairs it runs. */
export interface PlannedRepair {
  readonly wave: number;
  readonly pipeline: string;
  readonly pairs: PairRef[];
  readonly body: DatabricksRepairRun;
}

export const NO_RUN_ID = "no Databricks job run id: set jobRunId on the pipeline's connection or ingest the run's facets";
const SIDE_EFFECT =
  "a deliberate replay of a side-effecting task: a Databricks repair cannot carry Reparo's idempotency key to the task; replay it with the local executor or by hand";

export const REPAIR_PATH = "/api/2.2/jobs/runs/repair";
export const GET_RUN_PATH = "/api/2.2/jobs/runs/get";
export const CANCEL_PATH = "/api/2.2/jobs/runs/cancel";

/** The job run to repair: the one ingested run facets named, else the connection's. */
export function jobRunIdOf(connection: DatabricksConnection, plan: DispatchPlan): number | null {
  const previous = plan.previous["databricks.runId"];
  if (typeof previous === "number" && Number.isSafeInteger(previous) && previous > 0) return previous;
  if (typeof previous === "string" && /^[1-9][0-9]*$/.test(previous)) return Number(previous);
  return connection.jobRunId ?? null;
}

/** The task's task_key in the job: the connection's mapping (by node id, then name), else its name. */
export const taskKeyOf = (connection: DatabricksConnection, task: TaskFacts): string =>
  connection.tasks[task.taskNodeId] ?? connection.tasks[task.name] ?? task.name;

/** A task's units for the job parameter: "lo..hi" per range of consecutive windows (one key alone), else each key once. */
export function unitsOf(plan: DispatchPlan, taskNodeId: string, units: readonly string[]): string[] {
  const ranges = plan.windowRanges?.(taskNodeId, units) ?? null;
  if (ranges === null) return [...new Set(units)];
  return ranges.map((r) => (r.first === r.last ? r.first : `${r.first}..${r.last}`));
}

/**
 * Per wave, one RepairRun of the job run with the wave's task keys and units; pairs Databricks
 * cannot run (no job run, a task not in the plan's facts, a side-effecting replay) are unsupported.
 */
export function plannedRepairs(connection: DatabricksConnection, plan: DispatchPlan): { repairs: PlannedRepair[]; unsupported: Unsupported[] } {
  const runId = jobRunIdOf(connection, plan);
  const unsupported = new Map<string, { reason: string; units: string[] }>();
  const supported: { pair: PairRef; task: TaskFacts }[] = [];
  for (const pair of plan.pairs) {
    const task = plan.tasks.get(pair.taskNodeId);
    const reason =
      runId === null
        ? NO_RUN_ID
        : !task
          ? "the task is not known to this adapter (no facts in the plan)"
          : task.sideEffect !== null && task.sideEffect !== "none"
            ? SIDE_EFFECT
            : null;
    if (reason !== null || !task) {
      const u = unsupported.get(pair.taskNodeId) ?? { reason: reason ?? "unknown task", units: [] };
      u.units.push(pair.unitKey);
      unsupported.set(pair.taskNodeId, u);
    } else supported.push({ pair, task });
  }
  const repairs = [...new Set(supported.map((s) => s.pair.wave))]
    .sort((a, b) => a - b)
    .map((wave) => {
      const ofWave = supported.filter((s) => s.pair.wave === wave);
      // Per task key, per Reparo task mapped to it: that task's units.
      const byKey = new Map<string, Map<string, string[]>>();
      for (const { pair, task } of ofWave) {
        const tasks = byKey.get(taskKeyOf(connection, task)) ?? new Map<string, string[]>();
        tasks.set(pair.taskNodeId, [...(tasks.get(pair.taskNodeId) ?? []), pair.unitKey]);
        byKey.set(taskKeyOf(connection, task), tasks);
      }
      const units = Object.fromEntries([...byKey].map(([key, tasks]) => [key, [...tasks].flatMap(([taskNodeId, keys]) => unitsOf(plan, taskNodeId, keys))]));
      return {
        wave,
        pipeline: [...new Set(ofWave.map((s) => s.task.pipeline))].join(", "),
        pairs: ofWave.map((s) => s.pair),
        body: {
          run_id: runId!,
          rerun_tasks: [...byKey.keys()],
          rerun_dependent_tasks: false as const,
          job_parameters: { ...plan.parameterOverrides, [connection.unitsParameter]: JSON.stringify(units) },
        },
      };
    });
  return { repairs, unsupported: [...unsupported].map(([taskNodeId, u]) => ({ taskNodeId, units: u.units, reason: u.reason })) };
}

/** The requests that run the plan, to copy or to review. */
export function databricksRequests(connection: DatabricksConnection, plan: DispatchPlan): { requests: PlannedRequest[]; unsupported: Unsupported[] } {
  const { repairs, unsupported } = plannedRepairs(connection, plan);
  return {
    requests: repairs.map((r) => ({ orchestrator: "databricks", pipeline: r.pipeline, wave: r.wave, method: "POST", path: REPAIR_PATH, body: r.body })),
    unsupported,
  };
}

/** `GET runs/get` of the run with its repair history, one page (`page_token` from the previous one). */
export const getRunQuery = (runId: number, pageToken?: string) => ({ run_id: runId, include_history: true, ...(pageToken ? { page_token: pageToken } : {}) });

/** The wave's repair as sent: latest_repair_id from the run's history when it has one. */
export const repairBody = (repair: PlannedRepair, latestRepairId: number | undefined): DatabricksRepairRun => ({
  ...repair.body,
  ...(latestRepairId !== undefined ? { latest_repair_id: latestRepairId } : {}),
});
