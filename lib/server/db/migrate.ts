import type { DatabaseTarget } from "./database-url";
import { migratePostgres, type PostgresMigrateOptions } from "./migrate-postgres";
import { migrateSqlite } from "./migrate-sqlite";
import { MigrationError, migrationsDir, readMigrations, type MigrateResult } from "./migration-files";

/**
 * Reparo's own migration applier. It runs the committed prisma/<provider>/migrations/*\/migration.sql
 * files in name order, each in one transaction, and records them in `_prisma_migrations` exactly as
 * Prisma Migrate does (same table, sha256 checksum), so `prisma migrate status` agrees with it.
 * Why not `prisma migrate deploy`: it needs Prisma's native schema engine, which is downloaded from
 * the network; a fresh offline machine must still be able to start the console.
 * SQLite: migrate-sqlite.ts (foreign keys off around each migration's transaction, checked before
 * commit); PostgreSQL: migrate-postgres.ts (Prisma Migrate's advisory lock, with a bounded wait).
 */
export { MigrationError, migratePostgres, migrateSqlite, migrationsDir, readMigrations };
export type { MigrateResult, PostgresMigrateOptions };
export type { MigrationFile } from "./migration-files";

/** Applies every pending migration to the target database. */
export async function migrate(target: DatabaseTarget, root = process.cwd(), options: PostgresMigrateOptions = {}): Promise<MigrateResult> {
  const migrations = readMigrations(migrationsDir(target.provider, root));
  return target.provider === "sqlite" ? migrateSqlite(target.file, migrations) : migratePostgres(target.url, migrations, options);
}
