import { getDb, databaseProvider } from "../db/client";
import { resolveDatabaseTarget } from "../db/database-url";
import { migrationsDir, readMigrations } from "../db/migrate";
import { backgroundWorkProblem, isDraining } from "../jobs/server-lifecycle";
import { unitStateLag } from "../units/get-unit-state-snapshot";

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
    const applied = new Set((await db.$queryRawUnsafe<{ migration_name: string }[]>(`SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`)).map((r) => r.migration_name));
    const missing = readMigrations(migrationsDir(resolveDatabaseTarget().provider)).filter((m) => !applied.has(m.name)).map((m) => m.name);
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
