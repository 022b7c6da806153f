import type { Db, Tx } from "../database";
import { bulkInsert, type Column } from "../sql/bulk-sql";
import { prismaOf } from "../prisma-handle";

/** A unit whose records changed: of a dataset (publish, source count, mark) or of a task (attempt). */
export type UnitChangeRow = { datasetId: string; taskId?: undefined; unitKey: string } | { taskId: string; datasetId?: undefined; unitKey: string };

const COLUMNS: Column[] = [
  { name: "datasetId", type: "text" },
  { name: "taskId", type: "text" },
  { name: "unitKey", type: "text" },
  { name: "at", type: "timestamp" },
];

/**
 * Records, inside the caller's transaction, which units' records it changes: the unit-state
 * service recomputes exactly those units (and what is built from them) from the rows after the
 * last one it applied. Duplicates within a call are written once.
 */
export async function recordUnitChanges(tx: Tx, rows: readonly UnitChangeRow[], at: Date = new Date()): Promise<void> {
  if (rows.length === 0) return;
  const unique = new Map(rows.map((r) => [JSON.stringify([r.datasetId ?? null, r.taskId ?? null, r.unitKey]), r]));
  await bulkInsert(
    tx,
    "UnitChange",
    COLUMNS,
    [...unique.values()].map((r) => ({ datasetId: r.datasetId ?? null, taskId: r.taskId ?? null, unitKey: r.unitKey, at })),
  );
}

/** The last change's sequence number (0 when none). */
export async function lastUnitChange(db: Db): Promise<number> {
  const row = await prismaOf(db).unitChange.aggregate({ _max: { seq: true } });
  return row._max.seq ?? 0;
}

export interface UnitChangeRecord {
  seq: number;
  datasetId: string | null;
  taskId: string | null;
  unitKey: string;
  at: Date;
}

/** Changes after `seq`, oldest first, at most `limit`. */
export async function unitChangesAfter(db: Db, seq: number, limit: number): Promise<UnitChangeRecord[]> {
  return prismaOf(db).unitChange.findMany({ where: { seq: { gt: seq } }, orderBy: { seq: "asc" }, take: limit });
}

/** Changes the kept states already include, older than `before`: no reader needs them again. */
export async function pruneUnitChanges(db: Db, throughSeq: number, before: Date): Promise<number> {
  const { count } = await prismaOf(db).unitChange.deleteMany({ where: { seq: { lte: throughSeq }, at: { lt: before } } });
  return count;
}
