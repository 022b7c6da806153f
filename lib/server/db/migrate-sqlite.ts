import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { APPLIED_MIGRATIONS_SQL, checkNotEdited, MigrationError, type MigrateResult, type MigrationFile } from "./migration-files";

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

interface ForeignKeyViolation {
  table: string;
  rowid: number | bigint | null;
  parent: string;
  fkid: number;
}

/** Applies every pending migration to a SQLite file (created if missing). */
export function migrateSqlite(file: string, migrations: MigrationFile[]): MigrateResult {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 10000");
    db.exec(MIGRATIONS_TABLE);
    const rows = db.prepare(APPLIED_MIGRATIONS_SQL).all() as { migration_name: string; checksum: string }[];
    const applied = new Map(rows.map((r) => [r.migration_name, r.checksum]));
    checkNotEdited(applied, migrations);
    const result: MigrateResult = { applied: [], alreadyApplied: [...applied.keys()] };
    for (const m of migrations.filter((x) => !applied.has(x.name))) {
      if (applySqliteMigration(db, m)) result.applied.push(m.name);
    }
    return result;
  } finally {
    db.close();
  }
}

/**
 * One migration in one write transaction, the way SQLite's table rebuild needs it (sqlite.org/
 * lang_altertable.html, "otheralter"): foreign keys are turned OFF before the transaction — inside
 * one `PRAGMA foreign_keys=OFF` is silently ignored, so the `DROP TABLE "Pipeline"` of a Prisma
 * rebuild would run its children's ON DELETE actions and set every Task.pipelineId to NULL —;
 * `PRAGMA foreign_key_check` runs before the commit, and any row left pointing at nothing rolls the
 * whole migration back; foreign keys are ON again afterwards. Returns false when another process
 * recorded the migration while this one waited for the write lock.
 */
function applySqliteMigration(db: Database.Database, m: MigrationFile): boolean {
  db.pragma("foreign_keys = OFF");
  try {
    if (db.pragma("foreign_keys", { simple: true }) !== 0) throw new MigrationError(`migration ${m.name}: could not turn SQLite foreign keys off`);
    return db
      .transaction(() => {
        if (db.prepare(`SELECT 1 FROM "_prisma_migrations" WHERE migration_name = ? AND finished_at IS NOT NULL AND rolled_back_at IS NULL`).get(m.name))
          return false;
        const startedAt = new Date().toISOString();
        try {
          db.exec(m.sql);
        } catch (e) {
          throw new MigrationError(`migration ${m.name} failed: ${(e as Error).message}`);
        }
        const violations = db.pragma("foreign_key_check") as ForeignKeyViolation[];
        if (violations.length) throw new MigrationError(`migration ${m.name} refused, nothing applied: ${describeViolations(violations)}`);
        db.prepare(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, started_at, applied_steps_count) VALUES (?, ?, ?, ?, NULL, ?, 1)`,
        ).run(crypto.randomUUID(), m.checksum, new Date().toISOString(), m.name, startedAt);
        return true;
      })
      .immediate();
  } finally {
    db.pragma("foreign_keys = ON");
  }
}

function describeViolations(violations: ForeignKeyViolation[]): string {
  const byReference = new Map<string, (number | bigint | null)[]>();
  for (const v of violations) {
    const key = `${v.table} → ${v.parent}`;
    byReference.set(key, [...(byReference.get(key) ?? []), v.rowid]);
  }
  const parts = [...byReference]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([ref, rowids]) =>
        `${ref} (${rowids.length} row${rowids.length === 1 ? "" : "s"}, rowid ${rowids.slice(0, 5).join(", ")}${rowids.length > 5 ? ", …" : ""})`,
    );
  return `${violations.length} foreign key${violations.length === 1 ? "" : "s"} would point at no row: ${parts.join("; ")}`;
}
