import type { Attempt, AttemptStatus, LedgerEntry, OperatorMark, RunKind } from "@/lib/domain/unit-state";
import type { Db } from "../db/client";

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

/** Every publish of the given datasets, grouped by dataset id and unit. */
export async function publishesByUnit(db: Db, datasetIds: string[]): Promise<ByUnit<LedgerEntry>> {
  const rows = await db.publish.findMany({
    where: { datasetId: { in: datasetIds } },
    select: { datasetId: true, unitKey: true, runId: true, publishedAt: true, inputVersion: true, codeVersion: true, rowCount: true, run: { select: { kind: true } } },
  });
  const out: ByUnit<LedgerEntry> = new Map();
  for (const r of rows) {
    const kind = RUN_KINDS.has(r.run.kind as RunKind) ? (r.run.kind as RunKind) : "manual";
    push(out, r.datasetId, r.unitKey, {
      runId: r.runId, runKind: kind, publishedAt: r.publishedAt.getTime(),
      inputVersion: r.inputVersion || null, codeVersion: r.codeVersion || null, rowCount: r.rowCount,
    });
  }
  return out;
}

/** Every attempt of the given tasks, grouped by task id and unit. */
export async function attemptsByUnit(db: Db, taskIds: string[]): Promise<ByUnit<Attempt>> {
  const rows = await db.attempt.findMany({
    where: { taskId: { in: taskIds } },
    select: { taskId: true, unitKey: true, runId: true, tryNumber: true, status: true, rowsWritten: true, error: true, startedAt: true, endedAt: true },
  });
  const out: ByUnit<Attempt> = new Map();
  for (const r of rows) {
    push(out, r.taskId, r.unitKey, {
      runId: r.runId, tryNumber: r.tryNumber, status: r.status as AttemptStatus, rowsWritten: r.rowsWritten,
      error: r.error, startedAt: r.startedAt?.getTime() ?? null, endedAt: r.endedAt?.getTime() ?? null,
    });
  }
  return out;
}

/** The source-of-truth row count per (dataset, unit). */
export async function sourceCountsByUnit(db: Db, datasetIds: string[]): Promise<Map<string, Map<string, number>>> {
  const rows = await db.sourceCount.findMany({ where: { datasetId: { in: datasetIds } }, select: { datasetId: true, unitKey: true, rowCount: true } });
  const out = new Map<string, Map<string, number>>();
  for (const r of rows) {
    let units = out.get(r.datasetId);
    if (!units) out.set(r.datasetId, (units = new Map()));
    units.set(r.unitKey, r.rowCount);
  }
  return out;
}

/** Operator marks still in force (not cleared). */
export async function marksByUnit(db: Db, datasetIds: string[]): Promise<ByUnit<OperatorMark>> {
  const rows = await db.unitMark.findMany({ where: { datasetId: { in: datasetIds }, clearedAt: null } });
  const out: ByUnit<OperatorMark> = new Map();
  for (const r of rows) {
    if (r.kind !== "known_bad" && r.kind !== "skipped" && r.kind !== "marked_success") continue;
    push(out, r.datasetId, r.unitKey, { kind: r.kind, reason: r.reason, at: r.createdAt.getTime() });
  }
  return out;
}

export async function listInvalidKeys(db: Db) {
  return db.invalidKey.findMany({ orderBy: [{ nodeId: "asc" }, { unitKey: "asc" }] });
}
