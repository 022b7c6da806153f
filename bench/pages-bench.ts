/**
 * Every read API the pages call, on a big world, served by the built console (issue "one
 * unit-state service"): per route, the median and p95 of warm requests; how long a new publish
 * takes to show on the overview and the matrix; the first start on a ledger with nothing kept
 * (every page answers, and when the full state is ready); reads while 8 writers ingest batches of
 * 50; the server's peak RSS. The world is bench/matrix-world.ts: --size 1m is 10 pipelines × 30
 * datasets × 3,650 days (1,095,000 units), --size 10m 100 × 30 × 3,650 (10,950,000).
 *
 *   npx next build
 *   npx tsx bench/pages-bench.ts [--size 1m|10m] [--json] [--fresh] [--port 3498] [--db /tmp/…] [--profile] [--identity]
 *                                [--baseline DIR] [--runs N] [--restarts N] [--kept]
 *
 * --baseline DIR: the same measures with DIR's build (another checkout of the console, built:
 * `npx next build` there) on a fresh copy of the same world, side by side in one run; with
 * --runs N, N rounds, the two builds taking turns to go first. The JSON is this build's last
 * round with `baseline` (DIR's) beside it, and `rounds` (every round of both).
 *
 * After the first start's warm reads the bench waits until the server has kept its states, stops
 * it and starts the same build again on them (--restarts N: N times): spawn → the first complete
 * matrix, the server's CPU until then, and the RSS once every page was read; the publish and the
 * writers then go to the last restarted server. --kept: only restarts (with --baseline, of both
 * builds, taking turns), on the run copy the last run left with its states kept.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb } from "../lib/server/db/client";
import { forgetUnitStateSnapshot, readUnitStateSnapshot } from "../lib/server/repositories/units/unit-state-snapshots";
import { lastUnitChange } from "../lib/server/repositories/units/unit-changes";
import { migrate } from "../lib/server/db/migrate";
import { buildMatrixWorld, LAST_DAY_MS } from "./matrix-world";
import { serverPids } from "./server-processes";
import { createToken } from "../lib/server/access/manage-access";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1]! : fallback);
const SIZES = { "1m": { pipelines: 10, chain: 30, days: 3650 }, "10m": { pipelines: 100, chain: 30, days: 3650 } } as const;
const SIZE_NAME = flag("size", "1m") as keyof typeof SIZES;
const SIZE = SIZES[SIZE_NAME];
const PORT = Number(flag("port", "3498"));
const FILE = flag("db", `/tmp/reparo-pages-bench-${SIZE_NAME}.db`);
const BASE = `http://127.0.0.1:${PORT}`;
const pristine = { provider: "sqlite" as const, file: FILE, url: `file:${FILE}` };
// Every run works on a fresh copy of the generated world: the writes of one run (the duplicate it
// publishes, the load's 20,000 publishes) never change what the next one measures.
const RUN_FILE = `${FILE}.run.db`;
const target = { provider: "sqlite" as const, file: RUN_FILE, url: `file:${RUN_FILE}` };
const ms = (t: number) => Math.round(t);
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
let ingestToken = "";
const writeHeaders = () => ({ "content-type": "application/json", authorization: `Bearer ${ingestToken}` });

async function ensureWorld(root: string): Promise<number | null> {
  const generated = await generateWorld();
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(RUN_FILE + suffix, { force: true });
  for (const suffix of ["", "-wal"]) if (fs.existsSync(FILE + suffix)) fs.copyFileSync(FILE + suffix, RUN_FILE + suffix);
  // Each build's copy gets that build's own migrations here, before its server starts: a build
  // that adds an index is measured with it, and building it over the world's million rows (a
  // one-time cost of the upgrade, printed) is not taken for its first start.
  const migrating = performance.now();
  const applied = (await migrate(target, root)).applied;
  if (applied.length > 0) progress("migrated the run copy", { build: root, applied, ms: ms(performance.now() - migrating) });
  const db = createDb(target);
  // The console serves in production mode: the writers send a machine token, as producers do.
  const name = `bench-${Date.now()}`;
  ingestToken = (await createToken(db, { name, scope: "ingest" }, { actor: "cli:bench", actorRole: "admin", reason: "pages bench writers" })).secret;
  await db.$disconnect();
  return generated;
}

/**
 * The generated world, migrated with the baseline's migrations when there is one (the older
 * schema: a copy for this build then gets this build's newer ones, ensureWorld), else this build's.
 */
async function generateWorld(): Promise<number | null> {
  const root = flag("baseline", "") ? path.resolve(flag("baseline", "")) : ROOT;
  if (fs.existsSync(FILE) && !args.includes("--fresh")) return migrate(pristine, root).then(() => null);
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(FILE + suffix, { force: true });
  await migrate(pristine, root);
  const db = createDb(pristine);
  const start = performance.now();
  await buildMatrixWorld(db, SIZE);
  await db.$disconnect();
  return ms(performance.now() - start);
}

async function forgetKeptState(): Promise<void> {
  const db = createDb(target);
  await forgetUnitStateSnapshot(db);
  await db.$disconnect();
}

const SERVER_LOG = `${FILE}.server.log`;

const ROOT = process.cwd();

function startServer(root: string): ChildProcess {
  const log = fs.openSync(SERVER_LOG, "a");
  fs.writeSync(log, `\n[pages-bench] server of ${root}\n`);
  // --profile: a V8 CPU profile of the server, written when it stops, beside the world.
  const profile = args.includes("--profile") ? ["--cpu-prof", `--cpu-prof-dir=${FILE}.profiles`] : [];
  return spawn(process.execPath, [...profile, "node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(PORT)], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: target.url, NEXT_TELEMETRY_DISABLED: "1" },
    detached: true,
    stdio: ["ignore", log, log],
  });
}

const progress = (what: string, value: unknown) => console.error(`[pages-bench] ${what}: ${JSON.stringify(value)}`);

function stop(server: ChildProcess): void {
  if (server.pid) {
    try {
      process.kill(-server.pid);
    } catch {
      /* already gone */
    }
  }
}

/** RSS (MB) of the server's processes (npx, next, next-server): their process group. */
function rssMb(server: ChildProcess): number {
  try {
    const out = execFileSync("ps", ["-o", "rss=", "-g", String(server.pid)], { encoding: "utf8" });
    return Math.round(
      out
        .split("\n")
        .filter(Boolean)
        .map(Number)
        .reduce((a, b) => Math.max(a, b), 0) / 1024,
    );
  } catch {
    return 0;
  }
}

/**
 * CPU time (ms, user + system, every thread) of the server's processes so far: on a loaded
 * machine the wall clock of a first start moves with the other work; its CPU time much less.
 */
function cpuMs(server: ChildProcess): number {
  try {
    const pids = serverPids(server);
    const ticks = pids.reduce((sum, pid) => {
      try {
        // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
        const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        return sum + Number(fields[11]) + Number(fields[12]);
      } catch {
        return sum;
      }
    }, 0);
    return Math.round((ticks * 1000) / CLOCK_TICKS);
  } catch {
    return 0;
  }
}

const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

async function waitForHealth(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`${BASE}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await sleep(200);
  }
  throw new Error("the console did not start");
}

// --identity: GETs ask for uncompressed answers (a browser always accepts gzip; this separates
// the server's compression from the rest of a read's time).
const READ_HEADERS: Record<string, string> = args.includes("--identity") ? { "accept-encoding": "identity" } : {};

async function get(path: string): Promise<{ ms: number; status: number; text: string }> {
  const start = performance.now();
  const res = await fetch(`${BASE}${path}`, { headers: READ_HEADERS }).catch(async (e: unknown) => {
    // A kept-alive connection the server closed while its event loop was held (its keep-alive
    // timer fires late, as the request arrives): a browser sends such a GET again, and so does this.
    if ((e as { cause?: { code?: string } }).cause?.code !== "ECONNRESET") throw e;
    progress("connection reset, GET sent again", { path });
    return fetch(`${BASE}${path}`, { headers: READ_HEADERS });
  });
  const text = await res.text();
  return { ms: performance.now() - start, status: res.status, text };
}

const q = (p: Record<string, string>) => new URLSearchParams(p).toString();
const ROUTES: [string, string][] = [
  ["overview", "/api/v1/overview"],
  ["alerts", "/api/v1/alerts"],
  ["units/matrix", "/api/v1/units/matrix"],
  ["lineage-graph", "/api/v1/lineage-graph"],
  ["closure", `/api/v1/closure?${q({ nodeId: "job:bench00:step_00", units: "2026-08-17" })}`],
  ["completeness", `/api/v1/completeness?${q({ dataset: "dataset:bench00:step_29", from: "2026-08-01", to: "2026-08-31" })}`],
  ["history", "/api/v1/history"],
  ["incidents", "/api/v1/incidents"],
];

function stats(samples: number[]): { median: number; p95: number } {
  const s = [...samples].sort((a, b) => a - b);
  return { median: ms(s[Math.floor(s.length / 2)]!), p95: ms(s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]!) };
}

async function warmRoutes(): Promise<Record<string, { median: number; p95: number; status: number }>> {
  const out: Record<string, { median: number; p95: number; status: number }> = {};
  for (const [name, path] of ROUTES) {
    await get(path);
    const samples: number[] = [];
    let status = 0;
    for (let i = 0; i < 7; i++) {
      const r = await get(path);
      samples.push(r.ms);
      status = r.status;
    }
    out[name] = { ...stats(samples), status };
  }
  return out;
}

/** Every page's APIs answered after a start with nothing kept: time to the last answer, and to a full state. */
async function firstStart(
  root: string,
): Promise<{ server: ChildProcess; everyRouteMs: number; slowestRoute: string; fullStateMs: number; fullStateCpuMs: number; computingNotice: boolean }> {
  await forgetKeptState();
  const spawned = performance.now();
  const server = startServer(root);
  await waitForHealth();
  const ready = performance.now();
  let slowest = ["", 0] as [string, number];
  let notice = false;
  for (const [name, path] of ROUTES) {
    const r = await get(path);
    if (r.ms > slowest[1]) slowest = [name, r.ms];
    if (r.text.includes('"computing":{')) notice = true;
  }
  const everyRouteMs = ms(performance.now() - ready);
  // The full state: the matrix no longer says it is computing.
  for (;;) {
    const r = await get("/api/v1/units/matrix");
    if (r.status === 200 && !r.text.includes('"computing":{')) break;
    await sleep(250);
  }
  const fullStateMs = ms(performance.now() - spawned);
  return { server, everyRouteMs, slowestRoute: `${slowest[0]} ${ms(slowest[1])} ms`, fullStateMs, fullStateCpuMs: cpuMs(server), computingNotice: notice };
}

/** POST one publish, then how long until the overview and the matrix show it. */
async function publishVisibleMs(): Promise<{ overviewMs: number; matrixMs: number }> {
  const key = new Date(LAST_DAY_MS - 86_400_000 * 40).toISOString().slice(0, 10);
  const overviewDuplicates = async () => {
    const r = await get("/api/v1/overview");
    if (r.status !== 200) throw new Error(`the overview answered ${r.status}: ${r.text.slice(0, 200)}`);
    return (JSON.parse(r.text) as { counts: { duplicateUnits: number } }).counts.duplicateUnits;
  };
  const before = { counts: { duplicateUnits: await overviewDuplicates() } };
  const body = [0, 1].map((i) => ({
    dataset: { nodeId: "dataset:bench00:step_01" },
    unitKey: key,
    run: { externalId: `bench-dup-${Date.now()}-${i}`, job: { nodeId: "job:bench00:step_01" } },
    publishedAt: new Date(Date.now() - 60_000 + i).toISOString(),
    rowCount: 1000,
  }));
  const posted = performance.now();
  const res = await fetch(`${BASE}/api/v1/publishes`, { method: "POST", headers: writeHeaders(), body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`publish answered ${res.status}: ${await res.text()}`);
  const returned = performance.now();
  let overviewMs = -1;
  let matrixMs = -1;
  while (overviewMs < 0 || matrixMs < 0) {
    if (overviewMs < 0) {
      if ((await overviewDuplicates()) > before.counts.duplicateUnits) overviewMs = ms(performance.now() - returned);
    }
    if (matrixMs < 0) {
      const m = JSON.parse((await get(`/api/v1/units/matrix?${q({ dataset: "dataset:bench00:step_01", from: key, to: key })}`)).text) as {
        counts: { duplicate: number };
      };
      if (m.counts.duplicate > 0) matrixMs = ms(performance.now() - returned);
    }
    if (performance.now() - posted > 120_000) break;
  }
  return { overviewMs, matrixMs };
}

/** 8 writers POST batches of 50 publishes for 45 s; meanwhile the overview and the matrix are read. */
async function underWriteLoad(
  server: ChildProcess,
): Promise<{ overview: { median: number; p95: number }; matrix: { median: number; p95: number }; written: number; failed: number; peakRssMb: number }> {
  const until = performance.now() + 45_000;
  let written = 0;
  let failed = 0;
  const why = new Map<string, number>();
  let peak = 0;
  const writer = async (w: number) => {
    let n = 0;
    while (performance.now() < until) {
      const body = Array.from({ length: 50 }, (_, i) => ({
        dataset: { nodeId: `dataset:bench0${w % 10}:step_${String(2 + (n % 20)).padStart(2, "0")}` },
        unitKey: new Date(LAST_DAY_MS - 86_400_000 * ((n * 50 + i) % 3000)).toISOString().slice(0, 10),
        run: { externalId: `load-${w}-${n}-${i}`, job: { nodeId: `job:bench0${w % 10}:step_${String(2 + (n % 20)).padStart(2, "0")}` } },
        publishedAt: new Date(Date.now() - 1000).toISOString(),
        rowCount: 990,
      }));
      try {
        const res = await fetch(`${BASE}/api/v1/publishes`, { method: "POST", headers: writeHeaders(), body: JSON.stringify(body) });
        if (res.ok) written += 50;
        else {
          failed++;
          why.set(`${res.status}`, (why.get(`${res.status}`) ?? 0) + 1);
          if (why.size <= 3) progress("write refused", { status: res.status, body: (await res.text()).slice(0, 300) });
        }
        await res.arrayBuffer().catch(() => undefined);
      } catch (e) {
        failed++;
        const reason = (e as Error).cause ? String((e as { cause: unknown }).cause) : (e as Error).message;
        why.set(reason, (why.get(reason) ?? 0) + 1);
        await sleep(200);
      }
      n++;
    }
  };
  const reads = { overview: [] as number[], matrix: [] as number[] };
  const reader = async () => {
    while (performance.now() < until) {
      try {
        reads.overview.push((await get("/api/v1/overview")).ms);
        reads.matrix.push((await get("/api/v1/units/matrix")).ms);
      } catch {
        await sleep(200);
      }
      peak = Math.max(peak, rssMb(server));
    }
  };
  await Promise.all([...Array.from({ length: 8 }, (_, w) => writer(w)), reader()]);
  if (why.size > 0) progress("writes failed", Object.fromEntries(why));
  return {
    overview: stats(reads.overview.length ? reads.overview : [NaN]),
    matrix: stats(reads.matrix.length ? reads.matrix : [NaN]),
    written,
    failed,
    peakRssMb: peak,
  };
}

/** One build's measures on a fresh copy of the world. */
async function measure(root: string, generateMs: number | null): Promise<Record<string, unknown>> {
  const loadBefore = os.loadavg()[0]!;
  const first = await firstStart(root);
  progress("first start", {
    root,
    everyRouteMs: first.everyRouteMs,
    slowest: first.slowestRoute,
    fullStateMs: first.fullStateMs,
    fullStateCpuMs: first.fullStateCpuMs,
    computingNotice: first.computingNotice,
  });
  let server = first.server;
  try {
    const routes = await warmRoutes();
    progress("warm routes", routes);
    const restingRssMb = rssMb(server);
    const restarts: Restart[] = [];
    for (let i = 0; i < RESTARTS; i++) {
      await keptStates();
      await stopAndWait(server);
      const r = await restart(root);
      server = r.server;
      restarts.push(r.figures);
      progress("restart", r.figures);
    }
    const visible = await publishVisibleMs();
    progress("publish visible", visible);
    const load = await underWriteLoad(server);
    progress("under load", load);
    return {
      build: root,
      size: SIZE_NAME,
      cells: SIZE.pipelines * SIZE.chain * SIZE.days,
      datasets: SIZE.pipelines * SIZE.chain,
      generateMs,
      firstStartEveryRouteMs: first.everyRouteMs,
      firstStartSlowest: first.slowestRoute,
      firstStartComputingNotice: first.computingNotice,
      firstStartFullStateMs: first.fullStateMs,
      firstStartFullStateCpuMs: first.fullStateCpuMs,
      routes,
      publishVisibleOverviewMs: visible.overviewMs,
      publishVisibleMatrixMs: visible.matrixMs,
      underLoad: { overview: load.overview, matrix: load.matrix, publishesWritten: load.written, requestsFailed: load.failed },
      restingRssMb,
      restarts,
      peakRssMb: Math.max(restingRssMb, load.peakRssMb),
      loadAverage: { before: loadBefore, after: os.loadavg()[0]! },
    };
  } finally {
    stop(server);
  }
}

const RESTARTS = Math.max(0, Number(flag("restarts", "1")) || 0);

interface Restart {
  firstMatrixMs: number;
  firstMatrixCpuMs: number;
  restingRssMb: number;
  loadAverage: number;
}

/** Waits until the server has kept its states in the database (its `unit-states` job, every 30 s). */
async function keptStates(): Promise<void> {
  const db = createDb(target);
  try {
    for (let waited = 0; !(await readUnitStateSnapshot(db)); waited += 1000) {
      if (waited > 600_000) throw new Error("the server kept no states in 10 min");
      await sleep(1000);
    }
  } finally {
    await db.$disconnect();
  }
}

/** Whether the kept states include every change logged (their header's watermark). */
async function keptCurrent(): Promise<boolean> {
  const db = createDb(target);
  try {
    const row = await readUnitStateSnapshot(db);
    return row !== null && (JSON.parse(row.body) as { seq: number }).seq >= (await lastUnitChange(db));
  } finally {
    await db.$disconnect();
  }
}

async function stopAndWait(server: ChildProcess): Promise<void> {
  const exited = server.exitCode !== null ? Promise.resolve() : new Promise<void>((r) => server.once("exit", () => r()));
  stop(server);
  await Promise.race([exited, sleep(30_000)]);
  // The whole group (next start's server child too) gone before the port is asked for again.
  const alive = () => {
    try {
      return serverPids(server).length > 0;
    } catch {
      return false; // ps finds no process in the group
    }
  };
  for (let i = 0; i < 100 && alive(); i++) await sleep(100);
}

/** A restart on the kept states: spawn → the first complete matrix, and the RSS once every page was read. */
async function restart(root: string): Promise<{ server: ChildProcess; figures: Restart }> {
  const loadAverage = os.loadavg()[0]!;
  const spawned = performance.now();
  const server = startServer(root);
  for (;;) {
    const r = await get("/api/v1/units/matrix").catch(() => null);
    if (r?.status === 200 && !r.text.includes('"computing":{')) break;
    await sleep(100);
  }
  const firstMatrixMs = ms(performance.now() - spawned);
  const firstMatrixCpuMs = cpuMs(server);
  await warmRoutes();
  return { server, figures: { firstMatrixMs, firstMatrixCpuMs, restingRssMb: rssMb(server), loadAverage } };
}

function print(result: Record<string, unknown>): void {
  const load = result.loadAverage as { before: number; after: number };
  console.log(`build ${result.build as string} (load average ${load.before.toFixed(1)} → ${load.after.toFixed(1)})`);
  console.log(
    `first start, nothing kept: every route answered ${result.firstStartEveryRouteMs as number} ms after health (slowest: ${result.firstStartSlowest as string}); full state ${result.firstStartFullStateMs as number} ms after spawn (server CPU ${result.firstStartFullStateCpuMs as number} ms)`,
  );
  for (const [name, r] of Object.entries(result.routes as Record<string, { median: number; p95: number; status: number }>))
    console.log(`  ${name.padEnd(14)} median ${String(r.median).padStart(6)} ms  p95 ${String(r.p95).padStart(6)} ms  (${r.status})`);
  console.log(
    `a new publish visible: overview ${result.publishVisibleOverviewMs as number} ms, matrix ${result.publishVisibleMatrixMs as number} ms after its POST returned`,
  );
  const under = result.underLoad as { overview: { median: number; p95: number }; matrix: { median: number; p95: number }; publishesWritten: number };
  console.log(
    `8 writers × batches of 50 for 45 s (${under.publishesWritten} publishes): overview p50 ${under.overview.median} ms / p95 ${under.overview.p95}; matrix p50 ${under.matrix.median} ms / p95 ${under.matrix.p95}`,
  );
  for (const r of result.restarts as Restart[])
    console.log(
      `restart on the kept states (load average ${r.loadAverage.toFixed(1)}): first matrix ${r.firstMatrixMs} ms after spawn (server CPU ${r.firstMatrixCpuMs} ms); RSS once every page was read ${r.restingRssMb} MB`,
    );
  console.log(`server RSS: resting ${result.restingRssMb as number} MB, peak ${result.peakRssMb as number} MB`);
}

async function main(): Promise<void> {
  const baselineDir = flag("baseline", "");
  const runs = Math.max(1, Number(flag("runs", "1")) || 1);
  const roots = baselineDir ? [path.resolve(baselineDir), ROOT] : [ROOT];
  if (args.includes("--kept")) return restartsOnly(roots, runs);
  let generateMs: number | null = null;
  const rounds: Record<string, unknown>[] = [];
  for (let run = 0; run < runs; run++) {
    // The builds take turns to go first: the machine's load drifts within a round.
    for (const root of run % 2 === 0 ? roots : [...roots].reverse()) {
      const generated = await ensureWorld(root);
      generateMs ??= generated;
      progress("world", { generateMs: generated, build: root });
      rounds.push({ round: run + 1, ...(await measure(root, generateMs)) });
    }
  }
  console.log(
    `world: ${SIZE_NAME}, ${(SIZE.pipelines * SIZE.chain * SIZE.days).toLocaleString("en")} cells (${SIZE.pipelines * SIZE.chain} datasets × ${SIZE.days} days)${generateMs ? `, generated in ${generateMs} ms` : ""}`,
  );
  for (const r of rounds) print(r);
  if (baselineDir) printSideBySide(rounds, roots[0]!);
  const current = rounds.filter((r) => r.build === ROOT).at(-1)!;
  const baseline = rounds.filter((r) => r.build !== ROOT).at(-1);
  if (args.includes("--json")) console.log(JSON.stringify(baseline ? { ...current, baseline, rounds } : current));
}

/**
 * --kept: only restarts, on the run copy a previous run left (its states kept): each round
 * restarts every build --restarts times, the builds taking turns to go first.
 */
async function restartsOnly(roots: string[], runs: number): Promise<void> {
  await keptStates();
  // The last run's writers may have left changes the kept states do not include: a restart would
  // apply them (seconds, and memory) before it rests. This build's server keeps them first.
  if (!(await keptCurrent())) {
    const r = await restart(ROOT);
    for (let waited = 0; !(await keptCurrent()); waited += 1000) {
      if (waited > 600_000) throw new Error("the server did not keep its states in 10 min");
      await sleep(1000);
    }
    await stopAndWait(r.server);
    progress("kept states brought up to date", { build: ROOT });
  }
  const rounds: Record<string, unknown>[] = [];
  for (let run = 0; run < runs; run++) {
    for (const root of run % 2 === 0 ? roots : [...roots].reverse()) {
      const restarts: Restart[] = [];
      for (let i = 0; i < Math.max(1, RESTARTS); i++) {
        const r = await restart(root);
        await stopAndWait(r.server);
        restarts.push(r.figures);
        progress("restart", { build: root, ...r.figures });
      }
      rounds.push({ round: run + 1, build: root, size: SIZE_NAME, restarts });
    }
  }
  console.log(`world: ${SIZE_NAME}, restarts on the kept states of ${RUN_FILE}`);
  for (const r of rounds)
    for (const x of r.restarts as Restart[])
      console.log(
        `build ${r.build as string}, round ${r.round as number} (load average ${x.loadAverage.toFixed(1)}): first matrix ${x.firstMatrixMs} ms after spawn (server CPU ${x.firstMatrixCpuMs} ms); RSS once every page was read ${x.restingRssMb} MB`,
      );
  const current = rounds.filter((r) => r.build === ROOT).at(-1)!;
  const baseline = rounds.filter((r) => r.build !== ROOT).at(-1);
  if (args.includes("--json")) console.log(JSON.stringify(baseline ? { ...current, baseline, rounds } : current));
}

/** The figures the bars are on, each round's baseline and this build beside each other. */
function printSideBySide(rounds: Record<string, unknown>[], baselineRoot: string): void {
  const rows: [string, (r: Record<string, unknown>) => number][] = [
    ["first start: full state (ms)", (r) => r.firstStartFullStateMs as number],
    ["… server CPU until then (ms)", (r) => r.firstStartFullStateCpuMs as number],
    ["8 writers: overview p50 (ms)", (r) => (r.underLoad as { overview: { median: number } }).overview.median],
    ["8 writers: matrix p50 (ms)", (r) => (r.underLoad as { matrix: { median: number } }).matrix.median],
    ["8 writers: publishes written", (r) => (r.underLoad as { publishesWritten: number }).publishesWritten],
    ["restart: first matrix (ms)", (r) => (r.restarts as Restart[]).at(-1)?.firstMatrixMs ?? NaN],
    ["… server CPU until then (ms)", (r) => (r.restarts as Restart[]).at(-1)?.firstMatrixCpuMs ?? NaN],
    ["restart: RSS resting (MB)", (r) => (r.restarts as Restart[]).at(-1)?.restingRssMb ?? NaN],
    ["server RSS resting (MB)", (r) => r.restingRssMb as number],
    ["server RSS peak (MB)", (r) => r.peakRssMb as number],
  ];
  console.log(`\nside by side: baseline ${baselineRoot} | this build ${ROOT}`);
  for (const [label, of] of rows) {
    const side = (base: boolean) =>
      rounds
        .filter((r) => (r.build !== ROOT) === base)
        .map(of)
        .join(", ");
    console.log(`  ${label.padEnd(30)} ${side(true).padStart(24)} | ${side(false)}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
