import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import { PrismaClient as PgClient } from "./generated/postgresql/client";
import { resolveDatabaseTarget, type DatabaseTarget } from "./database-url";
import { SqliteWriteLock, type WriteLockState } from "./sqlite-write-lock";
import { processSlot } from "../runtime/process-singleton";

/**
 * The Prisma client for the configured database. Both generated clients come from the same
 * models (prisma/models.prisma), so their model APIs are identical; repositories use one type.
 */
export type Db = SqliteClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * `poolMax`: on PostgreSQL, at most this many connections (pg's default is 10): a helper thread's
 * client needs few. `lockWaitMs`: on SQLite, how long a write waits for another connection's lock
 * before it is refused as busy (REPARO_SQLITE_LOCK_WAIT_MS, default 10 s).
 */
export function createDb(target: DatabaseTarget, options: { poolMax?: number; lockWaitMs?: number } = {}): Db {
  const lock = target.provider === "sqlite" ? new SqliteWriteLock({ url: target.url, timeoutMs: options.lockWaitMs ?? configuredLockWaitMs() }) : null;
  const db = lock
    ? new SqliteClient({ adapter: lock })
    : (new PgClient({ adapter: new PrismaPg({ connectionString: target.url, ...(options.poolMax ? { max: options.poolMax } : {}) }) }) as unknown as Db);
  Object.defineProperty(db, PROVIDER, { value: target.provider });
  if (lock) Object.defineProperty(db, WRITE_LOCK, { value: lock.state });
  return db;
}

function configuredLockWaitMs(): number {
  const given = Number(process.env.REPARO_SQLITE_LOCK_WAIT_MS);
  return Number.isFinite(given) && given >= 0 ? given : 10_000;
}

// The provider each client was built for, from our configuration (the DatabaseTarget), kept on
// the client under our own key. An interactive transaction's client reads through to the client
// that opened it, so a `tx` answers with its client's provider.
const PROVIDER = Symbol.for("reparo.databaseProvider");
const WRITE_LOCK = Symbol.for("reparo.sqliteWriteLock");

/** How a SQLite client's transactions stand with the write lock (null on PostgreSQL). */
export function writeLockStateOf(db: Db | Tx): WriteLockState | null {
  return (db as unknown as { [WRITE_LOCK]?: WriteLockState })[WRITE_LOCK] ?? null;
}

// One client per process: in dev every hot reload would otherwise open a new one (Prisma 7 no
// longer warns), leaking SQLite handles and PostgreSQL connections.
const current = processSlot<{ key: string; db: Db }>("db");

export function getDb(): Db {
  const target = resolveDatabaseTarget();
  let held = current.get();
  if (held?.key !== target.url) current.set((held = { key: target.url, db: createDb(target) }));
  return held.db;
}

/** Which database a client or a transaction talks to: the provider `createDb` built it for. */
export function providerOf(db: Db | Tx): DatabaseTarget["provider"] {
  const provider = (db as unknown as { [PROVIDER]?: DatabaseTarget["provider"] })[PROVIDER];
  if (!provider) throw new Error("providerOf: this database client was not made by createDb");
  return provider;
}

export function databaseProvider(): DatabaseTarget["provider"] {
  return resolveDatabaseTarget().provider;
}
