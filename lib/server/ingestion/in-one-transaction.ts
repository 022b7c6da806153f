import { inTransaction, type Db, type Tx } from "../repositories/database";
import { isUniqueViolation } from "../db/db-errors";

const TRANSACTION_OPTIONS = { maxWait: 30_000, timeout: 120_000 } as const;
/** Tries after the first: each retry re-reads, so it finds the rows the racing winner committed. */
const UNIQUE_RACE_RETRIES = 3;

/**
 * One transaction per request. Two requests (or two console instances) racing to create the same
 * task, dataset, run or event collide on a unique index; the loser's transaction is rolled back
 * and tried again, and then finds the winner's rows and treats them as already there — a
 * producer's retry is a duplicate, never a 500. (Serialization failures and a busy database are
 * retried by the route, then answered 503 with Retry-After.)
 */
export async function inOneTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await inTransaction(db, work, TRANSACTION_OPTIONS);
    } catch (e) {
      if (attempt >= UNIQUE_RACE_RETRIES || !isUniqueViolation(e)) throw e;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * (attempt + 1)));
    }
  }
}
