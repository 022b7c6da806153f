import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
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
  const pool = lock ? null : pgPool(target.url, options.poolMax);
  const db = pool ? (new PgClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }) as unknown as Db) : new SqliteClient({ adapter: lock! });
  Object.defineProperty(db, PROVIDER, { value: target.provider });
  if (pool) Object.defineProperty(db, PG_POOL, { value: pool });
  if (lock) Object.defineProperty(db, WRITE_LOCK, { value: lock.state });
  return db;
}

/**
 * The pool Prisma's adapter takes its connections from, each connection known by its backend's
 * process id: a statement too large for Prisma's query path can then be sent on the connection a
 * transaction holds (pgConnectionOf).
 */
function pgPool(url: string, max: number | undefined): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, ...(max ? { max } : {}) });
  const byPid = new Map<number, pg.PoolClient>();
  pool.on("connect", (client) => {
    const pid = (client as unknown as { processID?: number }).processID;
    if (pid) byPid.set(pid, client);
  });
  pool.on("remove", (client) => {
    const pid = (client as unknown as { processID?: number }).processID;
    if (pid && byPid.get(pid) === client) byPid.delete(pid);
  });
  connectionsOfPool.set(pool, byPid);
  return pool;
}

const connectionsOfPool = new WeakMap<pg.Pool, Map<number, pg.PoolClient>>();
const PG_POOL = Symbol.for("reparo.pgPool");
const connectionOfTx = new WeakMap<object, pg.PoolClient | null>();

/**
 * The pg connection an interactive transaction runs on (PostgreSQL; null elsewhere, or when it
 * cannot be told): asked once per transaction (its backend's process id), then remembered.
 * Statements sent on it are part of the transaction, in the order they are awaited. Prisma's
 * query path costs a fold step a fifth of its console time on its large statements (their
 * parameters pass its query compiler, then its argument mapping): the fold's bulk writes go here.
 */
export async function pgConnectionOf(tx: Tx): Promise<pg.PoolClient | null> {
  // The client itself (not a transaction: it can disconnect) holds no connection between
  // statements: only a transaction's is known.
  if (providerOf(tx) !== "postgresql" || typeof (tx as unknown as Db).$disconnect === "function") return null;
  const known = connectionOfTx.get(tx);
  if (known !== undefined) return known;
  const pool = (tx as unknown as { [PG_POOL]?: pg.Pool })[PG_POOL];
  const byPid = pool ? connectionsOfPool.get(pool) : undefined;
  let client: pg.PoolClient | null = null;
  if (byPid) {
    const [row] = await tx.$queryRawUnsafe<{ pid: number }[]>(`SELECT pg_backend_pid() AS pid`);
    client = (row && byPid.get(Number(row.pid))) || null;
  }
  connectionOfTx.set(tx, client);
  return client;
}

/**
 * The pg pool a PostgreSQL client's adapter draws on (null on SQLite): a statement outside any
 * transaction whose parameters are large arrays (a producer's batch of events) is sent on it
 * directly, not through Prisma's query path, which maps every value first.
 */
export function pgPoolOf(db: Db | Tx): pg.Pool | null {
  if (typeof (db as unknown as { $disconnect?: unknown }).$disconnect !== "function") return null;
  return (db as unknown as { [PG_POOL]?: pg.Pool })[PG_POOL] ?? null;
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
