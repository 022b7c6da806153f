import type { AirflowConnection } from "@/lib/contracts/orchestrators";
import { compositeKey } from "@/lib/domain/composite-key";
import { airflowTaskOf, type TaskInstance } from "./airflow-requests";
import type { DispatchPlan, OrchestratorItem, PairProgress, PairRef, PairStatus, TaskFacts, Unsupported } from "./port";

/**
 * How Reparo reads Airflow's answers, as pure functions: which planned pair a task instance is,
 * what a dry run would clear beyond the plan, and a pair's progress from its task instances.
 */

const FINISHED_BAD = new Set(["failed", "upstream_failed", "skipped", "removed"]);

/** A task instance at a logical date (every map index). */
export const tiKey = (dagId: string, taskId: string, at: string) => compositeKey(dagId, taskId, new Date(at).toISOString());
/**
 * One map index of a task instance: a mapped task's indexes are each cleared and re-run on their
 * own. The key is kept in a dispatched wave's handle (with its try number when cleared), so it
 * keeps the form runs in flight wrote; Airflow's DAG and task ids cannot hold a `|`.
 */
export const mappedKey = (ti: Pick<TaskInstance, "dag_id" | "task_id" | "logical_date" | "map_index">) =>
  // eslint-disable-next-line no-restricted-syntax -- kept in stored wave handles: the form they hold
  `${ti.dag_id}|${ti.task_id}|${new Date(ti.logical_date!).toISOString()}|${ti.map_index}`;

/** Reparo's (task, unit) for an Airflow task instance, when the plan's tasks have it. */
export function pairOf(connection: AirflowConnection, plan: DispatchPlan, ti: TaskInstance): { task: TaskFacts; unitKey: string | null } | null {
  for (const task of plan.tasks.values()) {
    const mapped = airflowTaskOf(connection, task);
    if (mapped.dagId === ti.dag_id && mapped.taskId === ti.task_id)
      return { task, unitKey: ti.logical_date ? plan.unitAt(task.taskNodeId, new Date(ti.logical_date)) : null };
  }
  return null;
}

/** Why a paused DAG's pairs cannot be dispatched, in the commander's words. */
export const pausedReason = (dagId: string) => `DAG ${dagId} is paused: cleared tasks will not run until it is unpaused`;

/**
 * The planned pairs of DAGs Airflow says are paused (`is_paused`), as unsupported: Airflow clears
 * their task instances, but its scheduler runs nothing of a paused DAG, so they would wait for ever.
 */
export function pausedPairs(connection: AirflowConnection, plan: DispatchPlan, paused: ReadonlySet<string>): Unsupported[] {
  const byTask = new Map<string, { dagId: string; units: string[] }>();
  for (const p of plan.pairs) {
    const task = plan.tasks.get(p.taskNodeId);
    if (!task) continue;
    const { dagId } = airflowTaskOf(connection, task);
    if (!paused.has(dagId)) continue;
    const entry = byTask.get(p.taskNodeId) ?? { dagId, units: [] };
    entry.units.push(p.unitKey);
    byTask.set(p.taskNodeId, entry);
  }
  return [...byTask].map(([taskNodeId, { dagId, units }]) => ({ taskNodeId, units, reason: pausedReason(dagId) }));
}

/**
 * Airflow's dry run against the plan, task instance by task instance: what it would clear beyond
 * the plan (`extra`: a side effect when the task has one or the plan left it out) and the planned
 * pairs it would not clear (`missing`; unsupported pairs are not sent, so not missing).
 */
export function compareDryRun(
  connection: AirflowConnection,
  plan: DispatchPlan,
  wouldClear: readonly TaskInstance[],
  unsupported: readonly Unsupported[],
): { extra: OrchestratorItem[]; missing: PairRef[] } {
  const planned = new Set(plan.pairs.map((p) => compositeKey(p.taskNodeId, p.unitKey)));
  const seen = new Set<string>();
  const extra: OrchestratorItem[] = [];
  for (const ti of wouldClear) {
    const pair = pairOf(connection, plan, ti);
    const label = `${ti.dag_id}.${ti.task_id}${ti.map_index >= 0 ? `[${ti.map_index}]` : ""} @ ${ti.logical_date ?? ti.dag_run_id}`;
    const key = pair && pair.unitKey ? compositeKey(pair.task.taskNodeId, pair.unitKey) : null;
    if (key && planned.has(key) && !seen.has(key)) {
      seen.add(key);
      continue;
    }
    extra.push({
      label,
      taskNodeId: pair?.task.taskNodeId ?? null,
      unitKey: pair?.unitKey ?? null,
      sideEffect: !!pair && (pair.task.sideEffect === "external" || plan.excludedTasks.has(pair.task.taskNodeId)),
    });
  }
  const notSent = new Set(unsupported.flatMap((u) => u.units.map((k) => compositeKey(u.taskNodeId, k))));
  const missing = plan.pairs.filter((p) => !seen.has(compositeKey(p.taskNodeId, p.unitKey)) && !notSent.has(compositeKey(p.taskNodeId, p.unitKey)));
  return { extra, missing };
}

/** One task instance's progress since the clear: it counts once it ran again (`ranAgain`). */
export function taskInstanceStatus(ti: TaskInstance, ranAgain: boolean): PairStatus {
  const state = ti.state ?? null;
  // Not run since the clear: unscheduled (none — a paused DAG's stay so) or its old success is
  // nothing running; scheduled, queued or restarting (a try that was running when cleared) is on its way.
  if (!ranAgain) return state === null || state === "success" ? "pending" : "running";
  return state === "success" ? "succeeded" : state && FINISHED_BAD.has(state) ? "failed" : "running";
}

/**
 * A pair's progress from its task instances at its logical date. None: the clear reset what
 * exists, so nothing will run the unit. A mapped task's unit is done when every index ran again
 * and succeeded; one failed index fails it. Cleared again (its DAG run had ended): a new external
 * id, so the poll's progress and its calls go on the record.
 */
export function pairProgress(
  pair: PairRef,
  at: { dagId: string; taskId: string; start: string },
  tis: readonly TaskInstance[],
  ranAgain: (ti: TaskInstance) => boolean,
  clearedAgain: (ti: TaskInstance) => boolean,
): PairProgress {
  if (tis.length === 0)
    return {
      taskNodeId: pair.taskNodeId,
      unitKey: pair.unitKey,
      status: "failed",
      detail: `Airflow has no task instance ${at.dagId}.${at.taskId} at ${at.start}: nothing ran this unit`,
    };
  const each = tis.map((ti) => taskInstanceStatus(ti, ranAgain(ti)));
  const status: PairStatus = each.includes("failed")
    ? "failed"
    : each.every((x) => x === "succeeded")
      ? "succeeded"
      : each.some((x) => x !== "pending")
        ? "running"
        : "pending";
  const ti = tis[0]!;
  const states = [...new Set(tis.map((t) => t.state ?? "none"))].join(", ");
  const again = tis.some(clearedAgain) ? " · cleared again: its DAG run had ended" : "";
  return {
    taskNodeId: pair.taskNodeId,
    unitKey: pair.unitKey,
    status,
    externalId: `${ti.dag_id} · ${ti.dag_run_id} · try ${ti.try_number}${tis.length > 1 ? ` · ${tis.length} mapped` : ""}${again}`,
    detail: states,
  };
}
