import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "./generated/sqlite/client";
import { PrismaClient as PgClient } from "./generated/postgresql/client";
import { resolveDatabaseTarget, type DatabaseTarget } from "./database-url";

/**
 * The Prisma client for the configured database. Both generated clients come from the same
 * models (prisma/models.prisma), so their model APIs are identical; repositories use one type.
 */
export type Db = SqliteClient;
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/** `poolMax`: on PostgreSQL, at most this many connections (pg's default is 10): a helper thread's client needs few. */
export function createDb(target: DatabaseTarget, options: { poolMax?: number } = {}): Db {
  const db =
    target.provider === "sqlite"
      ? new SqliteClient({ adapter: new ImmediateTransactions({ url: target.url, timeout: 10_000 }) })
      : (new PgClient({ adapter: new PrismaPg({ connectionString: target.url, ...(options.poolMax ? { max: options.poolMax } : {}) }) }) as unknown as Db);
  Object.defineProperty(db, PROVIDER, { value: target.provider });
  return db;
}

// The provider each client was built for, from our configuration (the DatabaseTarget), kept on
// the client under our own key. An interactive transaction's client reads through to the client
// that opened it, so a `tx` answers with its client's provider.
const PROVIDER = Symbol.for("reparo.databaseProvider");

/**
 * SQLite transactions that take the write lock when they begin. The adapter opens one connection
 * per process and starts every transaction with a deferred `BEGIN`, so a query of another request
 * that runs on that connection meanwhile turns the transaction into a reader with a snapshot; when
 * another process (a second console, `demo:load`, the CLI) commits before the transaction's first
 * write, SQLite refuses the upgrade with SQLITE_BUSY_SNAPSHOT at once — the busy timeout never
 * applies. Measured: `demo:load` beside a process writing every 20 ms failed on its first attempts.
 * `BEGIN IMMEDIATE` waits (up to the busy timeout) for the lock instead, and then sees the latest data.
 */
class ImmediateTransactions extends PrismaBetterSqlite3 {
  override async connect(): ReturnType<PrismaBetterSqlite3["connect"]> {
    const adapter = await super.connect();
    const client = (adapter as unknown as { client: { prepare: (sql: string) => unknown } }).client;
    const prepare = client.prepare.bind(client);
    client.prepare = (sql: string) => prepare(sql === "BEGIN" ? "BEGIN IMMEDIATE" : sql);
    return adapter;
  }
}

// One client per process: in dev every hot reload would otherwise open a new one (Prisma 7 no
// longer warns), leaking SQLite handles and PostgreSQL connections.
const holder = globalThis as unknown as { __reparoDb?: { key: string; db: Db } };

export function getDb(): Db {
  const target = resolveDatabaseTarget();
  if (holder.__reparoDb?.key !== target.url) {
    holder.__reparoDb = { key: target.url, db: createDb(target) };
  }
  return holder.__reparoDb.db;
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
