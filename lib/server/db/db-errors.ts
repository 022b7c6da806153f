/**
 * What a database error means, whichever provider and whichever Prisma path raised it: a model
 * call reports a unique violation as P2002, a raw statement as P2010 with the driver's code
 * (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY), the driver adapter as a
 * `UniqueConstraintViolation` cause. One reading here (with the busy database's below), not a
 * regex at every catch; both follow an error's `cause` chain.
 */
export function isUniqueViolation(e: unknown): boolean {
  return walk(e, (err) => {
    if (err.code === "P2002" || err.code === "23505" || err.code === "SQLITE_CONSTRAINT_UNIQUE" || err.code === "SQLITE_CONSTRAINT_PRIMARYKEY") return true;
    const meta = err.meta as { code?: unknown; driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } } | undefined;
    if (meta?.code === "23505" || meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation") return true;
    const message = typeof err.message === "string" ? err.message : "";
    return /duplicate key value violates unique constraint|UNIQUE constraint failed|Unique constraint failed/.test(message);
  });
}

/**
 * The database is busy, not broken: SQLite's writer lock held past the busy timeout (the adapter
 * reports SQLITE_BUSY as "Operation has timed out", P1008), a PostgreSQL serialization failure
 * or deadlock (40001, 40P01; Prisma's P2034), or a transaction that could not begin within its
 * wait (Prisma's P2028 "Unable to start a transaction in the given time": another writer held
 * the lock all along). The client should retry: 503 with Retry-After.
 */
export function isDatabaseBusy(e: unknown): boolean {
  return walk(e, (err) => {
    if (err.code === "P1008" || err.code === "P2034" || err.code === "SQLITE_BUSY" || err.code === "40001" || err.code === "40P01") return true;
    const meta = err.meta as { code?: unknown } | undefined;
    if (meta?.code === "40001" || meta?.code === "40P01") return true;
    const message = typeof err.message === "string" ? err.message : "";
    return /Operation has timed out|SQLITE_BUSY|database is locked|could not serialize access|deadlock detected|Unable to start a transaction in the given time/.test(
      message,
    );
  });
}

type ErrorLike = { code?: unknown; message?: unknown; meta?: unknown; cause?: unknown };

function walk(e: unknown, test: (err: ErrorLike) => boolean, depth = 0): boolean {
  if (!e || typeof e !== "object" || depth > 5) return false;
  const err = e as ErrorLike;
  if (test(err)) return true;
  return err.cause !== undefined && err.cause !== e && walk(err.cause, test, depth + 1);
}
