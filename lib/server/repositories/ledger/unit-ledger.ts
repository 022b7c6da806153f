import type { Attempt, AttemptStatus, LedgerEntry, OperatorMark, RunKind } from "@/lib/domain/unit-state";
import type { Db } from "../database";
import { prismaOf } from "../prisma-handle";

/** Per (owner id, unit key) lists, as the unit-state rules consume them. */
export type ByUnit<T> = Map<string, Map<string, T[]>>;

function push<T>(map: ByUnit<T>, owner: string, unit: string, value: T): void {
  let units = map.get(owner);
  if (!units) map.set(owner, (units = new Map()));
  const list = units.get(unit);
  if (list) list.push(value);
  else units.set(unit, [value]);
}

const RUN_KINDS = new Set<RunKind>(["scheduled", "manual", "backfill", "repair"]);

/** A dataset's or a task's units of interest: (owner id, unit keys). */
export interface UnitScope {
  id: string;
  keys: string[];
}

/**
 * Which units to read: every unit of the given owner ids (the matrix), or only the given keys of
 * each owner (completeness: through the (owner, unitKey) index, so a million-row ledger costs
 * what the period costs). Null when nothing is selected.
 */
export type UnitSelection = string[] | UnitScope[];

function whereUnits(field: "datasetId" | "taskId", selection: UnitSelection): Record<string, unknown> | null {
  if (selection.length === 0) return null;
  if (typeof selection[0] === "string") return { [field]: { in: selection as string[] } };
  const or = (selection as UnitScope[]).filter((s) => s.keys.length > 0).map((s) => ({ [field]: s.id, unitKey: { in: s.keys } }));
  return or.length ? { OR: or } : null;
}

/** Every publish of the selected dataset units, grouped by dataset id and unit. */
export async function publishesByUnit(db: Db, selection: UnitSelection): Promise<ByUnit<LedgerEntry>> {
  const where = whereUnits("datasetId", selection);
  if (!where) return new Map();
  const rows = await prismaOf(db).publish.findMany({
    where,
    select: {
      datasetId: true,
      unitKey: true,
      runId: true,
      publishedAt: true,
      inputVersion: true,
      codeVersion: true,
      rowCount: true,
      run: { select: { kind: true } },
    },
  });
  const out: ByUnit<LedgerEntry> = new Map();
  for (const r of rows) {
    const kind = RUN_KINDS.has(r.run.kind as RunKind) ? (r.run.kind as RunKind) : "manual";
    push(out, r.datasetId, r.unitKey, {
      runId: r.runId,
      runKind: kind,
      publishedAt: r.publishedAt.getTime(),
      inputVersion: r.inputVersion || null,
      codeVersion: r.codeVersion || null,
      rowCount: r.rowCount,
    });
  }
  return out;
}

/** Every attempt of the selected task units, grouped by task id and unit. */
export async function attemptsByUnit(db: Db, selection: UnitSelection): Promise<ByUnit<Attempt>> {
  const where = whereUnits("taskId", selection);
  if (!where) return new Map();
  const rows = await prismaOf(db).attempt.findMany({
    where,
    select: { taskId: true, unitKey: true, runId: true, tryNumber: true, status: true, rowsWritten: true, error: true, startedAt: true, endedAt: true },
  });
  const out: ByUnit<Attempt> = new Map();
  for (const r of rows) {
    push(out, r.taskId, r.unitKey, {
      runId: r.runId,
      tryNumber: r.tryNumber,
      status: r.status as AttemptStatus,
      rowsWritten: r.rowsWritten,
      error: r.error,
      startedAt: r.startedAt?.getTime() ?? null,
      endedAt: r.endedAt?.getTime() ?? null,
    });
  }
  return out;
}

/** The source-of-truth row count per selected (dataset, unit). */
export async function sourceCountsByUnit(db: Db, selection: UnitSelection): Promise<Map<string, Map<string, number>>> {
  const where = whereUnits("datasetId", selection);
  if (!where) return new Map();
  const rows = await prismaOf(db).sourceCount.findMany({ where, select: { datasetId: true, unitKey: true, rowCount: true } });
  const out = new Map<string, Map<string, number>>();
  for (const r of rows) {
    let units = out.get(r.datasetId);
    if (!units) out.set(r.datasetId, (units = new Map()));
    units.set(r.unitKey, r.rowCount);
  }
  return out;
}

/** Operator marks still in force (not cleared) on the selected units. */
export async function marksByUnit(db: Db, selection: UnitSelection): Promise<ByUnit<OperatorMark>> {
  const where = whereUnits("datasetId", selection);
  if (!where) return new Map();
  const rows = await prismaOf(db).unitMark.findMany({ where: { ...where, clearedAt: null } });
  const out: ByUnit<OperatorMark> = new Map();
  for (const r of rows) {
    if (r.kind !== "known_bad" && r.kind !== "skipped" && r.kind !== "marked_success") continue;
    push(out, r.datasetId, r.unitKey, { kind: r.kind, reason: r.reason, at: r.createdAt.getTime() });
  }
  return out;
}

export async function listInvalidKeys(db: Db) {
  return prismaOf(db).invalidKey.findMany({ orderBy: [{ nodeId: "asc" }, { unitKey: "asc" }] });
}

/** How many times each (dataset id, unit) was published, across the whole ledger. */
export async function publishCountsByUnit(db: Db): Promise<{ datasetId: string; unitKey: string; count: number }[]> {
  const rows = await prismaOf(db).publish.groupBy({ by: ["datasetId", "unitKey"], _count: { _all: true } });
  return rows.map((r) => ({ datasetId: r.datasetId, unitKey: r.unitKey, count: r._count._all }));
}
