import {
  createDb as createPrismaDb,
  getDb as getPrismaDb,
  providerOf as providerOfClient,
  writeLockStateOf,
  type Db as PrismaDb,
  type Tx as PrismaTx,
} from "../db/client";
import type { WriteLockState } from "../db/sqlite-write-lock";
import type { DatabaseTarget } from "../db/database-url";
import type { Prisma } from "../db/generated/sqlite/client";

export { databaseProvider } from "../db/client";

// What a handle hides: every model's queries, raw SQL and transactions. Only repository files
// reach them (through prismaOf in ./prisma-handle); ESLint refuses them everywhere else too.
type Hidden = Uncapitalize<Prisma.ModelName> | "$transaction" | "$queryRaw" | "$queryRawUnsafe" | "$executeRaw" | "$executeRawUnsafe";
type Handle<T> = { [K in keyof T]: K extends Hidden ? unknown : T[K] };

/**
 * The database handle that use cases hold and pass to repositories: `Db` for the whole client,
 * `Tx` for one open transaction. Opaque: a use case can pass it on, and nothing more.
 */
export type Db = Handle<PrismaDb>;
export type Tx = Handle<PrismaTx>;

/** The console's database (DATABASE_URL), one client per process. */
export function getDb(): Db {
  return getPrismaDb();
}

/** A client for this database (a CLI's, a test's, a helper thread's: `poolMax` caps its PostgreSQL connections). */
export function createDb(target: DatabaseTarget, options: { poolMax?: number; lockWaitMs?: number } = {}): Db {
  return createPrismaDb(target, options);
}

/** Which database a handle talks to: the provider our configuration built it for. */
export function providerOf(db: Db | Tx): DatabaseTarget["provider"] {
  return providerOfClient(db as unknown as PrismaTx);
}

/** On SQLite, how this client's transactions stand with the write lock; null on PostgreSQL. */
export function writeLockState(db: Db): WriteLockState | null {
  return writeLockStateOf(db as unknown as PrismaDb);
}

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
  const client = db as unknown as PrismaDb;
  return options ? client.$transaction(work, options) : client.$transaction(work);
}
