/**
 * The unit matrix at 300 datasets × 3,650 days (issue 4's bar: matrix API response and first
 * paint ≤ 2 s). Generates that world once into its own SQLite database (bench/matrix-world.ts,
 * through the repositories), serves the built console on it, and times:
 *   - cold compute: every ledger row and attempt read and every state computed, in this process
 *     (what a server pays once at start, in the background, and on each new hour);
 *   - the matrix API: the first request after a restart (the server takes up the snapshot kept
 *     in the database), from spawning the server to the first answer, warm (records unchanged:
 *     the snapshot), after one new publish, and the first request after a start with no kept
 *     snapshot (the server computes it at start; the request waits for the rest);
 *   - first paint: navigation start → the "units:matrix-painted" performance mark, in a fresh
 *     Chromium: on the page's first visit since the server started, and on the next one;
 *   - scrolling: frame intervals while the grid scrolls across ten years.
 *
 *   npx next build   (with NEXT_DIST_DIR=… if you use your own build folder)
 *   npx tsx bench/matrix-bench.ts [--size 1m|10m] [--json] [--fresh] [--kept] [--port 3499] [--db /tmp/reparo-matrix-bench.db]
 *
 * --kept takes up the snapshot a previous run kept instead of the cold compute, and skips the
 * first start with nothing kept (at 10M cells those two take ~5 min each). The server's output is
 * appended to <db>.server.log; its peak RSS is printed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { chromium } from "@playwright/test";
import { createDb } from "../lib/server/db/client";
import { forgetUnitStateSnapshot } from "../lib/server/repositories/units/unit-state-snapshots";
import { migrate } from "../lib/server/db/migrate";
import { whenUnitStatesReady } from "../lib/server/units/state-service";
import { appendPublishes } from "../lib/server/repositories/ledger/ingested-runs";
import { buildMatrixWorld, LAST_DAY_MS } from "./matrix-world";
import { serverPids } from "./server-processes";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1]! : fallback);
// --size 10m: the 10× world (100 pipelines × 30 datasets × 3,650 days = 10,950,000 cells).
const SIZE = flag("size", "1m") === "10m" ? { pipelines: 100, chain: 30, days: 3650 } : { pipelines: 10, chain: 30, days: 3650 };
const PORT = Number(flag("port", "3499"));
// Issue 4's bars at a million cells; issue 12's at ten million (read APIs ≤ 1 s, first paint ≤ 3 s).
const BAR = flag("size", "1m") === "10m" ? { apiMs: 1000, paintMs: 3000 } : { apiMs: 2000, paintMs: 2000 };
const FILE = flag("db", "/tmp/reparo-matrix-bench.db");
const BASE = `http://127.0.0.1:${PORT}`;
/** The servers' stdout and stderr, appended run after run (a crash's last words are there). */
const SERVER_LOG = `${FILE}.server.log`;
const progress = (what: string, value: unknown) => console.error(`[matrix-bench] ${what}: ${JSON.stringify(value)}`);
const ms = (t: number) => Math.round(t);

async function ensureWorld(): Promise<number | null> {
  // A kept world is brought to the current schema, as the console would do at start.
  if (fs.existsSync(FILE) && !args.includes("--fresh")) return migrate({ provider: "sqlite", file: FILE, url: `file:${FILE}` }).then(() => null);
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(FILE + suffix, { force: true });
  const target = { provider: "sqlite" as const, file: FILE, url: `file:${FILE}` };
  await migrate(target);
  const db = createDb(target);
  const start = performance.now();
  await buildMatrixWorld(db, SIZE);
  await db.$disconnect();
  return ms(performance.now() - start);
}

async function coldCompute(): Promise<number> {
  const db = createDb({ provider: "sqlite", file: FILE, url: `file:${FILE}` });
  const start = performance.now();
  await whenUnitStatesReady(db, new Date());
  const took = performance.now() - start;
  await db.$disconnect();
  return ms(took);
}

function startServer(): ChildProcess {
  const log = fs.openSync(SERVER_LOG, "a");
  fs.writeSync(log, `\n--- matrix-bench: server started ${new Date().toISOString()} on ${FILE}\n`);
  return spawn("npx", ["next", "start", "-H", "127.0.0.1", "-p", String(PORT)], {
    env: { ...process.env, DATABASE_URL: `file:${FILE}`, NEXT_TELEMETRY_DISABLED: "1", REPARO_DEFAULT_USER: "demo-viewer" },
    detached: true,
    stdio: ["ignore", log, log],
  });
}

/**
 * The peak resident set (VmHWM, MB) of the server: the largest of its process group's processes
 * (npx, the next CLI and the server it runs), read from /proc, so it is the server's own peak
 * since it started, not a sample.
 */
function peakRssMb(server: ChildProcess): number {
  try {
    const pids = serverPids(server);
    let peak = 0;
    for (const pid of pids) {
      const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
      peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0));
    }
    return Math.round(peak / 1024);
  } catch {
    return 0;
  }
}

async function waitForHealth(): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (
      await fetch(`${BASE}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the console did not start");
}

/** The matrix API until it holds every dataset (a first start answers with those computed so far): time to that answer. */
async function timeApi(query = ""): Promise<{ ms: number; bytes: number; cells: number }> {
  const start = performance.now();
  for (;;) {
    const res = await fetch(`${BASE}/api/v1/units/matrix${query}`);
    const text = await res.text();
    if (!res.ok) throw new Error(`matrix API answered ${res.status}: ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as { counts: Record<string, number>; states: { computing: unknown } };
    if (!body.states.computing) return { ms: ms(performance.now() - start), bytes: text.length, cells: Object.values(body.counts).reduce((a, b) => a + b, 0) };
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function hasKeptSnapshot(): Promise<boolean> {
  const db = createDb({ provider: "sqlite", file: FILE, url: `file:${FILE}` });
  const n = await db.unitStateSnapshot.count();
  await db.$disconnect();
  return n > 0;
}

async function forgetKeptSnapshot(): Promise<void> {
  const db = createDb({ provider: "sqlite", file: FILE, url: `file:${FILE}` });
  await forgetUnitStateSnapshot(db);
  await db.$disconnect();
}

/** Spawns the console, waits for it, and times its first matrix answer. */
async function firstMatrixAfterStart(): Promise<{ server: ChildProcess; first: { ms: number; bytes: number; cells: number }; spawnToFirstMs: number }> {
  const spawned = performance.now();
  const server = startServer();
  await waitForHealth();
  const first = await timeApi();
  return { server, first, spawnToFirstMs: ms(performance.now() - spawned) };
}

function stop(server: ChildProcess): void {
  if (server.pid) process.kill(-server.pid);
}

async function addOnePublish(): Promise<void> {
  const db = createDb({ provider: "sqlite", file: FILE, url: `file:${FILE}` });
  const ds = await db.dataset.findFirstOrThrow({ orderBy: { nodeId: "asc" } });
  const run = await db.run.findFirstOrThrow();
  // Through the ledger's repository, as every write path does: the unit-state service hears of it.
  await db.$transaction((tx) =>
    appendPublishes(tx, [
      {
        id: `bench-${Date.now()}`,
        datasetId: ds.id,
        unitKey: new Date(LAST_DAY_MS).toISOString().slice(0, 10),
        runId: run.id,
        attemptId: null,
        publishedAt: new Date(),
        inputVersion: "",
        codeVersion: "",
        rowCount: 1000,
      },
    ]),
  );
  await db.$disconnect();
}

const launchBrowser = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"],
  });

/** Navigation start → the matrix painted, in a browser with nothing cached. */
async function firstPaint(browser: Awaited<ReturnType<typeof launchBrowser>>) {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(`${BASE}/units`);
  await page.waitForFunction(() => performance.getEntriesByName("units:matrix-painted").length > 0, null, { timeout: 120_000 });
  return { page, ms: await page.evaluate(() => performance.getEntriesByName("units:matrix-painted")[0]!.startTime) };
}

/**
 * First paint twice, each in a fresh browser: the page's first visit since the server started
 * (the server loads the page's code then), and a visit to a console already serving (the bar).
 */
async function browserFigures() {
  const first = await launchBrowser();
  const firstVisitMs = (await firstPaint(first)).ms;
  await first.close();
  const browser = await launchBrowser();
  const { page, ms: firstPaintMs } = await firstPaint(browser);
  const scroll = await page.evaluate(async () => {
    const grid = document.querySelector<HTMLElement>("[role=grid]")!;
    const gaps: number[] = [];
    let last = performance.now();
    for (let i = 0; i < 120; i++) {
      grid.scrollLeft = Math.max(0, grid.scrollWidth - grid.clientWidth - i * 400);
      grid.scrollTop = (i % 40) * 120;
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }
    gaps.sort((a, b) => a - b);
    return {
      meanFrameMs: gaps.reduce((a, b) => a + b, 0) / gaps.length,
      p95FrameMs: gaps[Math.floor(gaps.length * 0.95)]!,
      cellsInDom: document.querySelectorAll("[role=gridcell]").length,
    };
  });
  await browser.close();
  return {
    firstPaintFirstVisitMs: ms(firstVisitMs),
    firstPaintMs: ms(firstPaintMs),
    meanFrameMs: Math.round(scroll.meanFrameMs * 10) / 10,
    p95FrameMs: Math.round(scroll.p95FrameMs * 10) / 10,
    cellsInDom: scroll.cellsInDom,
  };
}

async function main(): Promise<void> {
  progress("server log", SERVER_LOG);
  const generateMs = await ensureWorld();
  progress("world", { generateMs });
  // --kept: take up the snapshot a previous run kept (no cold compute, no first start with nothing kept).
  const kept = args.includes("--kept") && (await hasKeptSnapshot());
  if (!kept) await forgetKeptSnapshot();
  const coldComputeMs = kept ? null : await coldCompute();
  progress("cold compute", { coldComputeMs });
  // A restart: the in-process computation above kept its snapshot in the database.
  const restart = await firstMatrixAfterStart();
  progress("restart", { first: restart.first, spawnToFirstMs: restart.spawnToFirstMs });
  let result;
  try {
    // Warm: the median of five requests (the first after the restart's is often still busy).
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) warm.push((await timeApi()).ms);
    warm.sort((a, b) => a - b);
    progress("warm API", warm);
    // The page's own request: rows in runs (lib/contracts/cell-runs.ts).
    const pageForm: { ms: number; bytes: number }[] = [];
    for (let i = 0; i < 5; i++) pageForm.push(await timeApi("?cells=runs"));
    pageForm.sort((a, b) => a.ms - b.ms);
    progress("warm API, page's form", pageForm);
    const paint = await browserFigures();
    progress("browser", paint);
    await addOnePublish();
    const afterPublish = await timeApi();
    result = {
      datasets: SIZE.pipelines * SIZE.chain,
      days: SIZE.days,
      cells: restart.first.cells,
      responseBytes: restart.first.bytes,
      generateMs,
      coldComputeMs,
      apiFirstAfterRestartMs: restart.first.ms,
      restartToFirstMatrixMs: restart.spawnToFirstMs,
      apiWarmMs: warm[2]!,
      apiWarmSamplesMs: warm,
      pageFormBytes: pageForm[0]!.bytes,
      apiPageFormWarmMs: pageForm[2]!.ms,
      apiAfterOnePublishMs: afterPublish.ms,
      ...paint,
      peakRssMb: peakRssMb(restart.server),
    };
  } finally {
    stop(restart.server);
  }
  // A first start: no snapshot kept (a new console on an existing ledger).
  let freshFigures = {
    apiFirstAfterFreshStartMs: null as number | null,
    freshStartToFirstMatrixMs: null as number | null,
    freshPeakRssMb: null as number | null,
  };
  if (!kept) {
    await forgetKeptSnapshot();
    const fresh = await firstMatrixAfterStart();
    freshFigures = { apiFirstAfterFreshStartMs: fresh.first.ms, freshStartToFirstMatrixMs: fresh.spawnToFirstMs, freshPeakRssMb: peakRssMb(fresh.server) };
    stop(fresh.server);
  }
  const all = { ...result, ...freshFigures, loadAverage: fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ") };
  console.log(
    `cells                      ${all.cells.toLocaleString("en")} (${all.datasets} datasets × ${all.days} days), response ${(all.responseBytes / 1e6).toFixed(2)} MB`,
  );
  console.log(`cold compute (ms)          ${all.coldComputeMs}   (in process: every ledger row and attempt)`);
  console.log(`restart, snapshot kept: first matrix API (ms) ${all.apiFirstAfterRestartMs}; server spawn → first matrix ${all.restartToFirstMatrixMs} ms`);
  console.log(`matrix API, warm (ms)      ${all.apiWarmMs} median of ${all.apiWarmSamplesMs.join(", ")}   (bar: ≤ ${BAR.apiMs})`);
  console.log(`the page's form (cells=runs): ${(all.pageFormBytes / 1e6).toFixed(2)} MB, warm ${all.apiPageFormWarmMs} ms median of 5`);
  console.log(`after one new publish (ms) ${all.apiAfterOnePublishMs}`);
  console.log(`first paint, page's first visit since the server started (ms) ${all.firstPaintFirstVisitMs}`);
  console.log(`first paint, fresh browser, console serving (ms) ${all.firstPaintMs}   (bar: ≤ ${BAR.paintMs})`);
  console.log(`scrolling: frame mean/p95  ${all.meanFrameMs} / ${all.p95FrameMs} ms   (60 fps: 16.7), ${all.cellsInDom} cell elements in the DOM`);
  console.log(
    `first start, nothing kept: first matrix API (ms) ${all.apiFirstAfterFreshStartMs}; server spawn → first matrix ${all.freshStartToFirstMatrixMs} ms`,
  );
  console.log(
    `peak server RSS (MB)        ${all.peakRssMb} (restart with the snapshot kept, through the browser figures); ${all.freshPeakRssMb} (first start, nothing kept)`,
  );
  console.log(`server log                 ${SERVER_LOG}; load average at the end ${all.loadAverage} (2 cores)`);
  if (args.includes("--json")) console.log(JSON.stringify(all));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
