/**
 * The unit matrix at 300 datasets × 3,650 days (issue 4's bar: matrix API response and first
 * paint ≤ 2 s). Generates that world once into its own SQLite database (bench/matrix-world.ts,
 * through the repositories), serves the built console on it, and times:
 *   - cold compute: every ledger row and attempt read and every state computed, in this process
 *     (what a server pays once at start, in the background, and on each new hour);
 *   - the matrix API: the first request after start (the server warms the states at start, so
 *     this waits at most for the rest of that computation), from spawning the server to the
 *     first answer, warm (records unchanged: the snapshot), and after one new publish;
 *   - first paint: navigation start → the "units:matrix-painted" performance mark, in Chromium;
 *   - scrolling: frame intervals while the grid scrolls across ten years.
 *
 *   npx next build   (with NEXT_DIST_DIR=… if you use your own build folder)
 *   npx tsx bench/matrix-bench.ts [--json] [--fresh] [--port 3499] [--db /tmp/reparo-matrix-bench.db]
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { chromium } from "@playwright/test";
import { createDb } from "../lib/server/db/client";
import { migrate } from "../lib/server/db/migrate";
import { getUnitStateSnapshot } from "../lib/server/units/get-unit-state-snapshot";
import { buildMatrixWorld, LAST_DAY_MS } from "./matrix-world";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1]! : fallback);
const SIZE = { pipelines: 10, chain: 30, days: 3650 };
const PORT = Number(flag("port", "3499"));
const FILE = flag("db", "/tmp/reparo-matrix-bench.db");
const BASE = `http://127.0.0.1:${PORT}`;
const ms = (t: number) => Math.round(t);

async function ensureWorld(): Promise<number | null> {
  if (fs.existsSync(FILE) && !args.includes("--fresh")) return null;
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
  await getUnitStateSnapshot(db, new Date());
  const took = performance.now() - start;
  await db.$disconnect();
  return ms(took);
}

function startServer(): ChildProcess {
  return spawn("npx", ["next", "start", "-H", "127.0.0.1", "-p", String(PORT)], {
    env: { ...process.env, DATABASE_URL: `file:${FILE}`, NEXT_TELEMETRY_DISABLED: "1", REPARO_DEFAULT_USER: "demo-viewer" }, detached: true, stdio: "ignore",
  });
}

async function waitForHealth(): Promise<void> {
  for (let i = 0; i < 240; i++) {
    if (await fetch(`${BASE}/api/health`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the console did not start");
}

async function timeApi(): Promise<{ ms: number; bytes: number; cells: number }> {
  const start = performance.now();
  const res = await fetch(`${BASE}/api/v1/units/matrix`);
  const text = await res.text();
  if (!res.ok) throw new Error(`matrix API answered ${res.status}: ${text.slice(0, 200)}`);
  const body = JSON.parse(text) as { counts: Record<string, number> };
  return { ms: ms(performance.now() - start), bytes: text.length, cells: Object.values(body.counts).reduce((a, b) => a + b, 0) };
}

async function addOnePublish(): Promise<void> {
  const db = createDb({ provider: "sqlite", file: FILE, url: `file:${FILE}` });
  const ds = await db.dataset.findFirstOrThrow({ orderBy: { nodeId: "asc" } });
  const run = await db.run.findFirstOrThrow();
  await db.publish.create({ data: { datasetId: ds.id, unitKey: new Date(LAST_DAY_MS).toISOString().slice(0, 10), runId: run.id, publishedAt: new Date(), rowCount: 1000 } });
  await db.$disconnect();
}

async function browserFigures() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"] });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(`${BASE}/units`);
  await page.waitForFunction(() => performance.getEntriesByName("units:matrix-painted").length > 0, null, { timeout: 120_000 });
  const firstPaintMs = await page.evaluate(() => performance.getEntriesByName("units:matrix-painted")[0]!.startTime);
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
    return { meanFrameMs: gaps.reduce((a, b) => a + b, 0) / gaps.length, p95FrameMs: gaps[Math.floor(gaps.length * 0.95)]!, cellsInDom: document.querySelectorAll("[role=gridcell]").length };
  });
  await browser.close();
  return { firstPaintMs: ms(firstPaintMs), meanFrameMs: Math.round(scroll.meanFrameMs * 10) / 10, p95FrameMs: Math.round(scroll.p95FrameMs * 10) / 10, cellsInDom: scroll.cellsInDom };
}

async function main(): Promise<void> {
  const generateMs = await ensureWorld();
  const coldComputeMs = await coldCompute();
  const spawned = performance.now();
  const server = startServer();
  try {
    await waitForHealth();
    const cold = await timeApi();
    const startToFirstMatrixMs = ms(performance.now() - spawned);
    const warm = await timeApi();
    const paint = await browserFigures();
    await addOnePublish();
    const afterPublish = await timeApi();
    const result = { datasets: SIZE.pipelines * SIZE.chain, days: SIZE.days, cells: cold.cells, responseBytes: cold.bytes, generateMs, coldComputeMs, apiFirstAfterStartMs: cold.ms, startToFirstMatrixMs, apiWarmMs: warm.ms, apiAfterOnePublishMs: afterPublish.ms, ...paint };
    console.log(`cells                      ${result.cells.toLocaleString("en")} (${result.datasets} datasets × ${result.days} days), response ${(result.responseBytes / 1e6).toFixed(2)} MB`);
    console.log(`cold compute (ms)          ${result.coldComputeMs}   (in process: every ledger row and attempt)`);
    console.log(`matrix API, first after start (ms) ${result.apiFirstAfterStartMs}; server spawn → first matrix ${result.startToFirstMatrixMs} ms`);
    console.log(`matrix API, warm (ms)      ${result.apiWarmMs}   (bar: ≤ 2000)`);
    console.log(`after one new publish (ms) ${result.apiAfterOnePublishMs}`);
    console.log(`first paint (ms)           ${result.firstPaintMs}   (bar: ≤ 2000)`);
    console.log(`scrolling: frame mean/p95  ${result.meanFrameMs} / ${result.p95FrameMs} ms   (60 fps: 16.7), ${result.cellsInDom} cell elements in the DOM`);
    if (args.includes("--json")) console.log(JSON.stringify(result));
  } finally {
    if (server.pid) process.kill(-server.pid);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
