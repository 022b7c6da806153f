/**
 * The database is busy, not broken: SQLite's writer lock held past the busy timeout (the adapter
 * reports SQLITE_BUSY as "Operation has timed out", P1008), a PostgreSQL serialization failure
 * or deadlock (40001, 40P01; Prisma's P2034). The client should retry: 503 with Retry-After.
 */
export function isDatabaseBusy(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown; cause?: unknown; meta?: { code?: unknown } } | null;
  if (!err || typeof err !== "object") return false;
  if (err.code === "P1008" || err.code === "P2034" || err.code === "SQLITE_BUSY" || err.code === "40001" || err.code === "40P01") return true;
  if (err.meta?.code === "40001" || err.meta?.code === "40P01") return true;
  const message = typeof err.message === "string" ? err.message : "";
  if (/Operation has timed out|SQLITE_BUSY|database is locked|could not serialize access|deadlock detected/.test(message)) return true;
  return err.cause !== undefined && err.cause !== e && isDatabaseBusy(err.cause);
}

export const BUSY_RETRY_AFTER_SECONDS = 2;
