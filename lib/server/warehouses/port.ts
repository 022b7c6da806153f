import type { Db, Tx } from "../repositories/database";

/**
 * The warehouse port: where a dataset's rows live, so cleaning an appended unit really deletes
 * them (seed 001: "deduplicate the interval now") and the console records what it measured —
 * the unit's rows before and after, counted in the same warehouse transaction as the delete.
 * One adapter per kind (the demo's own table; PostgreSQL), chosen per dataset namespace.
 */
export interface UnitRows {
  readonly datasetId: string;
  readonly namespace: string;
  /** The dataset's name as ingested, e.g. `analytics.public.stg_orders`. */
  readonly name: string;
  readonly unitKey: string;
  /** The unit's time window, for time-partitioned datasets. */
  readonly window: { readonly start: Date; readonly end: Date } | null;
}

/** The statement that deletes the unit's rows, as the operator is shown it before it runs. */
export interface CleanStatement {
  readonly sql: string;
  readonly params: readonly string[];
}

export interface Measured {
  readonly before: number;
  readonly after: number;
}

export interface Warehouse {
  readonly kind: "postgresql" | "demo";
  /** The delete for the unit, or why this warehouse cannot address it. */
  statement(unit: UnitRows): CleanStatement | { readonly unsupported: string };
  /** The rows of each unit now (one connection for all of them), by unit key. */
  countRows(db: Db, units: readonly UnitRows[]): Promise<Map<string, number>>;
  /**
   * Deletes the unit's rows in one warehouse transaction, counting before and after, and calls
   * `record` with the counts inside Reparo's own transaction. The warehouse commits only after
   * Reparo's transaction did (a failed record deletes nothing); if that last warehouse COMMIT
   * fails, `undo` records in Reparo that the rows are still there, and the error is thrown.
   */
  clean<T>(db: Db, unit: UnitRows, record: (tx: Tx, measured: Measured) => Promise<T>, undo: (tx: Tx, recorded: T, error: Error) => Promise<void>): Promise<T>;
}
