import { inTransaction, type Db, type Tx } from "../repositories/database";
import { clearWarehouseUnit, countUnitRows, deleteWarehouseRowsByKey, insertWarehouseRows } from "../repositories/warehouses/warehouse-rows";
import type { FailureInjection, OutputRow, WriteMode } from "./types";

export interface WriteUnitSpec {
  datasetId: string;
  unitKey: string;
  mode: WriteMode;
  rows: readonly OutputRow[];
  /** One transaction for the whole write: a failure leaves the unit as it was. */
  atomic: boolean;
  failure?: FailureInjection;
  attemptId: string | null;
  writtenAt: Date;
  /** Runs in the transaction that completes a successful write: the ledger entry goes here. */
  onCommit?: (tx: Tx, unitRowCount: number) => Promise<void>;
}

export interface WriteUnitResult {
  /** Rows this write left in the warehouse (0 when an atomic write rolled back). */
  rowsWritten: number;
  /** Rows in the unit after a successful write; null when it failed. */
  unitRowCount: number | null;
  error: string | null;
}

const CHUNK = 500;
// Interactive transactions default to 5 s; a full unit swap on a busy PostgreSQL can take longer.
const TX = { timeout: 60_000, maxWait: 60_000 };

class InjectedFailure extends Error {}

/**
 * Writes one unit of a dataset with the task's declared write mode:
 *   append  inserts (a retry after a partial write keeps both: seed 001's one and a half copies)
 *   replace deletes the unit's rows and inserts the new ones
 *   merge   upserts on rowKey within the unit (a retry overwrites the same keys: seed 003 keyed)
 * A failure after row N leaves the first N rows readable unless the write is atomic.
 * Every statement runs in a transaction, because on SQLite an untransacted write would be
 * swept into whichever transaction another concurrent attempt holds open on the connection.
 */
export async function writeUnit(db: Db, spec: WriteUnitSpec): Promise<WriteUnitResult> {
  const cutoff = failurePoint(spec.failure, spec.rows.length);
  const rows = cutoff === null ? spec.rows : spec.rows.slice(0, cutoff);
  const error = cutoff === null ? null : (spec.failure?.error ?? describeFailure(cutoff, spec.rows.length));
  if (spec.atomic) return writeAtomically(db, spec, rows, error);
  if (spec.mode === "replace") await inTransaction(db, (tx) => clearUnit(tx, spec), TX);
  for (let i = 0; i < rows.length; i += CHUNK) {
    await inTransaction(db, (tx) => insertRows(tx, spec, rows.slice(i, i + CHUNK)), TX);
  }
  if (error !== null) return { rowsWritten: rows.length, unitRowCount: null, error };
  const unitRowCount = await inTransaction(db, async (tx) => commitWrite(tx, spec), TX);
  return { rowsWritten: rows.length, unitRowCount, error: null };
}

async function writeAtomically(db: Db, spec: WriteUnitSpec, rows: readonly OutputRow[], error: string | null): Promise<WriteUnitResult> {
  try {
    const unitRowCount = await inTransaction(
      db,
      async (tx) => {
        if (spec.mode === "replace") await clearUnit(tx, spec);
        for (let i = 0; i < rows.length; i += CHUNK) await insertRows(tx, spec, rows.slice(i, i + CHUNK));
        if (error !== null) throw new InjectedFailure(error);
        return commitWrite(tx, spec);
      },
      TX,
    );
    return { rowsWritten: rows.length, unitRowCount, error: null };
  } catch (e) {
    if (!(e instanceof InjectedFailure)) throw e;
    return { rowsWritten: 0, unitRowCount: null, error: `${e.message} (atomic write rolled back: nothing left behind)` };
  }
}

/** The row index at which the write fails, or null when it completes (seed 003: cutoff ≥ rows succeeds). */
function failurePoint(failure: FailureInjection | undefined, total: number): number | null {
  if (!failure) return null;
  if (failure.failBeforeWrite) return 0;
  if (failure.failAfterRows === undefined || failure.failAfterRows >= total) return null;
  return Math.max(0, failure.failAfterRows);
}

function describeFailure(cutoff: number, total: number): string {
  return cutoff === 0 ? "failed before writing any row" : `failed after writing ${cutoff} of ${total} rows`;
}

async function clearUnit(tx: Tx, spec: WriteUnitSpec): Promise<void> {
  await clearWarehouseUnit(tx, spec.datasetId, spec.unitKey);
}

async function insertRows(tx: Tx, spec: WriteUnitSpec, rows: readonly OutputRow[]): Promise<void> {
  if (rows.length === 0) return;
  if (spec.mode === "merge") {
    await deleteWarehouseRowsByKey(tx, spec.datasetId, spec.unitKey, [...new Set(rows.map((r) => r.rowKey))]);
    rows = lastPerKey(rows);
  }
  await insertWarehouseRows(tx, spec, rows);
}

/** A merge keeps one row per key: the last one written wins. */
function lastPerKey(rows: readonly OutputRow[]): OutputRow[] {
  const byKey = new Map<string, OutputRow>();
  for (const r of rows) byKey.set(r.rowKey, r);
  return [...byKey.values()];
}

async function commitWrite(tx: Tx, spec: WriteUnitSpec): Promise<number> {
  const count = await countUnitRows(tx, spec.datasetId, spec.unitKey);
  await spec.onCommit?.(tx, count);
  return count;
}
