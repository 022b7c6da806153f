/**
 * Issue 7's bar: /completeness and /history respond in ≤ 1 s on a database holding 1,000,000
 * ledger rows. Builds that world into its own SQLite file (100 pipelines × 10 daily datasets ×
 * 1,000 days = 1,000,000 publishes and as many attempts, plus 2,000 incidents with repair runs,
 * plans and audit entries), then times the use cases in-process and — when a production build
 * exists — the API routes and the pages over HTTP against `next start`. Building the world is
 * reported, not counted. Not part of the pass/fail suite (these machines are noisy).
 *
 *   npx tsx bench/completeness-history-bench.ts [--json] [--reuse] [--days 1000] [--chains 100] [--depth 10] [--incidents 2000]
 *   (NEXT_DIST_DIR names the build folder to serve; default .next; --port 3199)
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { getCompleteness } from "../lib/server/completeness/get-completeness";
import { createDb } from "../lib/server/db/client";
import { migrateSqlite, migrationsDir, readMigrations } from "../lib/server/db/migrate";
import { getRepairHistory } from "../lib/server/history/get-repair-history";
import { BENCH_START, buildWorld } from "./completeness-history-world";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1]! : fallback);
const shape = {
  chains: Number(flag("chains", "100")),
  depth: Number(flag("depth", "10")),
  days: Number(flag("days", "1000")),
  incidents: Number(flag("incidents", "2000")),
};
const FILE = path.resolve(flag("file", "data/bench-completeness-history.db"));
const PORT = Number(flag("port", "3199"));
const RUNS = 5;
const day = (d: number) => new Date(Date.parse(`${BENCH_START}T00:00:00Z`) + d * 86_400_000).toISOString().slice(0, 10);
const PERIOD = { dataset: `dataset:p0:d${shape.depth - 1}`, from: day(shape.days - 31), to: day(shape.days - 1) };

async function timed(fn: () => Promise<unknown>): Promise<{ medianMs: number; maxMs: number }> {
  await fn(); // warm: first query compiles, caches the client
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { medianMs: Math.round(times[RUNS >> 1]! * 10) / 10, maxMs: Math.round(times[RUNS - 1]! * 10) / 10 };
}

async function httpTimings(): Promise<Record<string, { medianMs: number; maxMs: number }> | string> {
  const dist = process.env.NEXT_DIST_DIR ?? ".next";
  if (!fs.existsSync(path.join(dist, "BUILD_ID"))) return `no production build in ${dist}: pages not timed (run next build)`;
  const server = spawn("npx", ["next", "start", "-H", "127.0.0.1", "-p", String(PORT)], {
    env: { ...process.env, DATABASE_URL: `file:${FILE}`, NEXT_DIST_DIR: dist, REPARO_DEFAULT_USER: "demo-viewer" },
    detached: true,
    stdio: "ignore",
  });
  const base = `http://127.0.0.1:${PORT}`;
  try {
    for (let i = 0; i < 120; i++) {
      if (
        await fetch(`${base}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const get = (url: string) => async () => {
      const res = await fetch(base + url);
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      await res.text();
    };
    const q = new URLSearchParams(PERIOD).toString();
    return {
      "GET /api/v1/completeness": await timed(get(`/api/v1/completeness?${q}`)),
      "GET /completeness (HTML)": await timed(get(`/completeness?${q}`)),
      "GET /api/v1/history": await timed(get("/api/v1/history")),
      "GET /api/v1/history?format=csv": await timed(get("/api/v1/history?format=csv")),
      "GET /history (HTML)": await timed(get("/history")),
    };
  } finally {
    process.kill(-server.pid!, "SIGTERM");
  }
}

async function main() {
  let built = { publishes: 0, attempts: 0, repairs: 0, seconds: 0 };
  if (!(args.includes("--reuse") && fs.existsSync(FILE))) {
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(FILE + suffix, { force: true });
    migrateSqlite(FILE, readMigrations(migrationsDir("sqlite")));
    const t = performance.now();
    built = { ...buildWorld(FILE, shape), seconds: Math.round((performance.now() - t) / 100) / 10 };
  }
  const db = createDb({ provider: "sqlite", url: `file:${FILE}` } as Parameters<typeof createDb>[0]);
  const ledgerRows = await db.publish.count();
  const inProcess = {
    "getCompleteness (1 month, 10-dataset closure)": await timed(() => getCompleteness(PERIOD, new Date(), db)),
    "getRepairHistory (all repairs)": await timed(() => getRepairHistory({ format: "json" }, new Date(), db)),
  };
  await db.$disconnect();
  const http = await httpTimings();
  const rows = [...Object.entries(inProcess), ...(typeof http === "string" ? [] : Object.entries(http))];
  console.log(
    `ledger rows: ${ledgerRows.toLocaleString()} · world built in ${built.seconds} s (${built.publishes} publishes, ${built.attempts} attempts, ${built.repairs} repairs) · period ${PERIOD.dataset} ${PERIOD.from}…${PERIOD.to}`,
  );
  console.log("what".padEnd(48), "median ms".padStart(10), "max ms".padStart(10), "≤ 1 s");
  for (const [name, t] of rows) console.log(name.padEnd(48), String(t.medianMs).padStart(10), String(t.maxMs).padStart(10), t.maxMs <= 1000 ? "  yes" : "  NO");
  if (typeof http === "string") console.log(http);
  if (args.includes("--json"))
    console.log(
      JSON.stringify({ ledgerRows, shape, built, period: PERIOD, timings: Object.fromEntries(rows), pages: typeof http === "string" ? http : "timed" }),
    );
}

void main();
