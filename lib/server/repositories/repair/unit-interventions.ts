import { cleanedAt, type Cleaning, type WarehouseCount } from "@/lib/domain/cleanings";
import { compositeKey } from "@/lib/domain/composite-key";
import { providerOf, type Db, type Tx } from "../database";
import { recordUnitChanges } from "../units/unit-changes";
import { prismaOf } from "../prisma-handle";

/**
 * Interventions on the rows and marks of a unit: cleaning an appended unit (its rows really
 * deleted from the demo warehouse) and operator marks. Each runs inside the caller's
 * transaction, beside the audit entry that records it.
 */
/** `cleaned`: Reparo deleted and counted the unit's rows; `clean_declared`: an operator says it was cleaned outside Reparo (believed once a count shows it empty). */
export type MarkKind = "known_bad" | "skipped" | "marked_success" | "cleaned" | "clean_declared";

export async function createUnitMarks(
  tx: Tx,
  datasetId: string,
  unitKeys: string[],
  kind: MarkKind,
  reason: string,
  auditEntryId: number,
  at: Date,
): Promise<void> {
  await prismaOf(tx).unitMark.createMany({ data: unitKeys.map((unitKey) => ({ datasetId, unitKey, kind, reason, auditEntryId, createdAt: at })) });
  await recordUnitChanges(
    tx,
    unitKeys.map((unitKey) => ({ datasetId, unitKey })),
    at,
  );
}

/** Withdraws the marks an audit entry created (a cleaning its warehouse did not commit). */
export async function clearUnitMarksOfEntry(tx: Tx, auditEntryId: number, at: Date): Promise<void> {
  const marks = await prismaOf(tx).unitMark.findMany({ where: { auditEntryId, clearedAt: null }, select: { datasetId: true, unitKey: true } });
  await prismaOf(tx).unitMark.updateMany({ where: { auditEntryId, clearedAt: null }, data: { clearedAt: at } });
  await recordUnitChanges(tx, marks, at);
}

/**
 * When each (dataset id, unit)'s rows were last known gone (domain/cleanings.ts): a cleaning
 * Reparo measured, or one declared outside Reparo and evidenced by a warehouse count of 0 rows.
 */
export async function cleanedAtByUnit(db: Db, datasetIds: string[]): Promise<Map<string, Map<string, number>>> {
  const rows = await prismaOf(db).unitMark.findMany({
    where: { datasetId: { in: datasetIds }, kind: { in: ["cleaned", "clean_declared"] }, clearedAt: null },
    select: { datasetId: true, unitKey: true, createdAt: true, kind: true, evidencedAt: true },
  });
  const byUnit = new Map<string, { datasetId: string; unitKey: string; cleanings: Cleaning[] }>();
  for (const r of rows) {
    const key = compositeKey(r.datasetId, r.unitKey);
    const u = byUnit.get(key) ?? { datasetId: r.datasetId, unitKey: r.unitKey, cleanings: [] };
    u.cleanings.push(
      r.kind === "cleaned"
        ? { kind: "measured", at: r.createdAt.getTime() }
        : { kind: "declared", at: r.createdAt.getTime(), evidencedAt: r.evidencedAt?.getTime() ?? null },
    );
    byUnit.set(key, u);
  }
  const out = new Map<string, Map<string, number>>();
  for (const u of byUnit.values()) {
    const at = cleanedAt(u.cleanings);
    if (at === null) continue;
    let units = out.get(u.datasetId);
    if (!units) out.set(u.datasetId, (units = new Map()));
    units.set(u.unitKey, at);
  }
  return out;
}

/**
 * Counts of 0 rows evidence the declared cleanings of their units that no count evidenced yet
 * (or only an older one): each such declaration is believed from the count's `measuredAt`.
 * Returns the declarations it evidenced, for their audit entries.
 */
export async function evidenceDeclaredCleanings(
  tx: Tx,
  zeros: readonly { datasetId: string; unitKey: string; measuredAt: Date }[],
  at: Date,
): Promise<{ datasetId: string; unitKey: string; measuredAt: Date; auditEntryId: number; previous: Date | null }[]> {
  if (zeros.length === 0) return [];
  const marks = await prismaOf(tx).unitMark.findMany({
    where: {
      kind: "clean_declared",
      clearedAt: null,
      datasetId: { in: [...new Set(zeros.map((z) => z.datasetId))] },
      unitKey: { in: [...new Set(zeros.map((z) => z.unitKey))] },
    },
    select: { id: true, datasetId: true, unitKey: true, evidencedAt: true, auditEntryId: true },
  });
  const out: { datasetId: string; unitKey: string; measuredAt: Date; auditEntryId: number; previous: Date | null }[] = [];
  for (const m of marks) {
    const z = zeros.find((x) => x.datasetId === m.datasetId && x.unitKey === m.unitKey);
    if (!z || (m.evidencedAt && m.evidencedAt >= z.measuredAt)) continue;
    await prismaOf(tx).unitMark.update({ where: { id: m.id }, data: { evidencedAt: z.measuredAt } });
    out.push({ datasetId: m.datasetId, unitKey: m.unitKey, measuredAt: z.measuredAt, auditEntryId: m.auditEntryId, previous: m.evidencedAt });
  }
  await recordUnitChanges(
    tx,
    out.map((o) => ({ datasetId: o.datasetId, unitKey: o.unitKey })),
    at,
  );
  return out;
}

/** The team's latest count of each (dataset id, unit)'s rows in its warehouse, keyed compositeKey(datasetId, unitKey). */
export async function warehouseCountsOf(
  db: Db | Tx,
  units: readonly { datasetId: string; unitKey: string }[],
): Promise<Map<string, WarehouseCount & { source: string }>> {
  if (units.length === 0) return new Map();
  const wanted = new Set(units.map((u) => compositeKey(u.datasetId, u.unitKey)));
  const rows = await prismaOf(db).warehouseCount.findMany({
    where: { datasetId: { in: [...new Set(units.map((u) => u.datasetId))] }, unitKey: { in: [...new Set(units.map((u) => u.unitKey))] } },
    select: { datasetId: true, unitKey: true, rowCount: true, measuredAt: true, source: true },
  });
  return new Map(
    rows
      .filter((r) => wanted.has(compositeKey(r.datasetId, r.unitKey)))
      .map((r) => [compositeKey(r.datasetId, r.unitKey), { rows: r.rowCount, measuredAt: r.measuredAt.getTime(), source: r.source }]),
  );
}

/** Declarations of cleaning outside Reparo still in force, per unit key of one dataset (the latest wins). */
export async function cleanDeclarations(
  db: Db,
  datasetId: string,
  unitKeys: readonly string[],
): Promise<Map<string, { at: number; reason: string; auditEntryId: number; evidencedAt: number | null }>> {
  if (unitKeys.length === 0) return new Map();
  const rows = await prismaOf(db).unitMark.findMany({
    where: { datasetId, unitKey: { in: [...unitKeys] }, kind: "clean_declared", clearedAt: null },
    orderBy: { createdAt: "asc" },
  });
  return new Map(
    rows.map((r) => [r.unitKey, { at: r.createdAt.getTime(), reason: r.reason, auditEntryId: r.auditEntryId, evidencedAt: r.evidencedAt?.getTime() ?? null }]),
  );
}

/** Latest attempt start per (task id, unit), keyed compositeKey(taskId, unitKey) (only `unitKeys` when given): a cleaning older than it no longer holds. */
export async function latestAttemptStarts(db: Db, taskIds: string[], unitKeys?: readonly string[]): Promise<Map<string, number>> {
  const rows = await prismaOf(db).attempt.groupBy({
    by: ["taskId", "unitKey"],
    where: { taskId: { in: taskIds }, ...(unitKeys ? { unitKey: { in: [...unitKeys] } } : {}) },
    _max: { startedAt: true },
  });
  return new Map(rows.map((r) => [compositeKey(r.taskId, r.unitKey), r._max.startedAt?.getTime() ?? -Infinity]));
}

/** What was written to each unit of a task's output, as far as Reparo knows: its attempts' statuses and rows, and its publish count. */
export async function writtenFacts(
  db: Db,
  taskId: string,
  datasetId: string,
  unitKeys: readonly string[],
): Promise<{ attempts: Map<string, { status: string; rowsWritten: number | null }[]>; publishes: Map<string, number> }> {
  const attempts = new Map<string, { status: string; rowsWritten: number | null }[]>();
  const publishes = new Map<string, number>();
  if (unitKeys.length === 0) return { attempts, publishes };
  const [tries, pubs] = await Promise.all([
    prismaOf(db).attempt.findMany({ where: { taskId, unitKey: { in: [...unitKeys] } }, select: { unitKey: true, status: true, rowsWritten: true } }),
    prismaOf(db).publish.groupBy({ by: ["unitKey"], where: { datasetId, unitKey: { in: [...unitKeys] } }, _count: { _all: true } }),
  ]);
  for (const a of tries) attempts.set(a.unitKey, [...(attempts.get(a.unitKey) ?? []), { status: a.status, rowsWritten: a.rowsWritten }]);
  for (const p of pubs) publishes.set(p.unitKey, p._count._all);
  return { attempts, publishes };
}

/**
 * Serialises what declares a dataset's units cleaned and what counts them (PostgreSQL; SQLite has
 * one writer): a declaration and a count of 0 arriving together each see the other, so the count
 * evidences the declaration whichever commits first.
 */
export async function lockCleanings(tx: Tx, datasetIds: readonly string[]): Promise<void> {
  if (providerOf(tx) !== "postgresql") return;
  for (const id of [...new Set(datasetIds)].sort())
    await prismaOf(tx).$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))::text AS locked`, `reparo:cleanings:${id}`);
}
