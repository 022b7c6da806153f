import type { Attempt, AttemptStatus, LedgerEntry, OperatorMark, RunKind } from "@/lib/domain/unit-state";
import type { Db } from "../db/client";

/** (owner id, unit keys): a dataset's or a task's units of interest. */
export interface UnitScope {
  id: string;
  keys: string[];
}

/** Owner id → unit key → records. */
export type ScopedByUnit<T> = Map<string, Map<string, T[]>>;

function push<T>(map: ScopedByUnit<T>, owner: string, unit: string, value: T): void {
  let units = map.get(owner);
  if (!units) map.set(owner, (units = new Map()));
  const list = units.get(unit);
  if (list) list.push(value);
  else units.set(unit, [value]);
}

const RUN_KINDS = new Set<RunKind>(["scheduled", "manual", "backfill", "repair"]);
const scopeFilter = (field: "datasetId" | "taskId", scopes: UnitScope[]) =>
  scopes.filter((s) => s.keys.length > 0).map((s) => ({ [field]: s.id, unitKey: { in: s.keys } }));

/**
 * The ledger entries of a few units of a few datasets — the completeness check's scope —
 * through the (datasetId, unitKey) index, so a million-row ledger costs what the period costs.
 */
export async function publishesOfUnits(db: Db, scopes: UnitScope[]): Promise<ScopedByUnit<LedgerEntry>> {
  const out: ScopedByUnit<LedgerEntry> = new Map();
  const or = scopeFilter("datasetId", scopes);
  if (or.length === 0) return out;
  const rows = await db.publish.findMany({
    where: { OR: or },
    select: { datasetId: true, unitKey: true, runId: true, publishedAt: true, inputVersion: true, codeVersion: true, rowCount: true, run: { select: { kind: true } } },
  });
  for (const r of rows) {
    push(out, r.datasetId, r.unitKey, {
      runId: r.runId, runKind: RUN_KINDS.has(r.run.kind as RunKind) ? (r.run.kind as RunKind) : "manual",
      publishedAt: r.publishedAt.getTime(), inputVersion: r.inputVersion || null, codeVersion: r.codeVersion || null, rowCount: r.rowCount,
    });
  }
  return out;
}

export async function attemptsOfUnits(db: Db, scopes: UnitScope[]): Promise<ScopedByUnit<Attempt>> {
  const out: ScopedByUnit<Attempt> = new Map();
  const or = scopeFilter("taskId", scopes);
  if (or.length === 0) return out;
  const rows = await db.attempt.findMany({
    where: { OR: or },
    select: { taskId: true, unitKey: true, runId: true, tryNumber: true, status: true, rowsWritten: true, error: true, startedAt: true, endedAt: true },
  });
  for (const r of rows) {
    push(out, r.taskId, r.unitKey, {
      runId: r.runId, tryNumber: r.tryNumber, status: r.status as AttemptStatus, rowsWritten: r.rowsWritten,
      error: r.error, startedAt: r.startedAt?.getTime() ?? null, endedAt: r.endedAt?.getTime() ?? null,
    });
  }
  return out;
}

export async function sourceCountsOfUnits(db: Db, scopes: UnitScope[]): Promise<Map<string, Map<string, number>>> {
  const out = new Map<string, Map<string, number>>();
  const or = scopeFilter("datasetId", scopes);
  if (or.length === 0) return out;
  const rows = await db.sourceCount.findMany({ where: { OR: or }, select: { datasetId: true, unitKey: true, rowCount: true } });
  for (const r of rows) {
    let units = out.get(r.datasetId);
    if (!units) out.set(r.datasetId, (units = new Map()));
    units.set(r.unitKey, r.rowCount);
  }
  return out;
}

/** Operator marks still in force (not cleared) on those units. */
export async function marksOfUnits(db: Db, scopes: UnitScope[]): Promise<ScopedByUnit<OperatorMark>> {
  const out: ScopedByUnit<OperatorMark> = new Map();
  const or = scopeFilter("datasetId", scopes);
  if (or.length === 0) return out;
  const rows = await db.unitMark.findMany({ where: { OR: or, clearedAt: null } });
  for (const r of rows) {
    if (r.kind !== "known_bad" && r.kind !== "skipped" && r.kind !== "marked_success") continue;
    push(out, r.datasetId, r.unitKey, { kind: r.kind, reason: r.reason, at: r.createdAt.getTime() });
  }
  return out;
}
