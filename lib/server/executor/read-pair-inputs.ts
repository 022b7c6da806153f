import { compositeKey } from "@/lib/domain/composite-key";
import { parseNodeId } from "@/lib/domain/ids";
import type { Tx } from "../repositories/database";
import { publishCounts } from "../repositories/ledger/executor-runs";
import { warehouseRowsOf } from "../repositories/warehouses/warehouse-rows";
import type { ResolvedRead } from "./resolve-pair-inputs";
import type { TaskInput } from "./types";

export interface PairInputs {
  inputs: Record<string, TaskInput>;
  /** Which versions of its inputs the unit was built from, e.g. "dim_customers@1,stg_orders@1". */
  inputVersion: string;
  /** Input units with no publish in the ledger, as "dataset unit". */
  unpublished: string[];
}

/**
 * Reads the warehouse rows a unit's inputs hold, in write order, and the ledger generation of
 * each input: the number of times the units read were published (the highest, for a roll-up).
 * A repaired upstream unit therefore shows up as a newer input version than its neighbours'.
 */
export async function readPairInputs(db: Tx, reads: readonly ResolvedRead[]): Promise<PairInputs> {
  const units = reads.map((r) => ({ datasetId: r.dataset.id, unitKeys: r.unitKeys }));
  const [rows, generations] = await Promise.all([warehouseRowsOf(db, units), publishCounts(db, units)]);
  const inputs: Record<string, TaskInput> = {};
  const versions: string[] = [];
  const unpublished: string[] = [];
  for (const read of reads) {
    inputs[read.dataset.nodeId] = {
      datasetNodeId: read.dataset.nodeId,
      mapping: read.mapping,
      unitKeys: read.unitKeys,
      rows: rows.filter((r) => r.datasetId === read.dataset.id).map((r) => ({ unitKey: r.unitKey, rowKey: r.rowKey, payload: r.payload })),
    };
    let generation = 0;
    for (const key of read.unitKeys) {
      const g = generations.get(compositeKey(read.dataset.id, key)) ?? 0;
      if (g === 0) unpublished.push(`${read.dataset.nodeId} ${key}`);
      generation = Math.max(generation, g);
    }
    if (read.unitKeys.length > 0) versions.push(`${parseNodeId(read.dataset.nodeId)?.name ?? read.dataset.nodeId}@${generation}`);
  }
  return { inputs, inputVersion: versions.sort().join(","), unpublished };
}
