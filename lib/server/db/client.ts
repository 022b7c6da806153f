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

export function createDb(target: DatabaseTarget): Db {
  if (target.provider === "sqlite") {
    return new SqliteClient({ adapter: new PrismaBetterSqlite3({ url: target.url, timeout: 10_000 }) });
  }
  return new PgClient({ adapter: new PrismaPg({ connectionString: target.url }) }) as unknown as Db;
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

export function databaseProvider(): DatabaseTarget["provider"] {
  return resolveDatabaseTarget().provider;
}
