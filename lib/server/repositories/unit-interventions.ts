import type { Db, Tx } from "../db/client";
import { recordUnitChanges } from "./unit-changes";

/**
 * Interventions on the rows and marks of a unit: cleaning an appended unit (its rows really
 * deleted from the demo warehouse) and operator marks. Each runs inside the caller's
 * transaction, beside the audit entry that records it.
 */
export async function countUnitRows(tx: Tx | Db, datasetId: string, unitKey: string): Promise<number> {
  return tx.warehouseRow.count({ where: { datasetId, unitKey } });
}

export async function deleteUnitRows(tx: Tx, datasetId: string, unitKey: string): Promise<number> {
  const { count } = await tx.warehouseRow.deleteMany({ where: { datasetId, unitKey } });
  return count;
}

export type MarkKind = "known_bad" | "skipped" | "marked_success" | "cleaned";

export async function createUnitMarks(tx: Tx, datasetId: string, unitKeys: string[], kind: MarkKind, reason: string, auditEntryId: number, at: Date): Promise<void> {
  await tx.unitMark.createMany({ data: unitKeys.map((unitKey) => ({ datasetId, unitKey, kind, reason, auditEntryId, createdAt: at })) });
  await recordUnitChanges(tx, unitKeys.map((unitKey) => ({ datasetId, unitKey })), at);
}

/** Withdraws the marks an audit entry created (a cleaning its warehouse did not commit). */
export async function clearUnitMarksOfEntry(tx: Tx, auditEntryId: number, at: Date): Promise<void> {
  const marks = await tx.unitMark.findMany({ where: { auditEntryId, clearedAt: null }, select: { datasetId: true, unitKey: true } });
  await tx.unitMark.updateMany({ where: { auditEntryId, clearedAt: null }, data: { clearedAt: at } });
  await recordUnitChanges(tx, marks, at);
}

/** Latest cleaning per (dataset id, unit): rows and copies from before it are gone. */
export async function cleanedAtByUnit(db: Db, datasetIds: string[]): Promise<Map<string, Map<string, number>>> {
  const rows = await db.unitMark.findMany({ where: { datasetId: { in: datasetIds }, kind: "cleaned", clearedAt: null }, select: { datasetId: true, unitKey: true, createdAt: true } });
  const out = new Map<string, Map<string, number>>();
  for (const r of rows) {
    let units = out.get(r.datasetId);
    if (!units) out.set(r.datasetId, (units = new Map()));
    units.set(r.unitKey, Math.max(units.get(r.unitKey) ?? -Infinity, r.createdAt.getTime()));
  }
  return out;
}

/** Latest attempt start per (task id, unit): a cleaning older than it no longer holds. */
export async function latestAttemptStarts(db: Db, taskIds: string[]): Promise<Map<string, number>> {
  const rows = await db.attempt.groupBy({ by: ["taskId", "unitKey"], where: { taskId: { in: taskIds } }, _max: { startedAt: true } });
  return new Map(rows.map((r) => [`${r.taskId}\u0000${r.unitKey}`, r._max.startedAt?.getTime() ?? -Infinity]));
}
