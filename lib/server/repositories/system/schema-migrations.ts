import type { Db } from "../database";
import { prismaOf } from "../prisma-handle";

/** The migrations the database records as applied (Prisma Migrate's table, which db/migrate.ts writes). */
export async function appliedMigrationNames(db: Db): Promise<Set<string>> {
  const rows = await prismaOf(db).$queryRawUnsafe<{ migration_name: string }[]>(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  return new Set(rows.map((r) => r.migration_name));
}
