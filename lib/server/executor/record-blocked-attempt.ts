import { inTransaction, type Db } from "../repositories/database";
import { recordBlockedTry } from "../repositories/ledger/executor-runs";
import type { PlannedPair } from "./plan-run-pairs";
import type { Clock } from "./types";

/**
 * Records a pair that never ran because what it reads failed or was never published:
 * status upstream_failed, no start time, no rows — blocked, not failed.
 */
export async function recordBlockedAttempt(db: Db, runId: string, pair: PlannedPair, reason: string, clock: Clock, tryNumber = 1): Promise<void> {
  const at = clock({ phase: "attempt-end", wave: pair.wave, tryNumber, taskNodeId: pair.task.nodeId, unitKey: pair.unitKey });
  await inTransaction(db, (tx) => recordBlockedTry(tx, { runId, taskId: pair.task.id, unitKey: pair.unitKey, tryNumber, error: reason, endedAt: at }));
}
