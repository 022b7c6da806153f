import { getDb, databaseProvider, inTransaction, writeLockState, type Db } from "../repositories/database";
import { resolveDatabaseTarget } from "../db/database-url";
import { migrationsDir, readMigrations } from "../db/migrate";
import { backgroundWorkProblem, isDraining } from "../jobs/server-lifecycle";
import { appliedMigrationNames } from "../repositories/system/schema-migrations";
import { unitStateLag } from "../units/state-service";

// The migrations this build ships, read from disk once per process (a balancer asks every second).
let shipped: string[] | null = null;
const shippedMigrations = () => (shipped ??= readMigrations(migrationsDir(resolveDatabaseTarget().provider)).map((m) => m.name));

export interface Readiness {
  ready: boolean;
  database: string;
  checks: { database: string; writes: string; migrations: string; backgroundWork: string; unitStates: string; shutdown: string };
  unitStateLag: number | null;
  checkedAt: string;
}

/**
 * GET /api/ready, for a load balancer's health check: this instance should get traffic — it is
 * not shutting down, its database answers, every migration it ships is applied, its background
 * workers run and its unit states are computed. /api/health is liveness only (the process answers).
 */
export async function checkReady(): Promise<Readiness> {
  const checks: Readiness["checks"] = { database: "ok", writes: "ok", migrations: "ok", backgroundWork: "ok", unitStates: "ok", shutdown: "ok" };
  let ready = true;
  const fail = (k: keyof Readiness["checks"], why: string) => {
    checks[k] = why;
    ready = false;
  };
  if (isDraining()) fail("shutdown", "shutting down: draining");
  const db = getDb();
  let lag: number | null = null;
  try {
    const applied = await appliedMigrationNames(db);
    const missing = shippedMigrations().filter((name) => !applied.has(name));
    if (missing.length) fail("migrations", `not applied: ${missing.join(", ")}`);
    lag = await unitStateLag(db);
    if (lag === null) fail("unitStates", "not computed yet");
  } catch (e) {
    fail("database", `unreachable: ${(e as Error).message.split("\n")[0]}`);
  }
  const blocked = await writesBlocked(db);
  if (blocked) fail("writes", blocked);
  const background = backgroundWorkProblem();
  if (background) fail("backgroundWork", background);
  return { ready, database: databaseProvider(), checks, unitStateLag: lag, checkedAt: new Date().toISOString() };
}

/** A write has waited this long for SQLite's lock: the balancer should send traffic elsewhere. */
const WAITING_TOO_LONG_MS = 1_000;

/**
 * Writes cannot start (SQLite): a transaction of this process has waited over a second for a
 * lock another connection holds, or this check's own write cannot take the lock within a second.
 * The check writes nothing (BEGIN IMMEDIATE, then COMMIT): it sees an outside lock whoever holds
 * it and whichever of the console's connections meets it, and readiness comes back by itself
 * once the lock is released.
 */
async function writesBlocked(db: Db): Promise<string | null> {
  const lock = writeLockState(db);
  if (!lock) return null;
  if (lock.waitingSince !== null && Date.now() - lock.waitingSince > WAITING_TOO_LONG_MS)
    return `waiting: a write has waited ${Math.round((Date.now() - lock.waitingSince) / 1000)} s for the database's write lock`;
  const began = await inTransaction(db, async () => true, { maxWait: WAITING_TOO_LONG_MS, timeout: 2 * WAITING_TOO_LONG_MS }).catch(() => false);
  return began ? null : "refused: another connection holds the database's write lock (a write could not begin within 1 s)";
}
