import { pgPoolOf } from "../../db/client";
import type { Db, Tx } from "../database";
import { prismaOf } from "../prisma-handle";

/**
 * A read by raw SQL, its parameters positional (`$1` on PostgreSQL, `?` on SQLite). On a
 * PostgreSQL client outside a transaction it is sent on the client's pg pool: through Prisma's
 * raw path every statement also passes its query compiler and argument mapping, and an update of
 * the unit states after a fold makes hundreds of small reads on every console (docs/ingestion.md).
 * In a transaction, and on SQLite, Prisma's path.
 */
export async function rawRead<T>(db: Db | Tx, sql: string, ...params: unknown[]): Promise<T[]> {
  const prisma = prismaOf(db);
  const pool = pgPoolOf(prisma);
  if (pool) return (await pool.query(sql, params)).rows as T[];
  return prisma.$queryRawUnsafe<T[]>(sql, ...params);
}
