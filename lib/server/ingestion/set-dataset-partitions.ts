import type { PartitionsPut, PartitionsPutResult } from "@/lib/contracts/ingestion-catalog";
import { resolvePartitions, type PartitionDef, type PartitionSpace } from "@/lib/domain/partitions";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { getDb, type Db, type Tx } from "../repositories/database";
import { inOneTransaction } from "./in-one-transaction";
import { dropInvalidKeys, invalidKeysOf } from "../repositories/ledger/ingested-runs";
import { refoldStoredRuns } from "./ingest-openlineage-events";
import { InvalidFieldError } from "@/lib/domain/errors";
import { datasetPartitionDef, saveDatasetPartitionDef } from "../repositories/catalog/declared-properties";
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
    const stored = await datasetPartitionDef(tx, dataset.id);
    // Declaring the definition a dataset already had (unpartitioned, say) is a change too: its
    // expected units go from unknown to known.
    const before = stored.declared ? stored.def : null;
    const changed = before === null || JSON.stringify(before) !== JSON.stringify(body.partitionDef);
    let auditSeq: number | null = null;
    let resolved = { keys: 0, runs: 0, publishes: 0 };
    if (changed) {
      await saveDatasetPartitionDef(tx, dataset.id, body.partitionDef);
      const keys = await reconsiderInvalidKeys(tx, dataset.nodeId, space);
      const entry = await appendAudit(
        tx,
        {
          kind: "dataset.partitions_changed",
          actor: actor.id,
          actorRole: actor.role,
          reason: body.reason,
          targets: [{ nodeId: dataset.nodeId, units: [] }],
          before: { partitionDef: before },
          after: { partitionDef: body.partitionDef, resolved: { keys: keys.nowValid, runs: keys.refolded, publishes: keys.publishes } },
        },
        now,
      );
      auditSeq = entry.seq;
      resolved = { keys: keys.nowValid, runs: keys.refolded, publishes: keys.publishes };
    }
    return { nodeId: dataset.nodeId, changed, before, after: body.partitionDef, expectedUnits: space.due.size, auditSeq, resolved };
  });
}

/**
 * Keys the dataset's old definition rejected and the new one accepts are rejected no more; the
 * runs that sent them are folded again from their stored events, so what a producer sent before
 * the definition was declared is published now (a re-sent event would only be a duplicate). Keys
 * still rejected stay, and the refold reports them again.
 */
async function reconsiderInvalidKeys(tx: Tx, nodeId: string, space: PartitionSpace): Promise<{ nowValid: number; refolded: number; publishes: number }> {
  const nowValid = (await invalidKeysOf(tx, nodeId)).filter((k) => space.validate(k.unitKey).valid);
  await dropInvalidKeys(
    tx,
    nowValid.map((k) => k.id),
  );
  const runIds = [...new Set(nowValid.flatMap((k) => (k.runId ? [k.runId] : [])))];
  const refold = runIds.length > 0 ? await refoldStoredRuns(tx, runIds) : { refolded: 0, publishes: 0 };
  return { nowValid: nowValid.length, refolded: refold.refolded, publishes: refold.publishes };
}

function resolveOrRefuse(def: PartitionDef, now: Date): PartitionSpace {
  let space: PartitionSpace;
  try {
    space = resolvePartitions(def, { asOf: now.getTime() });
  } catch (e) {
    throw new InvalidFieldError("body.partitionDef", `does not resolve: ${(e as Error).message}`);
  }
  if (def.kind === "time" && def.end !== undefined && space.size === 0)
    throw new InvalidFieldError("body.partitionDef.end", "is before start: the definition has no units");
  return space;
}
