/**
 * Where a deferred fold step's time goes (issue 35), in process on PostgreSQL, without consoles:
 * the events `bench:instances` sends (one COMPLETE per run, with input, output and row count; 50
 * tasks) — or, with --shape start-complete, a START and a COMPLETE per run in different requests —
 * are accepted as a console accepts them (deferred, batches of 100), then folded step after step
 * as a console's fold thread does. Every statement's round trip is timed at the PostgreSQL driver,
 * grouped by what it does; the rest of a step is the console's own work (JSON, folding, building
 * rows). Database creation and acceptance are not timed.
 *
 *   REPARO_TEST_PG_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/fold-bench.ts \
 *     [--events 30000] [--step 2000] [--shape complete|start-complete] [--states] [--json]
 *
 * --states: the unit states computed before the fold, and brought up to date after each step as a
 * console does when it next reads them (every console of a deployment does it): its CPU apart.
 *
 * Prints its figures, and with --json one JSON object as the last line.
 */
import fs from "node:fs";
import os from "node:os";
import pg from "pg";
import { createTestDatabase } from "../lib/server/testing/test-database";
import { parseLineageBody } from "../lib/server/ingestion/parse-lineage-body";
import { ingestOpenLineageEvents } from "../lib/server/ingestion/ingest-openlineage-events";
import { foldPendingEvents } from "../lib/server/ingestion/ingest-openlineage-events";
import { getUnitStateSnapshot } from "../lib/server/units/state-service";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const EVENTS = Number(flag("events", "30000"));
const STEP = Number(flag("step", "2000"));
const SHAPE = flag("shape", "complete");
const STATES = args.includes("--states");
const REQUEST = 100;
const ns = "postgres://bench:5432";

function event(n: number, type: "START" | "COMPLETE"): string {
  const task = n % 50;
  const day = Math.floor(n / 50);
  const nominal = new Date(Date.UTC(2025, 0, 1) + day * 86_400_000).toISOString();
  const at = Date.UTC(2025, 0, 2) + day * 86_400_000 + task * 60_000 + (type === "COMPLETE" ? 30_000 : 0);
  return JSON.stringify({
    eventType: type,
    eventTime: new Date(at).toISOString(),
    producer: "bench-fold",
    run: { runId: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`, facets: { nominalTime: { nominalStartTime: nominal } } },
    job: { namespace: "bench_airflow", name: `daily.task_${task}` },
    inputs: [{ namespace: ns, name: `public.t_${task}` }],
    outputs: type === "COMPLETE" ? [{ namespace: ns, name: `public.t_${task + 1}`, outputFacets: { outputStatistics: { rowCount: 1000 + task } } }] : [],
  });
}

/** Requests of 100 events; start-complete: a run's START in one request, its COMPLETE in the next. */
function requests(): string[] {
  const lines: string[] = [];
  if (SHAPE === "start-complete") {
    const runs = EVENTS / 2;
    for (let b = 0; b < runs; b += REQUEST / 2) {
      for (let n = b; n < Math.min(runs, b + REQUEST / 2); n++) lines.push(event(n, "START"));
      for (let n = b - REQUEST / 2; n >= 0 && n < b; n++) lines.push(event(n, "COMPLETE"));
    }
    for (let n = Math.max(0, runs - REQUEST / 2); n < runs; n++) lines.push(event(n, "COMPLETE"));
  } else for (let n = 0; n < EVENTS; n++) lines.push(event(n, "COMPLETE"));
  const out: string[] = [];
  for (let i = 0; i < lines.length; i += REQUEST) out.push(lines.slice(i, i + REQUEST).join("\n"));
  return out;
}

/** Each statement's round trip at the driver, grouped by its first words and table. */
const foldStatements = new Map<string, { calls: number; ms: number }>();
/** The unit states' update's statements (--states), apart from the fold's. */
const stateStatements = new Map<string, { calls: number; ms: number }>();
let statements = foldStatements;
let timing = false;
function timeStatements(): void {
  const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...a: unknown[]) {
    if (!timing) return query.apply(this, a);
    const config = a[0] as string | { text?: string };
    const text = typeof config === "string" ? config : (config.text ?? "");
    const key = text.replace(/\s+/g, " ").replace(/\$\d+/g, "?").slice(0, 90);
    const started = performance.now();
    const into = statements;
    const done = () => {
      const s = into.get(key) ?? { calls: 0, ms: 0 };
      s.calls += 1;
      s.ms += performance.now() - started;
      into.set(key, s);
    };
    // pg's pool passes a callback (a statement sent on the pool directly); Prisma's adapter awaits a promise.
    const last = a.at(-1);
    if (typeof last === "function")
      a[a.length - 1] = (...r: unknown[]) => {
        done();
        return (last as (...x: unknown[]) => unknown)(...r);
      };
    const result = query.apply(this, a);
    if (result instanceof Promise) result.then(done, done);
    return result;
  } as typeof pg.Client.prototype.query;
}

/** CPU seconds the PostgreSQL backends serving this database have used (Linux /proc; 0 elsewhere). */
async function backendCpuSeconds(db: import("../lib/server/db/client").Db, database: string): Promise<number> {
  const rows = await db.$queryRawUnsafe<{ pid: number }[]>(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, database);
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone, or not on this machine
    }
  }
  return ticks / 100;
}

async function main(): Promise<void> {
  timeStatements();
  const t = await createTestDatabase("postgresql");
  try {
    const now = new Date("2026-12-01T00:00:00Z");
    const database = (t.target as { database?: string }).database ?? "";
    const bodies = requests();
    // Acceptance (parsing a request's body, storing its events for the fold) is measured too: a
    // console does both on the same cores, so what folding can reach depends on what accepting costs.
    const acceptPgBefore = await backendCpuSeconds(t.db, database);
    const acceptCpuBefore = process.cpuUsage();
    let accepted = 0;
    for (const body of bodies) {
      const parsed = parseLineageBody(body, now);
      const out = await ingestOpenLineageEvents(t.db, parsed.events, now, undefined, "deferred");
      accepted += out.written.events;
    }
    const acceptCpu = process.cpuUsage(acceptCpuBefore);
    const acceptPgCpuSeconds = (await backendCpuSeconds(t.db, database)) - acceptPgBefore;
    if (STATES) await getUnitStateSnapshot(t.db, now);
    let statesCpuUs = 0;
    let statesPgSeconds = 0;
    let statesUnits = 0;
    timing = true;
    if (process.env.FOLD_BENCH_MARK) console.log(`mark ${process.hrtime.bigint() / 1000n}`);
    const steps: { events: number; ms: number }[] = [];
    const pgCpuBefore = await backendCpuSeconds(t.db, database);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (;;) {
      const s = performance.now();
      const step = await foldPendingEvents(t.db, STEP);
      if (step.events === 0) break;
      steps.push({ events: step.events, ms: performance.now() - s });
      if (STATES) {
        // Not the fold's: taken out of its figures below.
        statements = stateStatements;
        const pgBefore = await backendCpuSeconds(t.db, database);
        const before = process.cpuUsage();
        const snapshot = await getUnitStateSnapshot(t.db, now);
        const used = process.cpuUsage(before);
        statesCpuUs += used.user + used.system;
        statesPgSeconds += (await backendCpuSeconds(t.db, database)) - pgBefore;
        statesUnits = snapshot.datasets.reduce((n, d) => n + d.codes.length, 0);
        statements = foldStatements;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    timing = false;
    const cpu = process.cpuUsage(cpuBefore);
    const consoleCpuSeconds = (cpu.user + cpu.system - statesCpuUs) / 1e6;
    const pgCpuSeconds = (await backendCpuSeconds(t.db, database)) - pgCpuBefore - statesPgSeconds;
    const runs = await t.db.run.count();
    const sqlMs = [...foldStatements.values()].reduce((n, s) => n + s.ms, 0);
    const result = {
      bench: "fold",
      shape: SHAPE,
      accepted,
      runs,
      steps: steps.length,
      stepMs: Math.round((seconds * 1000) / steps.length),
      foldedEventsPerSec: Math.round(accepted / seconds),
      roundTripsPerStep: Math.round([...foldStatements.values()].reduce((n, s) => n + s.calls, 0) / steps.length),
      sqlShare: Number((sqlMs / (seconds * 1000)).toFixed(2)),
      consoleCpuMsPerStep: Math.round((consoleCpuSeconds * 1000) / steps.length),
      postgresCpuMsPerStep: Math.round((pgCpuSeconds * 1000) / steps.length),
      cpuBoundEventsPerSec: Math.round(accepted / (consoleCpuSeconds + pgCpuSeconds)),
      acceptConsoleCpuUsPerEvent: Math.round((acceptCpu.user + acceptCpu.system) / accepted),
      acceptPostgresCpuUsPerEvent: Math.round((acceptPgCpuSeconds * 1e6) / accepted),
      foldConsoleCpuUsPerEvent: Math.round((consoleCpuSeconds * 1e6) / accepted),
      foldPostgresCpuUsPerEvent: Math.round((pgCpuSeconds * 1e6) / accepted),
      ...(STATES
        ? {
            statesUnits,
            statesConsoleCpuUsPerEvent: Math.round(statesCpuUs / accepted),
            statesPostgresCpuUsPerEvent: Math.round((statesPgSeconds * 1e6) / accepted),
          }
        : {}),
    };
    console.log(`fold bench (${SHAPE}): ${accepted} events accepted (deferred), folded in ${steps.length} steps of ≤ ${STEP}`);
    console.log(`  ${seconds.toFixed(2)} s = ${result.foldedEventsPerSec} events/s; ${result.stepMs} ms a step; ${runs} runs`);
    console.log(
      `  CPU per step: console ${result.consoleCpuMsPerStep} ms, PostgreSQL ${result.postgresCpuMsPerStep} ms (${result.cpuBoundEventsPerSec} events per CPU-second; load ${os.loadavg()[0]!.toFixed(1)})`,
    );
    console.log(
      `  CPU per event: accepting ${result.acceptConsoleCpuUsPerEvent} µs console + ${result.acceptPostgresCpuUsPerEvent} µs PostgreSQL (batches of ${REQUEST}, parsed and stored, not timed as a server); folding ${result.foldConsoleCpuUsPerEvent} + ${result.foldPostgresCpuUsPerEvent} µs`,
    );
    if (STATES)
      console.log(
        `  CPU per event: the unit states' update after each step (${statesUnits} units), ${result.statesConsoleCpuUsPerEvent} µs console + ${result.statesPostgresCpuUsPerEvent} µs PostgreSQL — per console that reads them`,
      );
    console.log(`  statements ${Math.round(sqlMs)} ms (${Math.round(result.sqlShare * 100)} %), the rest the console's own work; per step:`);
    const perStep = (m: Map<string, { calls: number; ms: number }>) => {
      for (const [key, s] of [...m].sort((a, b) => b[1].ms - a[1].ms).slice(0, args.includes("--all-statements") ? undefined : 25))
        console.log(`  ${(s.ms / steps.length).toFixed(0).padStart(6)} ms ${String(Math.round(s.calls / steps.length)).padStart(5)}×  ${key}`);
    };
    perStep(foldStatements);
    if (STATES) {
      console.log(`  the unit states' update, per step:`);
      perStep(stateStatements);
    }
    if (args.includes("--json")) console.log(JSON.stringify(result));
  } finally {
    await t.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
