import { compositeKey } from "@/lib/domain/composite-key";
import { recordUnitChanges } from "../units/unit-changes";
import type { Tx } from "../database";
import { bulkInsert, bulkUpdateById, type Column } from "../sql/bulk-sql";
import { prismaOf } from "../prisma-handle";

/**
 * Row counts measured per (dataset, unit), latest measurement wins: `SourceCount` (the source of
 * truth's rows, for reconciliation) and `WarehouseCount` (the rows the unit holds in its own
 * warehouse, as the team counted them). Both have the same shape and are written the same way.
 */
export type CountTable = "SourceCount" | "WarehouseCount";
export interface CountRow {
  datasetId: string;
  unitKey: string;
  rowCount: number;
  measuredAt: Date;
  source: string;
  submittedBy: string | null;
}
export interface StoredCount extends CountRow {
  id: string;
}

export async function countsOf(tx: Tx, table: CountTable, datasetIds: string[]): Promise<Map<string, StoredCount>> {
  if (datasetIds.length === 0) return new Map();
  const where = { datasetId: { in: [...new Set(datasetIds)] } };
  const rows = table === "SourceCount" ? await prismaOf(tx).sourceCount.findMany({ where }) : await prismaOf(tx).warehouseCount.findMany({ where });
  return new Map(rows.map((r) => [compositeKey(r.datasetId, r.unitKey), r]));
}

const COUNT_VALUES: Column[] = [
  { name: "rowCount", type: "int" },
  { name: "measuredAt", type: "timestamp" },
  { name: "source", type: "text" },
  { name: "submittedBy", type: "text" },
];

/** One multi-row INSERT for new (dataset, unit) pairs and one UPDATE … FROM VALUES for replaced ones. */
export async function writeCounts(tx: Tx, table: CountTable, create: (CountRow & { id: string })[], update: StoredCount[]): Promise<void> {
  await bulkInsert(
    tx,
    table,
    [{ name: "id", type: "text" }, { name: "datasetId", type: "text" }, { name: "unitKey", type: "text" }, ...COUNT_VALUES],
    create as unknown as Record<string, unknown>[],
  );
  await bulkUpdateById(tx, table, COUNT_VALUES, update as unknown as Record<string, unknown>[]);
  await recordUnitChanges(
    tx,
    [...create, ...update].map((c) => ({ datasetId: c.datasetId, unitKey: c.unitKey })),
  );
}
