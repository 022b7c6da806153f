import type { Db, Tx } from "../db/client";

const TRANSACTION_OPTIONS = { maxWait: 30_000, timeout: 120_000 } as const;

/**
 * One transaction per request. Two requests racing to create the same task, dataset or event
 * collide on a unique index (PostgreSQL); the loser is retried once, and then finds the
 * winner's rows and treats them as already there.
 */
export async function inOneTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await db.$transaction(work, TRANSACTION_OPTIONS);
  } catch (e) {
    if ((e as { code?: string }).code !== "P2002") throw e;
    return db.$transaction(work, TRANSACTION_OPTIONS);
  }
}
