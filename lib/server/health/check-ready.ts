import { getDb, databaseProvider } from "../repositories/database";
import { resolveDatabaseTarget } from "../db/database-url";
import { migrationsDir, readMigrations } from "../db/migrate";
import { backgroundWorkProblem, isDraining } from "../jobs/server-lifecycle";
import { appliedMigrationNames } from "../repositories/system/schema-migrations";
import { unitStateLag } from "../units/get-unit-state-snapshot";

// The migrations this build ships, read from disk once per process (a balancer asks every second).
let shipped: string[] | null = null;
const shippedMigrations = () => (shipped ??= readMigrations(migrationsDir(resolveDatabaseTarget().provider)).map((m) => m.name));

export interface Readiness {
  ready: boolean;
  database: string;
  checks: { database: string; migrations: string; backgroundWork: string; unitStates: string; shutdown: string };
  unitStateLag: number | null;
  checkedAt: string;
}

/**
 * GET /api/ready, for a load balancer's health check: this instance should get traffic — it is
 * not shutting down, its database answers, every migration it ships is applied, its background
 * workers run and its unit states are computed. /api/health is liveness only (the process answers).
 */
export async function checkReady(): Promise<Readiness> {
  const checks: Readiness["checks"] = { database: "ok", migrations: "ok", backgroundWork: "ok", unitStates: "ok", shutdown: "ok" };
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
  const background = backgroundWorkProblem();
  if (background) fail("backgroundWork", background);
  return { ready, database: databaseProvider(), checks, unitStateLag: lag, checkedAt: new Date().toISOString() };
}
