import { z } from "zod";
import type { Db, Tx } from "../database";
import { prismaOf } from "../prisma-handle";

/**
 * The demo warehouse's rows: what the local executor writes for a unit of a dataset and what
 * its tasks read back. `payload` is the row's JSON object.
 */
export interface WarehouseRowInput {
  rowKey: string;
  payload: Record<string, unknown>;
}

export interface StoredWarehouseRow extends WarehouseRowInput {
  datasetId: string;
  unitKey: string;
}

const PayloadSchema = z.record(z.string(), z.unknown());

/** Deletes every row of the unit. */
export async function clearWarehouseUnit(tx: Tx, datasetId: string, unitKey: string): Promise<void> {
  await prismaOf(tx).warehouseRow.deleteMany({ where: { datasetId, unitKey } });
}

/** Deletes the unit's rows under these keys (a merge replaces them). */
export async function deleteWarehouseRowsByKey(tx: Tx, datasetId: string, unitKey: string, rowKeys: readonly string[]): Promise<void> {
  await prismaOf(tx).warehouseRow.deleteMany({ where: { datasetId, unitKey, rowKey: { in: [...rowKeys] } } });
}

export async function insertWarehouseRows(
  tx: Tx,
  w: { datasetId: string; unitKey: string; attemptId: string | null; writtenAt: Date },
  rows: readonly WarehouseRowInput[],
): Promise<void> {
  if (rows.length === 0) return;
  await prismaOf(tx).warehouseRow.createMany({
    data: rows.map((r) => ({
      datasetId: w.datasetId,
      unitKey: w.unitKey,
      rowKey: r.rowKey,
      payload: JSON.stringify(r.payload),
      attemptId: w.attemptId,
      writtenAt: w.writtenAt,
    })),
  });
}

/** The rows these units hold, in write order. */
export async function warehouseRowsOf(db: Db | Tx, units: readonly { datasetId: string; unitKeys: readonly string[] }[]): Promise<StoredWarehouseRow[]> {
  const wanted = units.filter((u) => u.unitKeys.length > 0);
  if (wanted.length === 0) return [];
  const rows = await prismaOf(db).warehouseRow.findMany({
    where: { OR: wanted.map((u) => ({ datasetId: u.datasetId, unitKey: { in: [...u.unitKeys] } })) },
    orderBy: { id: "asc" },
    select: { datasetId: true, unitKey: true, rowKey: true, payload: true },
  });
  return rows.map((r) => ({ ...r, payload: PayloadSchema.parse(JSON.parse(r.payload)) }));
}

export async function countUnitRows(tx: Tx | Db, datasetId: string, unitKey: string): Promise<number> {
  return prismaOf(tx).warehouseRow.count({ where: { datasetId, unitKey } });
}

export async function deleteUnitRows(tx: Tx, datasetId: string, unitKey: string): Promise<number> {
  const { count } = await prismaOf(tx).warehouseRow.deleteMany({ where: { datasetId, unitKey } });
  return count;
}
