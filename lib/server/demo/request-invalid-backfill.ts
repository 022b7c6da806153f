import type { Db } from "../repositories/database";
import type { ExecutorLineage } from "../executor/executor-lineage";
import { executeRun } from "../executor/execute-run";
import { ORDERS_TASKS } from "../executor/task-code/node-ids";
import { demoClock } from "./demo-clock";

/**
 * An operator's backfill request with two keys the feature set's daily definition rejects —
 * one past the last unit, one misspelt. The executor records both as invalid keys with the
 * definition's reason (seed 002) and runs nothing: a cancelled run.
 */
export async function requestInvalidBackfill(db: Db, lineage: ExecutorLineage, pipelineId: string | null) {
  return executeRun(db, {
    pipelineId,
    kind: "backfill",
    triggeredBy: "demo-operator",
    lineage,
    clock: demoClock(new Date("2026-08-25T15:10:00Z")),
    pairs: [
      { taskNodeId: ORDERS_TASKS.orderFeatures, unitKey: "2026-08-31" },
      { taskNodeId: ORDERS_TASKS.orderFeatures, unitKey: "2026-8-24" },
    ],
    invalidKeySource: "demo",
    parameters: { note: "backfill the last week of features before retraining" },
  });
}
