import type { Db, Tx } from "../db/client";

/**
 * The database handle that use cases hold and pass to repositories: `Db` for the whole client,
 * `Tx` for one open transaction. Only repository files (and lib/server/db) may query through
 * it; ESLint refuses Prisma query calls and the client module everywhere else.
 */
export type { Db, Tx };
export { createDb, getDb, databaseProvider, providerOf } from "../db/client";

/** What a unit of work may ask of its transaction (Prisma's interactive-transaction options). */
export interface TransactionOptions {
  /** How long the transaction may wait to begin (ms). */
  maxWait?: number;
  /** How long it may run before it is rolled back (ms). */
  timeout?: number;
}

/**
 * The unit of work: runs `work` in one database transaction, committed when it resolves and
 * rolled back when it throws. Every change of state and its audit entry are written through
 * the same `tx`, so they commit together or not at all.
 */
export function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T> {
  return options ? db.$transaction(work, options) : db.$transaction(work);
}
