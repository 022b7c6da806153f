import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { DatabaseConfigError, redact, type DatabaseTarget } from "./database-url";

/**
 * Reparo's own migration applier. It runs the committed prisma/<provider>/migrations/*\/migration.sql
 * files in name order, each in one transaction, and records them in `_prisma_migrations` exactly as
 * Prisma Migrate does (same table, sha256 checksum), so `prisma migrate status` agrees with it.
 * Why not `prisma migrate deploy`: it needs Prisma's native schema engine, which is downloaded from
 * the network; a fresh offline machine must still be able to start the console.
 */
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
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: crypto.createHash("sha256").update(sql).digest("hex") };
    });
}

const SQLITE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

const PG_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** Prisma Migrate's advisory lock key, so Reparo and `prisma migrate` never run at once. */
const PG_ADVISORY_LOCK = 72707369;

function checkNotEdited(applied: Map<string, string>, files: MigrationFile[]): void {
  for (const f of files) {
    const sum = applied.get(f.name);
    if (sum && sum !== f.checksum) {
      throw new Error(`migration ${f.name} was edited after it was applied (checksum differs): add a new migration instead`);
    }
  }
}

export function migrateSqlite(file: string, migrations: MigrationFile[]): MigrateResult {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 10000");
    db.exec(SQLITE_MIGRATIONS_TABLE);
    const rows = db
      .prepare(`SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`)
      .all() as { migration_name: string; checksum: string }[];
    const applied = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    checkNotEdited(applied, migrations);
    const result: MigrateResult = { applied: [], alreadyApplied: [...applied.keys()] };
    for (const m of migrations.filter((x) => !applied.has(x.name))) {
      db.transaction(() => {
        const now = new Date().toISOString();
        db.exec(m.sql);
        db.prepare(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, started_at, applied_steps_count) VALUES (?, ?, ?, ?, NULL, ?, 1)`,
        ).run(crypto.randomUUID(), m.checksum, new Date().toISOString(), m.name, now);
      }).immediate();
      result.applied.push(m.name);
    }
    return result;
  } finally {
    db.close();
  }
}

export async function migratePostgres(url: string, migrations: MigrationFile[]): Promise<MigrateResult> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (e) {
    throw new DatabaseConfigError(`DATABASE_URL: cannot connect to ${redact(url)}: ${(e as Error).message}`);
  }
  try {
    await client.query(`SELECT pg_advisory_lock(${PG_ADVISORY_LOCK})`);
    await client.query(PG_MIGRATIONS_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    checkNotEdited(applied, migrations);
    const result: MigrateResult = { applied: [], alreadyApplied: [...applied.keys()] };
    for (const m of migrations.filter((x) => !applied.has(x.name))) {
      await client.query("BEGIN");
      try {
        const startedAt = new Date();
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, NULL, $4, 1)`,
          [crypto.randomUUID(), m.checksum, m.name, startedAt],
        );
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${m.name} failed: ${(e as Error).message}`);
      }
      result.applied.push(m.name);
    }
    return result;
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${PG_ADVISORY_LOCK})`).catch(() => undefined);
    await client.end();
  }
}

/** Applies every pending migration to the target database. */
export async function migrate(target: DatabaseTarget, root = process.cwd()): Promise<MigrateResult> {
  const migrations = readMigrations(migrationsDir(target.provider, root));
  return target.provider === "sqlite" ? migrateSqlite(target.file, migrations) : migratePostgres(target.url, migrations);
}
