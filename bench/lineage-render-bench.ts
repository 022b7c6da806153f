/**
 * Lineage render benchmark: a generated lineage of 10,000 nodes (5,000 tasks each writing one
 * dataset, 40 pipelines) and 30,000 edges is written into its own SQLite database through the
 * repositories, the real console is served on it (`next start`, an existing build:
 * NEXT_DIST_DIR names it), and Chromium opens the real /lineage page. Times come from the
 * performance marks the components place:
 *   navigation → reparo:layout-done     ELK in the worker + React Flow's first paint
 *   reparo:highlight-start → -done      a closure applied to the graph and painted
 *   click → reparo:highlight-done        the same, including the closure API round trip
 * Usage: npx tsx bench/lineage-render-bench.ts [--json]   (needs `npx next build` first)
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import { chromium } from "@playwright/test";
import { datasetId, taskId } from "../lib/domain/ids";
import type { CatalogSpec } from "../lib/server/demo/catalog-spec";
import { registerCatalog } from "../lib/server/demo/register-catalog";
import { createDb } from "../lib/server/db/client";
import { migrate } from "../lib/server/db/migrate";
import { rng } from "./bench-graph";

const PIPELINES = 40;
const TASKS_PER_PIPELINE = 125;
const READS_PER_TASK = 7;
const EDGES = 30_000;
const PORT = Number(process.env.BENCH_PORT ?? 3190);
const FILE = "/tmp/reparo-lineage-bench.db";
const DAILY = { kind: "time" as const, grain: "day" as const, start: "2025-01-01", end: "2025-12-31", timezone: "UTC" };

function generateCatalog(): CatalogSpec {
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

async function prepareDatabase(): Promise<{ nodes: number; edges: number }> {
  fs.rmSync(FILE, { force: true });
  const target = { provider: "sqlite" as const, file: FILE, url: `file:${FILE}` };
  await migrate(target);
  const db = createDb(target);
  const spec = generateCatalog();
  await registerCatalog(db, spec, new Date("2025-01-01T00:00:00Z"));
  await db.$disconnect();
  return { nodes: spec.tasks.length + spec.datasets.length, edges: spec.edges.length };
}

async function serve(): Promise<() => void> {
  const server = spawn("npx", ["next", "start", "-H", "127.0.0.1", "-p", String(PORT)], {
    env: { ...process.env, DATABASE_URL: `file:${FILE}`, NEXT_TELEMETRY_DISABLED: "1" }, detached: true, stdio: "ignore",
  });
  for (let i = 0; i < 120; i++) {
    const ok = await fetch(`http://127.0.0.1:${PORT}/api/health`).then((r) => r.ok, () => false);
    if (ok) return () => process.kill(-server.pid!, "SIGTERM");
    await new Promise((r) => setTimeout(r, 500));
  }
  process.kill(-server.pid!, "SIGTERM");
  throw new Error("the console did not start");
}

const markTime = (name: string) => `performance.getEntriesByName(${JSON.stringify(name)}).map((m) => m.startTime)`;

async function measure() {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(`http://127.0.0.1:${PORT}/lineage`);
  await page.waitForFunction(`${markTime("reparo:layout-done")}.length > 0`, undefined, { timeout: 120_000 });
  const layoutMs = await page.evaluate<number>(`${markTime("reparo:layout-done")}[0]`);
  const highlights: { applied: number; click: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const before = await page.evaluate<number>(`${markTime("reparo:highlight-done")}.length`);
    const node = page.locator(".react-flow__node-task").nth(i * 3);
    const clickedAt = await node.evaluate((el) => { (el as HTMLElement).click(); return performance.now(); });
    await page.waitForFunction(`${markTime("reparo:highlight-done")}.length > ${before}`, undefined, { timeout: 120_000 });
    const [start, done] = await page.evaluate<[number, number]>(`[${markTime("reparo:highlight-start")}.at(-1), ${markTime("reparo:highlight-done")}.at(-1)]`);
    highlights.push({ applied: done - start, click: done - clickedAt });
  }
  await browser.close();
  return { layoutMs, highlights };
}

async function main() {
  const json = process.argv.includes("--json");
  const size = await prepareDatabase();
  const stop = await serve();
  try {
    const { layoutMs, highlights } = await measure();
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const result = {
      nodes: size.nodes, edges: size.edges,
      layoutAndPaintMs: Math.round(layoutMs),
      highlightAppliedMedianMs: Math.round(median(highlights.map((h) => h.applied))),
      highlightClickMedianMs: Math.round(median(highlights.map((h) => h.click))),
    };
    console.table([
      { measure: "lay out + paint (navigation → reparo:layout-done)", ms: result.layoutAndPaintMs, bar: "≤ 5000" },
      { measure: "closure highlight applied → painted (median of 3)", ms: result.highlightAppliedMedianMs, bar: "≤ 100" },
      { measure: "click → highlight painted, incl. closure API (median of 3)", ms: result.highlightClickMedianMs, bar: "—" },
    ]);
    if (json) console.log(JSON.stringify(result));
  } finally {
    stop();
  }
}

void main();
