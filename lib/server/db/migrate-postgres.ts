import crypto from "node:crypto";
import pg from "pg";
import { DatabaseConfigError, redact } from "./database-url";
import { APPLIED_MIGRATIONS_SQL, checkNotEdited, type MigrateResult, type MigrationFile } from "./migration-files";

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
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
export const MIGRATION_LOCK_KEY = 72707369;

/** Applies every pending migration, each in one transaction, under Prisma Migrate's advisory lock. */
export async function migratePostgres(url: string, migrations: MigrationFile[]): Promise<MigrateResult> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (e) {
    throw new DatabaseConfigError(`DATABASE_URL: cannot connect to ${redact(url)}: ${(e as Error).message}`);
  }
  try {
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    await client.query(MIGRATIONS_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string }>(APPLIED_MIGRATIONS_SQL);
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
    await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`).catch(() => undefined);
    await client.end();
  }
}
