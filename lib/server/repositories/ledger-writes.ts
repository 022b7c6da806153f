import { recordUnitChanges } from "./unit-changes";
import type { PartitionDef } from "@/lib/domain/partitions";
import type { Tx } from "../db/client";
import { parsePartitionDef } from "./catalog";
import { bulkInsert, bulkUpdateById, type Column } from "./bulk-sql";

export interface StoredPublish {
  id: string;
  datasetNodeId: string;
  unitKey: string;
  runId: string;
  publishedAt: Date;
  inputVersion: string;
  codeVersion: string;
  rowCount: number;
}

/** Publishes already in the ledger under the given ids (to tell a duplicate from a conflict). */
export async function publishesByIds(tx: Tx, ids: string[]): Promise<Map<string, StoredPublish>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.publish.findMany({ where: { id: { in: ids } }, include: { dataset: { select: { nodeId: true } } } });
  return new Map(rows.map((r) => [r.id, {
    id: r.id, datasetNodeId: r.dataset.nodeId, unitKey: r.unitKey, runId: r.runId, publishedAt: r.publishedAt,
    inputVersion: r.inputVersion, codeVersion: r.codeVersion, rowCount: r.rowCount,
  }]));
}

/** Partition definitions of the datasets that exist, by node id (missing ones are absent). */
export async function partitionDefsByNodeId(tx: Tx, nodeIds: string[]): Promise<Map<string, PartitionDef>> {
  if (nodeIds.length === 0) return new Map();
  const rows = await tx.dataset.findMany({ where: { nodeId: { in: [...new Set(nodeIds)] } }, select: { nodeId: true, partitionDef: true } });
  return new Map(rows.map((r) => [r.nodeId, parsePartitionDef(r.partitionDef, r.nodeId)]));
}

/**
 * Row counts measured per (dataset, unit), latest measurement wins: `SourceCount` (the source of
 * truth's rows, for reconciliation) and `WarehouseCount` (the rows the unit holds in its own
 * warehouse, as the team counted them). Both have the same shape and are written the same way.
 */
export type CountTable = "SourceCount" | "WarehouseCount";
export interface CountRow { datasetId: string; unitKey: string; rowCount: number; measuredAt: Date; source: string; submittedBy: string | null }
export interface StoredCount extends CountRow { id: string }

export async function countsOf(tx: Tx, table: CountTable, datasetIds: string[]): Promise<Map<string, StoredCount>> {
  if (datasetIds.length === 0) return new Map();
  const where = { datasetId: { in: [...new Set(datasetIds)] } };
  const rows = table === "SourceCount" ? await tx.sourceCount.findMany({ where }) : await tx.warehouseCount.findMany({ where });
  return new Map(rows.map((r) => [`${r.datasetId}\u0000${r.unitKey}`, r]));
}

const COUNT_VALUES: Column[] = [
  { name: "rowCount", type: "int" }, { name: "measuredAt", type: "timestamp" }, { name: "source", type: "text" }, { name: "submittedBy", type: "text" },
];

/** One multi-row INSERT for new (dataset, unit) pairs and one UPDATE … FROM VALUES for replaced ones. */
export async function writeCounts(tx: Tx, table: CountTable, create: (CountRow & { id: string })[], update: StoredCount[]): Promise<void> {
  await bulkInsert(tx, table, [{ name: "id", type: "text" }, { name: "datasetId", type: "text" }, { name: "unitKey", type: "text" }, ...COUNT_VALUES], create as unknown as Record<string, unknown>[]);
  await bulkUpdateById(tx, table, COUNT_VALUES, update as unknown as Record<string, unknown>[]);
  await recordUnitChanges(tx, [...create, ...update].map((c) => ({ datasetId: c.datasetId, unitKey: c.unitKey })));
}
