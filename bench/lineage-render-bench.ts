/**
 * Lineage render benchmark: a generated lineage of 10,000 nodes (5,000 tasks each writing one
 * dataset, 40 pipelines) and 30,000 edges — or, with `--size 50k`, the same generator five times
 * wider (200 pipelines, 50,000 nodes, 150,000 edges) — is written into its own SQLite database
 * through the repositories, the real console is served on it (`next start`, an existing build:
 * NEXT_DIST_DIR names it), and Chromium opens the real /lineage page. With `--baseline DIR`,
 * another build (its NEXT_DIST_DIR, e.g. main's built into .next-base) is served on a copy of
 * the same database and measured in the same run, interleaved with this one (`--runs N` rounds,
 * the order alternating), so the two are compared under the same load. Times come from the
 * performance marks the components place and the resource timings of the page's requests:
 *   navigation → graph / layout received  GET /api/v1/lineage-graph and …/layout (fetched side by side)
 *   navigation → reparo:layout-done      both received, React Flow's elements committed and painted
 *   reparo:highlight-start → -done      a closure applied to the graph and painted
 *   click → reparo:highlight-done        the same, including the closure API round trip
 * Usage: npx tsx bench/lineage-render-bench.ts [--size 10k|50k] [--baseline DIR] [--runs N] [--server-log PREFIX] [--json]
 *   (`--server-log PREFIX`: each server's log, with a line per request and its ms, in PREFIX-<port>.log —
 *   the server's side of each click beside the page's marks)
 *   (needs `npx next build` first; the JSON, printed last, holds this build's figures at its top
 *   level — the last round's — and the baseline's beside them under `baseline`)
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { chromium, type Page } from "@playwright/test";
import { datasetId, taskId } from "../lib/domain/ids";
import type { CatalogSpec } from "../lib/server/demo/catalog-spec";
import { registerCatalog } from "../lib/server/demo/register-catalog";
import { createDb } from "../lib/server/db/client";
import { migrate } from "../lib/server/db/migrate";
import { rng } from "./bench-graph";

const SIZES = { "10k": { pipelines: 40, edges: 30_000 }, "50k": { pipelines: 200, edges: 150_000 } } as const;
type Size = keyof typeof SIZES;
const TASKS_PER_PIPELINE = 125;
const READS_PER_TASK = 7;
const PORT = Number(process.env.BENCH_PORT ?? 3190);
const FILE = "/tmp/reparo-lineage-bench.db";
const DEMO_FILE = "/tmp/reparo-lineage-bench-demo.db";
const DAILY = { kind: "time" as const, grain: "day" as const, start: "2025-01-01", end: "2025-12-31", timezone: "UTC" };

function generateCatalog(size: Size): CatalogSpec {
  const { pipelines: PIPELINES, edges: EDGES } = SIZES[size];
  const random = rng(20260817);
  const spec: CatalogSpec = { pipelines: [], datasets: [], tasks: [], edges: [] };
  const produced: string[][] = [];
  for (let p = 0; p < PIPELINES; p++) {
    const ns = `p${p}`;
    spec.pipelines.push({ namespace: ns, description: "generated", owner: "bench" });
    produced.push([]);
    for (let i = 0; i < TASKS_PER_PIPELINE; i++) {
      const [task, out] = [taskId(ns, `task_${i}`), datasetId(ns, `table_${i}`)];
      spec.tasks.push({ nodeId: task, pipeline: ns, writeMode: "replace", sideEffect: "none", dependsOnOwnPast: false, owner: "bench", description: "" });
      spec.datasets.push({ nodeId: out, pipeline: ns, kind: "table", partitionDef: DAILY, description: "" });
      spec.edges.push({ task, dataset: out, direction: "write" });
      const inputs = new Set<string>();
      for (let k = 0; k < READS_PER_TASK; k++) {
        const cross = p > 0 && (i === 0 || random() < 0.08);
        const pool = cross ? produced[Math.floor(random() * p)]! : produced[p]!;
        if (pool.length === 0) continue;
        inputs.add(pool[pool.length - 1 - Math.floor(random() * Math.min(pool.length, 12))]!);
      }
      for (const d of inputs) if (spec.edges.length < EDGES) spec.edges.push({ task, dataset: d, direction: "read" });
      produced[p]!.push(out);
    }
  }
  return spec;
}

async function prepareDatabase(size: Size): Promise<{ nodes: number; edges: number }> {
  fs.rmSync(FILE, { force: true });
  const target = { provider: "sqlite" as const, file: FILE, url: `file:${FILE}` };
  await migrate(target);
  const db = createDb(target);
  const spec = generateCatalog(size);
  await registerCatalog(db, spec, new Date("2025-01-01T00:00:00Z"));
  await db.$disconnect();
  return { nodes: spec.tasks.length + spec.datasets.length, edges: spec.edges.length };
}

/**
 * `next start` on `file`, returned once the server's own startup work is over: the lineage's
 * layout on the server's ELK threads (reported as layoutReadyMs, from the server's log line) and
 * the unit-state warm-up (lib/server/units/warm-unit-states.ts), which holds the event loop for
 * seconds on this lineage; a page opened meanwhile would measure that queue (startupMs).
 */
async function serve(port: number, file: string, distDir?: string): Promise<{ stop: () => void; startupMs: number; layoutReadyMs: number | null }> {
  const started = Date.now();
  const logPrefix = arg("--server-log");
  const serverLog = logPrefix ? fs.createWriteStream(`${logPrefix}-${port}.log`, { flags: "a" }) : null;
  const server = spawn("npx", ["next", "start", "-H", "127.0.0.1", "-p", String(port)], {
    env: { ...process.env, DATABASE_URL: `file:${file}`, NEXT_TELEMETRY_DISABLED: "1", ...(distDir ? { NEXT_DIST_DIR: distDir } : {}) },
    detached: true,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const stop = () => process.kill(-server.pid!, "SIGTERM");
  let layoutReadyMs: number | null = null;
  let [units, layout] = [false, false];
  const warmed = new Promise<void>((resolve) => {
    server.stdout!.on("data", (chunk: Buffer) => {
      serverLog?.write(chunk);
      const text = chunk.toString();
      const laid = /lineage layout ready \(\d+ nodes, (\d+) ms\)/.exec(text);
      if (laid) layoutReadyMs = Number(laid[1]);
      if (/lineage layout ready|laying out the lineage failed/.test(text)) layout = true;
      if (/unit states ready|warming the unit states failed/.test(text)) units = true;
      if (units && layout) resolve();
    });
    setTimeout(resolve, 180_000).unref();
  });
  for (let i = 0; i < 240; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) {
      await warmed;
      server.stdout!.resume();
      return { stop, startupMs: Date.now() - started, layoutReadyMs };
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  stop();
  throw new Error("the console did not start");
}

/** Read in the page as string expressions: the console's CSP has no unsafe-eval, so every page is opened with bypassCSP. */
const marks = (name: string) => `performance.getEntriesByName(${JSON.stringify(name)}).map((m) => m.startTime)`;
const TIMEOUT = { timeout: 180_000, polling: 20 };
const HIGHLIGHTS = 5;

interface Load {
  layoutAndPaintMs: number;
  graphRequestedMs: number | null;
  graphFetchedMs: number | null;
  layoutFetchedMs: number | null;
}

/** One navigation: navigation start → the graph and the layout received → first paint of the graph. */
async function load(page: Page, url: string): Promise<Load> {
  await page.goto(url, { waitUntil: "commit", timeout: 180_000 });
  await page.waitForFunction(`${marks("reparo:layout-done")}.length > 0`, undefined, TIMEOUT);
  return page.evaluate<Load>(`(() => {
    const at = (n) => performance.getEntriesByName(n)[0]?.startTime ?? null;
    const entry = (path) => performance.getEntriesByType("resource").find((r) => new URL(r.name).pathname === path);
    const graph = entry("/api/v1/lineage-graph");
    return { layoutAndPaintMs: at("reparo:layout-done"), graphRequestedMs: graph?.startTime ?? null, graphFetchedMs: graph?.responseEnd ?? null,
      layoutFetchedMs: entry("/api/v1/lineage-graph/layout")?.responseEnd ?? null };
  })()`);
}

/** Runs `act`, then waits for the highlight it causes: applied → painted, and act → painted. */
async function highlight(page: Page, act: () => Promise<number>): Promise<{ applied: number; click: number }> {
  const before = await page.evaluate<number>(`${marks("reparo:highlight-done")}.length`);
  const actedAt = await act();
  await page.waitForFunction(`${marks("reparo:highlight-done")}.length > ${before}`, undefined, TIMEOUT);
  // The first highlight painted after the act, and the last start before it (the holdings arriving later start another).
  const [start, done] = await page.evaluate<[number, number]>(`(() => {
    const done = ${marks("reparo:highlight-done")}[${before}];
    return [${marks("reparo:highlight-start")}.filter((t) => t <= done).at(-1), done];
  })()`);
  return { applied: done - start, click: done - actedAt };
}

async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
  });
}

/**
 * The generated lineage: a cold load (fresh browser profile, first graph request since the server started), five
 * highlights, a warm reload, and a view whose layout nobody asked for yet (one pipeline
 * collapsed: the server lays the lineage out on demand, as after a catalog change).
 */
async function measureBig(port: number) {
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, bypassCSP: true });
  const cold = await load(page, `http://127.0.0.1:${port}/lineage`);
  const highlights = [];
  for (let i = 0; i < HIGHLIGHTS; i++) {
    // As a person would: the previous closure's holdings and camera move have settled.
    await page.waitForTimeout(1_500);
    // Picked and clicked in one step: a task node mounted now (the previous closure moved the view), not the selection.
    highlights.push(
      await highlight(page, () =>
        page.evaluate(() => {
          const selected = new URL(location.href).searchParams.get("node");
          const nodes = [...document.querySelectorAll<HTMLElement>(".react-flow__node-task")].filter((e) => e.dataset.id !== selected);
          nodes[Math.floor(nodes.length / 2)]!.click();
          return performance.now();
        }),
      ),
    );
  }
  const warm = await load(page, `http://127.0.0.1:${port}/lineage`);
  const fresh = await browser.newPage({ viewport: { width: 1600, height: 1000 }, bypassCSP: true });
  const onDemand = await load(fresh, `http://127.0.0.1:${port}/lineage?collapsed=p7`);
  await browser.close();
  return { cold, warm, onDemand, highlights };
}

/** The demo world: load, then select stg_orders 2026-08-17 from the current failures. */
async function measureDemo(port: number) {
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, bypassCSP: true });
  const cold = await load(page, `http://127.0.0.1:${port}/lineage`);
  const button = page.getByRole("list", { name: "Current failures" }).getByRole("button", { name: /stg_orders 2026-08-17/ });
  await button.waitFor();
  const h = await highlight(page, () =>
    button.evaluate((el) => {
      (el as HTMLElement).click();
      return performance.now();
    }),
  );
  await browser.close();
  return { layoutAndPaintMs: cold.layoutAndPaintMs, highlight: h };
}

function loadDemo(file: string) {
  fs.rmSync(file, { force: true });
  execFileSync("npx", ["tsx", "scripts/demo-load.ts"], { env: { ...process.env, DATABASE_URL: `file:${file}` }, stdio: "ignore" });
}

const round = (x: number | null) => (x === null ? null : Math.round(x));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

type Measured = ReturnType<typeof summarise>;

/** One build measured: its server on its own copy of the generated database, then on the demo world. */
async function measureBuild(port: number, file: string, distDir: string | undefined) {
  const server = await serve(port, file, distDir);
  const big = await measureBig(port).finally(server.stop);
  loadDemo(`${DEMO_FILE}-${port}`);
  const demoServer = await serve(port, `${DEMO_FILE}-${port}`, distDir);
  const demo = await measureDemo(port).finally(demoServer.stop);
  return summarise(server, big, demo);
}

function summarise(
  server: { startupMs: number; layoutReadyMs: number | null },
  big: Awaited<ReturnType<typeof measureBig>>,
  demo: Awaited<ReturnType<typeof measureDemo>>,
) {
  return {
    serverStartupMs: server.startupMs,
    serverLayoutAtStartMs: server.layoutReadyMs,
    cold: {
      layoutAndPaintMs: round(big.cold.layoutAndPaintMs),
      graphRequestedMs: round(big.cold.graphRequestedMs),
      graphFetchedMs: round(big.cold.graphFetchedMs),
      layoutFetchedMs: round(big.cold.layoutFetchedMs),
    },
    warm: {
      layoutAndPaintMs: round(big.warm.layoutAndPaintMs),
      graphFetchedMs: round(big.warm.graphFetchedMs),
      layoutFetchedMs: round(big.warm.layoutFetchedMs),
    },
    onDemand: { layoutAndPaintMs: round(big.onDemand.layoutAndPaintMs), layoutFetchedMs: round(big.onDemand.layoutFetchedMs) },
    highlightAppliedMs: big.highlights.map((h) => round(h.applied)),
    highlightAppliedMedianMs: round(median(big.highlights.map((h) => h.applied))),
    highlightClickMs: big.highlights.map((h) => round(h.click)),
    highlightClickMedianMs: round(median(big.highlights.map((h) => h.click))),
    demo: { layoutAndPaintMs: round(demo.layoutAndPaintMs), highlightAppliedMs: round(demo.highlight.applied), highlightClickMs: round(demo.highlight.click) },
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

function table(size: Size, current: Measured, baseline: Measured | undefined) {
  const rows: [string, (m: Measured) => number | null, string][] = [
    ["server start: lineage laid out on 2 ELK threads", (m) => m.serverLayoutAtStartMs, "≤ 60000"],
    ["cold: navigation → page asks for the graph and layout", (m) => m.cold.graphRequestedMs, ""],
    ["cold: navigation → graph received", (m) => m.cold.graphFetchedMs, ""],
    ["cold: navigation → layout received", (m) => m.cold.layoutFetchedMs, ""],
    ["cold: navigation → laid out and painted", (m) => m.cold.layoutAndPaintMs, "≤ 5000"],
    ["warm reload: painted", (m) => m.warm.layoutAndPaintMs, "≤ 5000"],
    ["new view (p7 collapsed, laid out on demand): layout received", (m) => m.onDemand.layoutFetchedMs, ""],
    ["new view (p7 collapsed, laid out on demand): painted", (m) => m.onDemand.layoutAndPaintMs, "≤ 5000"],
    [`highlight applied → painted (median of ${HIGHLIGHTS})`, (m) => m.highlightAppliedMedianMs, "≤ 100"],
    [`click → highlight painted, incl. closure API (median of ${HIGHLIGHTS})`, (m) => m.highlightClickMedianMs, "≤ 1000"],
    ["demo: navigation → laid out and painted", (m) => m.demo.layoutAndPaintMs, ""],
    ["demo: stg_orders 2026-08-17 highlight applied → painted", (m) => m.demo.highlightAppliedMs, "≤ 100"],
  ];
  console.table(
    rows.map(([measure, of, bar]) => ({
      measure: `${size} ${measure}`,
      ms: of(current),
      ...(baseline ? { baseline: of(baseline) } : {}),
      bar,
    })),
  );
  console.log(`load average after this build: ${current.loadAverage.join(", ")}${baseline ? `; after the baseline: ${baseline.loadAverage.join(", ")}` : ""}`);
}

async function main() {
  const json = process.argv.includes("--json");
  const size = (arg("--size") ?? "10k") as Size;
  if (!(size in SIZES)) throw new Error(`--size: expected 10k or 50k, got ${size}`);
  const baselineDir = arg("--baseline");
  const runs = Number(arg("--runs") ?? 1);
  const generated = await prepareDatabase(size);
  const builds = [{ name: "current", port: PORT, distDir: undefined as string | undefined }];
  if (baselineDir) builds.push({ name: "baseline", port: PORT + 1, distDir: baselineDir });
  const rounds: Record<string, Measured>[] = [];
  for (let r = 0; r < runs; r++) {
    const round: Record<string, Measured> = {};
    // Alternating which build goes first, so neither always meets the machine's leftovers.
    for (const b of r % 2 === 0 ? builds : [...builds].reverse()) {
      const file = `${FILE}-${b.port}`;
      fs.copyFileSync(FILE, file);
      round[b.name] = await measureBuild(b.port, file, b.distDir);
    }
    rounds.push(round);
    table(size, round.current!, round.baseline);
  }
  const last = rounds.at(-1)!;
  const result = {
    size,
    nodes: generated.nodes,
    edges: generated.edges,
    ...last.current!,
    ...(last.baseline ? { baseline: { distDir: baselineDir, ...last.baseline } } : {}),
    rounds,
  };
  if (json) console.log(JSON.stringify(result));
}

void main();
