import type { PartitionsPut, PartitionsPutResult } from "@/lib/contracts/ingestion-catalog";
import { resolvePartitions, type PartitionDef, type PartitionSpace } from "@/lib/domain/partitions";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { getDb, type Db, type Tx } from "../repositories/database";
import { inOneTransaction } from "./in-one-transaction";
import { dropInvalidKeys, invalidKeysOf } from "../repositories/ledger/ingested-runs";
import { refoldDatasetRuns } from "./ingest-openlineage-events";
import { InvalidFieldError } from "@/lib/domain/errors";
import { datasetPartitionDef, saveDatasetPartitionDef } from "../repositories/lineage/declared-properties";
import { findOrDeclareNode } from "./find-node";

/**
 * Replaces a dataset's partition definition — what the system believes its expected units are —
 * and records the change (before → after) in the audit log in the same transaction. The
 * definition must resolve (lib/domain resolvePartitions) or nothing is written.
 */
export async function setDatasetPartitions(id: string, body: PartitionsPut, actor: Actor, db: Db = getDb(), now = new Date()): Promise<PartitionsPutResult> {
  const space = resolveOrRefuse(body.partitionDef, now);
  // Ingestion's transaction: its time limits (declaring may fold many runs sent before again) and
  // its retry when a concurrent request declares the same node.
  return inOneTransaction(db, async (tx) => {
    const dataset = await findOrDeclareNode(tx, "dataset", id);
    const { before, changed, resolved } = await declarePartitions(tx, dataset, body.partitionDef, space);
    let auditSeq: number | null = null;
    if (changed) {
      const entry = await appendAudit(
        tx,
        {
          kind: "dataset.partitions_changed",
          actor: actor.id,
          actorRole: actor.role,
          reason: body.reason,
          targets: [{ nodeId: dataset.nodeId, units: [] }],
          before: { partitionDef: before },
          after: { partitionDef: body.partitionDef, resolved },
        },
        now,
      );
      auditSeq = entry.seq;
    }
    return { nodeId: dataset.nodeId, changed, before, after: body.partitionDef, expectedUnits: space.due.size, auditSeq, resolved };
  });
}

export interface DeclaredPartitions {
  /** Null when none had been declared (the expected units were unknown). */
  before: Awaited<ReturnType<typeof datasetPartitionDef>>["def"] | null;
  changed: boolean;
  resolved: { keys: number; runs: number; publishes: number; held: number };
}

/**
 * Stores a dataset's partition definition in the caller's transaction and, when it changed, folds
 * the stored runs again under it (the audit entry is the caller's). Declaring the definition a
 * dataset already had (unpartitioned, say) is a change too: its expected units go from unknown to known.
 */
export async function declarePartitions(
  tx: Tx,
  dataset: { id: string; nodeId: string },
  def: PartitionDef,
  space: PartitionSpace,
): Promise<DeclaredPartitions> {
  const stored = await datasetPartitionDef(tx, dataset.id);
  const before = stored.declared ? stored.def : null;
  const changed = before === null || JSON.stringify(before) !== JSON.stringify(def);
  if (!changed) return { before, changed, resolved: { keys: 0, runs: 0, publishes: 0, held: 0 } };
  await saveDatasetPartitionDef(tx, dataset.id, def);
  const keys = await refoldUnderNewDefinition(tx, dataset, space);
  return { before, changed, resolved: { keys: keys.nowValid, runs: keys.refolded, publishes: keys.publishes, held: keys.held } };
}

/**
 * Every stored run that reads or writes the dataset is folded again from its stored events
 * (refoldDatasetRuns), so no order of events and declarations loses one: events sent before the
 * definition land on the units it gives, a failure stays a failure under its new key, and keys
 * the new definition rejects are reported again while those it accepts are rejected no more.
 * Keys rejected outside a run (the ledger API) are reconsidered one by one.
 */
async function refoldUnderNewDefinition(
  tx: Tx,
  dataset: { id: string; nodeId: string },
  space: PartitionSpace,
): Promise<{ nowValid: number; refolded: number; publishes: number; held: number }> {
  const rejectedBefore = await invalidKeysOf(tx, dataset.nodeId);
  await dropInvalidKeys(
    tx,
    rejectedBefore.filter((k) => k.runId === null && space.validate(k.unitKey).valid).map((k) => k.id),
  );
  const refold = await refoldDatasetRuns(tx, dataset.id);
  const rejectedAfter = new Set((await invalidKeysOf(tx, dataset.nodeId)).map((k) => k.unitKey));
  return {
    nowValid: new Set(rejectedBefore.map((k) => k.unitKey).filter((k) => !rejectedAfter.has(k))).size,
    refolded: refold.refolded,
    publishes: refold.moved,
    held: refold.held ?? 0,
  };
}

/** The definition's units, or a 400 naming `field` (body.partitionDef) when it does not resolve. */
export function resolveOrRefuse(def: PartitionDef, now: Date, field = "body.partitionDef"): PartitionSpace {
  let space: PartitionSpace;
  try {
    space = resolvePartitions(def, { asOf: now.getTime() });
  } catch (e) {
    throw new InvalidFieldError(field, `does not resolve: ${(e as Error).message}`);
  }
  if (def.kind === "time" && def.end !== undefined && space.size === 0)
    throw new InvalidFieldError(`${field}.end`, "is before start: the definition has no units");
  return space;
}
