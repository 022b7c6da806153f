import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { DatabaseTarget } from "./database-url";

/** One committed prisma/<provider>/migrations/<name>/migration.sql, with Prisma's sha256 checksum. */
export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

export function migrationsDir(provider: DatabaseTarget["provider"], root = process.cwd()): string {
  return path.join(root, "prisma", provider, "migrations");
}

export function readMigrations(dir: string): MigrationFile[] {
  if (!fs.existsSync(dir)) throw new Error(`migrations folder not found: ${dir}`);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, "migration.sql")))
    .map((e) => e.name)
    .sort()
    .map((name) => migrationFile(name, fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8")));
}

export function migrationFile(name: string, sql: string): MigrationFile {
  return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
}

/** A migration refused or failed, or the migration lock not obtained: its message is the whole story. */
export class MigrationError extends Error {
  override name = "MigrationError";
}

export function checkNotEdited(applied: Map<string, string>, files: MigrationFile[]): void {
  for (const f of files) {
    const sum = applied.get(f.name);
    if (sum && sum !== f.checksum) {
      throw new MigrationError(`migration ${f.name} was edited after it was applied (checksum differs): add a new migration instead`);
    }
  }
}

/** The query both appliers read `_prisma_migrations` with: finished and not rolled back. */
export const APPLIED_MIGRATIONS_SQL = `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
