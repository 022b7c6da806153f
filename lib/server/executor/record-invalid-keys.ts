import { inTransaction, type Db } from "../repositories/database";
import { upsertInvalidKeys } from "../repositories/ledger/executor-runs";

export interface RejectedKey {
  nodeId: string;
  unitKey: string;
  reason: string;
}

/**
 * Keys a partition definition rejected are kept, with the definition's reason, instead of being
 * dropped: an invalid key is fixed where it was generated, not by re-running (seed 002).
 */
export async function recordInvalidKeys(db: Db, runId: string | null, keys: readonly RejectedKey[], source: string, at: Date): Promise<void> {
  if (keys.length === 0) return;
  await inTransaction(db, (tx) => upsertInvalidKeys(tx, keys, { source, runId, observedAt: at }));
}
