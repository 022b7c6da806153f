import crypto from "node:crypto";
import pg from "pg";
import { DatabaseConfigError, redact } from "./database-url";
import { APPLIED_MIGRATIONS_SQL, checkNotEdited, MigrationError, type MigrateResult, type MigrationFile } from "./migration-files";

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

/** How long a migrating process waits for another one's lock before it gives up (REPARO_MIGRATION_LOCK_WAIT_SECONDS). */
export function migrationLockWaitMs(raw = process.env.REPARO_MIGRATION_LOCK_WAIT_SECONDS): number {
  if (raw === undefined || raw.trim() === "") return 120_000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new DatabaseConfigError(`REPARO_MIGRATION_LOCK_WAIT_SECONDS: "${raw}" is not a positive number of seconds`);
  return Math.round(seconds * 1000);
}

export interface PostgresMigrateOptions {
  /** Bounded wait for the migration lock; default migrationLockWaitMs(). */
  lockWaitMs?: number;
}

/** Applies every pending migration, each in one transaction, under Prisma Migrate's advisory lock. */
export async function migratePostgres(url: string, migrations: MigrationFile[], options: PostgresMigrateOptions = {}): Promise<MigrateResult> {
  const lockWaitMs = options.lockWaitMs ?? migrationLockWaitMs();
  const client = new pg.Client({ connectionString: url, application_name: "reparo migrate" });
  try {
    await client.connect();
  } catch (e) {
    throw new DatabaseConfigError(`DATABASE_URL: cannot connect to ${redact(url)}: ${(e as Error).message}`);
  }
  let locked = false;
  try {
    await takeMigrationLock(client, lockWaitMs);
    locked = true;
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
        throw new MigrationError(`migration ${m.name} failed: ${(e as Error).message}`);
      }
      result.applied.push(m.name);
    }
    return result;
  } finally {
    if (locked) await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`).catch(() => undefined);
    await client.end();
  }
}

/**
 * Waits at most `waitMs` for the migration lock (`lock_timeout` bounds pg_advisory_lock's wait in
 * the server's own queue). A process that never lets go — a migration stuck on a table lock, a
 * hung `prisma migrate` — would otherwise keep every starting console waiting forever; instead
 * the error names the session that holds it, so an operator can wait for it or end it.
 */
async function takeMigrationLock(client: pg.Client, waitMs: number): Promise<void> {
  await client.query(`SET lock_timeout = ${Math.max(1, Math.round(waitMs))}`);
  try {
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
  } catch (e) {
    if ((e as { code?: string }).code !== "55P03") throw e;
    throw new MigrationError(
      `waited ${formatSeconds(waitMs)} for the migration lock (PostgreSQL advisory lock ${MIGRATION_LOCK_KEY}, Prisma Migrate's): ${await describeHolder(client)}`,
    );
  } finally {
    await client.query("RESET lock_timeout");
  }
}

interface LockHolder {
  pid: number;
  application_name: string | null;
  usename: string | null;
  client_addr: string | null;
  backend_start: Date | null;
  state: string | null;
  state_change: Date | null;
  query: string | null;
}

async function describeHolder(client: pg.Client): Promise<string> {
  // pg_advisory_lock(bigint) keeps the key's high half in classid and its low half in objid.
  const { rows } = await client.query<LockHolder>(
    `SELECT l.pid, a.application_name, a.usename, host(a.client_addr) AS client_addr, a.backend_start, a.state, a.state_change, left(a.query, 200) AS query
       FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 0 AND l.objid = $1 AND l.objsubid = 1 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [MIGRATION_LOCK_KEY],
  );
  if (!rows.length) return "its holder let go just now; start again";
  return rows
    .map((h) => {
      const who = [
        h.application_name ? `application "${h.application_name}"` : "no application name",
        h.usename && `user ${h.usename}`,
        h.client_addr ? `from ${h.client_addr}` : "local socket",
      ]
        .filter(Boolean)
        .join(", ");
      const since = h.backend_start ? `, connected since ${h.backend_start.toISOString()}` : "";
      const doing = h.state ? `, ${h.state}${h.state_change ? ` since ${h.state_change.toISOString()}` : ""}` : "";
      const last = h.query ? `, last query: ${JSON.stringify(h.query.replace(/\s+/g, " ").trim())}` : "";
      return `held by PostgreSQL backend pid ${h.pid} (${who}${since}${doing}${last}) — let it finish, or end it with SELECT pg_terminate_backend(${h.pid})`;
    })
    .join("; ");
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
