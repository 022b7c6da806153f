/**
 * Many consoles, one PostgreSQL (issue 15): three `next start` consoles on one PostgreSQL database
 * behind HAProxy (Debian's package), driven through the balancer:
 *   1. 40 concurrent sends of one identical OpenLineage event: stored once, every answer 200;
 *   2. ingestion throughput in batches of 100 events (NDJSON, POST /api/v1/lineage) from
 *      concurrent producers, with the overview read through the balancer meanwhile (p50): events
 *      acknowledged per second, and — with deferred folding (the default here, as docs/operations.md
 *      sets up three consoles) — per second until every run they imply is written;
 *   3. a repair launched through the balancer; the console running its slice is killed with
 *      SIGKILL mid-repair (30 % done); the time until another console takes it over (the audit's
 *      repair.taken_over entry) is `takeoverMs`; then publishes per unit are counted (duplicates);
 *   4. alerts delivered by the consoles' alerts-deliver job to a local receiver (duplicates);
 *   5. the audit chain verified.
 * Needs a production build (`npx next build`), PostgreSQL (REPARO_TEST_PG_URL, default
 * postgresql://postgres@127.0.0.1:5432/postgres) and haproxy (`apt-get install -y haproxy`).
 *
 *   npm run bench:instances -- [--json] [--instances 3] [--batches 300] [--producers 6] [--days 40] [--fold deferred|inline]
 *   [--baseline DIR]  the ingestion only, measured with DIR's build (another checkout of the
 *              console, built) and then this one's, side by side in one run
 *   [--ingest-only]  stop after the ingestion figures (with --json, their JSON)
 *   [--check]  fail unless every correctness bar holds (no timing): what the test command runs
 *
 * Prints its figures, and with --json one JSON object as the last line.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { verifyAuditChain } from "../lib/server/audit/verify-audit-chain";
import { createDb, type Db } from "../lib/server/db/client";
import { loadDemo } from "../lib/server/demo/load-demo";
import { ORDERS_LAST_DAY } from "../lib/server/demo/orders-catalog";
import { openIncident } from "../lib/server/incidents/open-incident";
import { cleanUnit } from "../lib/server/repair/clean-unit";
import { confirmPlan } from "../lib/server/repair/confirm-plan";
import { recordScope } from "../lib/server/repair/record-scope";
import { COMMANDER, STG } from "../lib/server/repair/testing/journey-steps";
import { emptyTarget } from "../lib/server/testing/test-database";
import { migrate } from "../lib/server/db/migrate";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : fallback;
};
const JSON_OUT = args.includes("--json");
const INSTANCES = Number(flag("instances", "3"));
const BATCHES = Number(flag("batches", "300"));
const PRODUCERS = Number(flag("producers", "6"));
const DAYS = Number(flag("days", "40"));
const BATCH = 100;
/** How the consoles fold accepted events (REPARO_INGEST_FOLD); deferred is the documented many-console setting. */
const FOLDING = flag("fold", "deferred");
const ROOT = path.resolve(__dirname, "..");
const BASE_PORT = Number(flag("port", "3460"));
const BALANCER = BASE_PORT;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const say = (line: string) => console.log(line);

async function until<T>(what: () => Promise<T | null | undefined | false>, timeoutMs: number, label: string): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await what().catch(() => null);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${label}`);
    await sleep(100);
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
function request(
  port: number,
  method: string,
  pathname: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path: pathname,
        agent,
        headers: {
          "x-reparo-user": "demo-commander",
          ...(body ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text, ms: performance.now() - started }));
      },
    );
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}

/** A webhook receiver counting deliveries per alert id. */
async function receiver(): Promise<{ url: string; counts: Map<string, number>; close: () => Promise<void> }> {
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      try {
        const id = (JSON.parse(body) as { alert: { id: string } }).alert.id;
        counts.set(id, (counts.get(id) ?? 0) + 1);
      } catch {
        // not an alert
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, counts, close: () => new Promise((r) => server.close(() => r())) };
}

function startConsole(i: number, url: string, hook: string, logDir: string, root = ROOT): ChildProcess {
  const out = fs.openSync(path.join(logDir, `console-${i}${root === ROOT ? "" : "-baseline"}.log`), "w");
  const profile = args.includes("--profile") && i === 1 ? ["--cpu-prof", `--cpu-prof-dir=${logDir}`] : [];
  return spawn(
    process.execPath,
    [...profile, path.join(root, "node_modules/next/dist/bin/next"), "start", "-H", "127.0.0.1", "-p", String(BASE_PORT + i), "--keepAliveTimeout", "65000"],
    {
      cwd: root,
      stdio: ["ignore", out, out],
      env: {
        ...process.env,
        DATABASE_URL: url,
        REPARO_DEMO: "1",
        NEXT_MANUAL_SIG_HANDLE: "1",
        REPARO_LOG_LEVEL: "warn",
        REPARO_ALERT_WEBHOOK_URL: hook,
        REPARO_ALERT_DELIVER_SECONDS: "2",
        REPARO_INGEST_FOLD: FOLDING,
      },
    },
  );
}

function startBalancer(logDir: string): ChildProcess {
  const servers = Array.from({ length: INSTANCES }, (_, i) => `  server c${i + 1} 127.0.0.1:${BASE_PORT + 1 + i} check`).join("\n");
  const cfg = `global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  option http-keep-alive
  retries 3
  option redispatch
  retry-on conn-failure empty-response
frontend reparo
  bind 127.0.0.1:${BALANCER}
  unique-id-format %[uuid()]
  http-request set-header X-Request-Id %[unique-id]
  default_backend consoles
backend consoles
  balance roundrobin
  option httpchk GET /api/ready
  http-check expect status 200
  default-server inter 1s fall 2 rise 2
${servers}
`;
  const file = path.join(logDir, "haproxy.cfg");
  fs.writeFileSync(file, cfg);
  const out = fs.openSync(path.join(logDir, "haproxy.log"), "w");
  return spawn("haproxy", ["-f", file, "-db"], { stdio: ["ignore", out, out] });
}

/** One OpenLineage COMPLETE per task run (with input, output and row count), in a namespace of its own. */
function ingestionBatches(): string[] {
  const out: string[] = [];
  const ns = "postgres://bench:5432";
  for (let b = 0; b < BATCHES; b++) {
    const lines: string[] = [];
    for (let i = 0; i < BATCH; i++) {
      const n = b * BATCH + i;
      const task = n % 50;
      const day = Math.floor(n / 50);
      const nominal = new Date(Date.UTC(2025, 0, 1) + day * 86_400_000).toISOString();
      lines.push(
        JSON.stringify({
          eventType: "COMPLETE",
          eventTime: new Date(Date.UTC(2025, 0, 2) + day * 86_400_000 + task * 60_000).toISOString(),
          producer: "bench-instances",
          run: { runId: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`, facets: { nominalTime: { nominalStartTime: nominal } } },
          job: { namespace: "bench_airflow", name: `daily.task_${task}` },
          inputs: [{ namespace: ns, name: `public.t_${task}` }],
          outputs: [{ namespace: ns, name: `public.t_${task + 1}`, outputFacets: { outputStatistics: { rowCount: 1000 + task } } }],
        }),
      );
    }
    out.push(lines.join("\n"));
  }
  return out;
}

/** The fold steps the consoles ran (deferred folding), summed from each console's /api/metrics. */
async function foldSteps(): Promise<{ steps: number; events: number; seconds: number }> {
  const out = { steps: 0, events: 0, seconds: 0 };
  for (let i = 1; i <= INSTANCES; i++) {
    const r = await request(BASE_PORT + i, "GET", "/api/metrics").catch(() => null);
    if (r?.status !== 200) continue;
    const value = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)$`, "m").exec(r.text)?.[1] ?? 0);
    out.steps += value("reparo_ingest_fold_step_seconds_count");
    out.seconds += value("reparo_ingest_fold_step_seconds_sum");
    out.events += value("reparo_ingest_folded_events_total");
  }
  return out;
}

async function sameEventFortyTimes(): Promise<{ stored: number; non200: number }> {
  const event = JSON.stringify({
    eventType: "COMPLETE",
    eventTime: "2026-08-18T02:10:00.000Z",
    producer: "bench-instances",
    run: { runId: "01936893-9751-7150-bbde-00000000f040", facets: { nominalTime: { nominalStartTime: "2026-08-17T00:00:00Z" } } },
    job: { namespace: "bench_same", name: "one.event" },
    inputs: [],
    outputs: [{ namespace: "postgres://bench:5432", name: "public.same", outputFacets: { outputStatistics: { rowCount: 7 } } }],
  });
  const answers = await Promise.all(Array.from({ length: 40 }, () => request(BALANCER, "POST", "/api/v1/lineage", event)));
  const stored = answers.filter(
    (a) => a.status === 200 && (JSON.parse(a.text) as { accepted: { duplicate: boolean }[] }).accepted[0]?.duplicate === false,
  ).length;
  return { stored, non200: answers.filter((a) => a.status !== 200).length };
}

async function ingest(db: Db): Promise<{
  events: number;
  seconds: number;
  eventsPerSec: number;
  failed: number;
  readP50Ms: number;
  reads: number;
  foldedSeconds: number;
  foldedRuns: number;
  lagP95Ms: number;
  lagMaxMs: number;
}> {
  const bodies = ingestionBatches();
  let next = 0;
  let events = 0;
  let failed = 0;
  let done = false;
  const reads: number[] = [];
  const reader = async () => {
    while (!done) {
      const r = await request(BALANCER, "GET", "/api/v1/overview");
      if (r.status === 200) reads.push(r.ms);
      await sleep(50);
    }
  };
  const producer = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!;
      const r = await request(BALANCER, "POST", "/api/v1/lineage", body);
      if (r.status === 200) events += (JSON.parse(r.text) as { written: { events: number } }).written.events;
      else if (++failed === 1) say(`a batch answered ${r.status}: ${r.text.slice(0, 300)}`);
    }
  };
  // The ledger's lag as the pages state it: how long the oldest accepted, unfolded event has waited.
  const lags: number[] = [];
  const lagWatcher = async () => {
    while (!done) {
      const oldest = await db.pendingFold.findFirst({ orderBy: { seq: "asc" }, select: { acceptedAt: true } });
      lags.push(oldest ? Math.max(0, Date.now() - oldest.acceptedAt.getTime()) : 0);
      await sleep(250);
    }
  };
  const readers = [...(args.includes("--no-reads") ? [] : [reader()]), lagWatcher()];
  const started = performance.now();
  await Promise.all(Array.from({ length: PRODUCERS }, producer));
  const seconds = (performance.now() - started) / 1000;
  say(`acknowledged: ${events} events in ${seconds.toFixed(2)} s, ${await db.pendingFold.count()} not folded yet; waiting for the fold`);
  // Deferred folding: acknowledged is not yet folded. The end-to-end figure waits for the queue to empty.
  await until(async () => (await db.pendingFold.count()) === 0, 600_000, "the fold queue to empty");
  const foldedSeconds = (performance.now() - started) / 1000;
  done = true;
  await Promise.all(readers);
  const foldedRuns = await db.run.count({ where: { externalId: { startsWith: "00000000-0000-4000-8000-" } } });
  reads.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  return {
    events,
    seconds: Number(seconds.toFixed(2)),
    eventsPerSec: Math.round(events / seconds),
    failed,
    readP50Ms: Math.round(reads[reads.length >> 1] ?? -1),
    reads: reads.length,
    foldedSeconds: Number(foldedSeconds.toFixed(2)),
    foldedRuns,
    lagP95Ms: Math.round(lags[Math.min(lags.length - 1, Math.floor(lags.length * 0.95))] ?? 0),
    lagMaxMs: Math.round(lags[lags.length - 1] ?? 0),
  };
}

/** A repair of DAYS days of stg_orders and everything built on them, confirmed and ready to launch. */
async function plannedRepair(db: Db): Promise<string> {
  const last = new Date(`${ORDERS_LAST_DAY}T00:00:00Z`).getTime();
  const days = Array.from({ length: DAYS }, (_, i) => new Date(last - (DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10));
  const now = new Date();
  const incident = await openIncident({ taskNodeId: STG, units: days, reason: "bench: re-run a stretch of stg_orders and its closure" }, COMMANDER, now, db);
  await recordScope(incident.id, { reason: "closure reviewed", addPairs: [] }, COMMANDER, now, db);
  for (const unitKey of days)
    await cleanUnit(incident.id, { taskNodeId: STG, unitKey, reason: "remove the rows before re-running" }, COMMANDER, now, db).catch(() => undefined);
  await confirmPlan(
    incident.id,
    { strategy: "targeted_with_closure", replay: [], parameterOverrides: {}, reason: "bench: repair the stretch and everything built on it" },
    COMMANDER,
    now,
    db,
  );
  return incident.id;
}

async function repairWithKill(
  db: Db,
  incidentId: string,
  consoles: Map<number, ChildProcess>,
): Promise<{ pairs: number; killedAtDone: number; takeoverMs: number; status: string; duplicatePublishes: number; repairSeconds: number }> {
  const launched = await request(BALANCER, "POST", `/api/v1/incidents/${incidentId}/launch`, JSON.stringify({ resume: false, concurrency: 1 }));
  if (launched.status !== 202 && launched.status !== 200) throw new Error(`launch answered ${launched.status}: ${launched.text}`);
  const { runId, pairs } = JSON.parse(launched.text) as { runId: string; pairs: number };
  const started = Date.now();
  const done = () => db.attempt.count({ where: { runId, status: "succeeded" } });
  await until(async () => (await done()) >= Math.max(3, Math.floor(pairs * 0.3)), 120_000, "30 % of the repair");
  const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
  const owner = (JSON.parse(run.parameters) as { owner?: { pid: number } }).owner;
  const victim = [...consoles.entries()].find(([, p]) => p.pid === owner?.pid);
  if (!victim) throw new Error(`the run's owner pid ${owner?.pid} is none of the consoles`);
  const killedAtDone = await done();
  victim[1].kill("SIGKILL");
  const killedAt = Date.now();
  consoles.delete(victim[0]);
  const taken = await until(() => db.auditEntry.findFirst({ where: { incidentId, kind: "repair.taken_over" } }), 120_000, "the takeover");
  const finished = await until(
    async () => {
      const r = await db.run.findUniqueOrThrow({ where: { id: runId } });
      return r.status !== "queued" && r.status !== "running" && r;
    },
    300_000,
    "the repair to finish",
  );
  const publishes = await db.publish.groupBy({ by: ["datasetId", "unitKey"], where: { runId }, _count: { _all: true } });
  return {
    pairs,
    killedAtDone,
    takeoverMs: taken.at.getTime() - killedAt,
    status: finished.status,
    duplicatePublishes: publishes.reduce((n, p) => n + p._count._all - 1, 0),
    repairSeconds: Number(((Date.now() - started) / 1000).toFixed(1)),
  };
}

/** What one side of a comparison measured: the ingestion alone, on a fresh database with the demo world. */
async function ingestionSide(root: string, logDir: string, hook: string): Promise<Awaited<ReturnType<typeof ingest>> & { loadAverage: number }> {
  const { target, drop } = await emptyTarget("postgresql");
  const db = createDb(target);
  const consoles: ChildProcess[] = [];
  let balancer: ChildProcess | null = null;
  try {
    await migrate(target, ROOT);
    await loadDemo(db);
    for (let i = 1; i <= INSTANCES; i++) consoles.push(startConsole(i, target.url, hook, logDir, root));
    balancer = startBalancer(logDir);
    for (let i = 1; i <= INSTANCES; i++)
      await until(async () => (await request(BASE_PORT + i, "GET", "/api/ready")).status === 200, 120_000, `console ${i} ready`);
    await until(async () => (await request(BALANCER, "GET", "/api/ready")).status === 200, 30_000, "the balancer");
    await sleep(2_500); // the balancer's checks mark every console up (rise 2 × 1 s)
    const ingestion = await ingest(db);
    return { ...ingestion, loadAverage: Number(os.loadavg()[0]!.toFixed(1)) };
  } finally {
    for (const p of consoles) p.kill("SIGTERM");
    balancer?.kill("SIGTERM");
    await sleep(3_000);
    for (const p of consoles) p.kill("SIGKILL");
    await db.$disconnect();
    await drop();
  }
}

/**
 * --baseline DIR: the ingestion measured with DIR's build (another checkout, built) and then with
 * this one's, one after the other in this run, each on a fresh database with the demo world.
 */
async function compareWithBaseline(dir: string): Promise<void> {
  const baselineRoot = path.resolve(dir);
  for (const root of [baselineRoot, ROOT])
    if (!fs.existsSync(path.join(root, ".next/BUILD_ID"))) throw new Error(`no production build in ${root}: run \`npx next build\` there first`);
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "reparo-instances-"));
  const hook = await receiver();
  try {
    const sides = [];
    for (const [label, root] of [
      ["baseline", baselineRoot],
      ["this build", ROOT],
    ] as const) {
      const r = await ingestionSide(root, logDir, hook.url);
      say(
        `${label.padEnd(10)} acknowledged ${r.eventsPerSec} events/s, folded ${Math.round(r.events / r.foldedSeconds)} events/s end to end, lag p95 ${r.lagP95Ms} ms (max ${r.lagMaxMs}), overview p50 ${r.readP50Ms} ms, load ${r.loadAverage}`,
      );
      sides.push({
        label,
        ingestEventsPerSec: r.eventsPerSec,
        foldedEventsPerSec: Math.round(r.events / r.foldedSeconds),
        foldLagP95Ms: r.lagP95Ms,
        foldedRuns: r.foldedRuns,
        ingestFailed: r.failed,
        readP50Ms: r.readP50Ms,
        loadAverage: r.loadAverage,
      });
    }
    const [baseline, current] = sides;
    if (JSON_OUT) console.log(JSON.stringify({ instances: INSTANCES, folding: FOLDING, ...current, baseline }));
  } finally {
    await hook.close();
    agent.destroy();
  }
}

async function main(): Promise<void> {
  const baselineDir = flag("baseline", "");
  if (baselineDir) return compareWithBaseline(baselineDir);
  if (!fs.existsSync(path.join(ROOT, ".next/BUILD_ID"))) throw new Error("no production build: run `npx next build` first");
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "reparo-instances-"));
  const { target, drop } = await emptyTarget("postgresql");
  const db = createDb(target);
  const consoles = new Map<number, ChildProcess>();
  let balancer: ChildProcess | null = null;
  const hook = await receiver();
  try {
    await migrate(target, ROOT);
    say(`database ${target.url.replace(/\/\/[^@]*@/, "//")}; logs in ${logDir}`);
    let t = performance.now();
    await loadDemo(db);
    const incidentId = await plannedRepair(db);
    say(`demo world loaded and a ${DAYS}-day repair planned in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    for (let i = 1; i <= INSTANCES; i++) consoles.set(i, startConsole(i, target.url, hook.url, logDir));
    balancer = startBalancer(logDir);
    for (let i = 1; i <= INSTANCES; i++)
      await until(async () => (await request(BASE_PORT + i, "GET", "/api/ready")).status === 200, 120_000, `console ${i} ready`);
    await until(async () => (await request(BALANCER, "GET", "/api/ready")).status === 200, 30_000, "the balancer");
    await sleep(2_500); // the balancer's checks mark every console up (rise 2 × 1 s)
    say(`${INSTANCES} consoles ready behind HAProxy in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const same = await sameEventFortyTimes();
    say(`40 concurrent sends of one event through the balancer: stored ${same.stored}, ${same.non200} answers not 200`);
    const ingestion = await ingest(db);
    say(
      `ingestion (${FOLDING} folding): ${ingestion.events} events acknowledged in ${ingestion.seconds} s = ${ingestion.eventsPerSec} events/s (${PRODUCERS} producers, batches of ${BATCH}, ${ingestion.failed} failed); overview read p50 ${ingestion.readP50Ms} ms over ${ingestion.reads} reads`,
    );
    say(
      `folded: all ${ingestion.events} events' runs written ${ingestion.foldedSeconds} s after the first send = ${Math.round(ingestion.events / ingestion.foldedSeconds)} events/s end to end; ${ingestion.foldedRuns} runs`,
    );
    say(`ledger lag while ingesting (the oldest unfolded event's wait, every 250 ms): p95 ${ingestion.lagP95Ms} ms, max ${ingestion.lagMaxMs} ms`);
    const steps = await foldSteps();
    if (steps.steps > 0)
      say(
        `fold steps (every console's /api/metrics): ${steps.steps} steps of ${Math.round(steps.events / steps.steps)} events on average, ${Math.round((1000 * steps.seconds) / steps.steps)} ms each`,
      );
    const ingestResult = {
      instances: INSTANCES,
      folding: FOLDING,
      ingestEventsPerSec: ingestion.eventsPerSec,
      foldedEventsPerSec: Math.round(ingestion.events / ingestion.foldedSeconds),
      foldLagP95Ms: ingestion.lagP95Ms,
      foldLagMaxMs: ingestion.lagMaxMs,
      foldedRuns: ingestion.foldedRuns,
      ingestFailed: ingestion.failed,
      readP50Ms: ingestion.readP50Ms,
      loadAverage: Number(os.loadavg()[0]!.toFixed(1)),
    };
    if (args.includes("--ingest-only")) {
      if (JSON_OUT) console.log(JSON.stringify(ingestResult));
      return;
    }
    const repair = await repairWithKill(db, incidentId, consoles);
    say(
      `repair: ${repair.pairs} pairs; console killed at ${repair.killedAtDone} done; taken over ${repair.takeoverMs} ms after the kill; ended ${repair.status} in ${repair.repairSeconds} s; duplicate publishes ${repair.duplicatePublishes}`,
    );
    await sleep(6_000); // three delivery periods
    const delivered = [...hook.counts.values()];
    const duplicateWebhooks = delivered.reduce((n, c) => n + c - 1, 0);
    say(`webhook: ${delivered.length} alerts heard, ${duplicateWebhooks} duplicate deliveries`);
    const chain = await verifyAuditChain(db);
    say(`audit chain: ${chain.ok ? "intact" : "BROKEN"} (${chain.entries} entries)`);
    const result = {
      ...ingestResult,
      takeoverMs: repair.takeoverMs,
      duplicatePublishes: repair.duplicatePublishes,
      duplicateWebhooks,
      alertsDelivered: delivered.length,
      auditChainOk: chain.ok,
      sameEventStored: same.stored,
      sameEventNon200: same.non200,
      repairPairs: repair.pairs,
      repairStatus: repair.status,
    };
    if (JSON_OUT) console.log(JSON.stringify(result));
    if (args.includes("--check")) {
      // What must hold whatever the machine's speed (the timings are the benchmark's, not a test's).
      const broken = [
        same.stored !== 1 && `one event sent 40 times was stored ${same.stored} times`,
        same.non200 > 0 && `${same.non200} of 40 identical sends were not answered 200`,
        ingestion.failed > 0 && `${ingestion.failed} ingestion batches failed`,
        ingestion.foldedRuns !== ingestion.events && `${ingestion.events} events stored, ${ingestion.foldedRuns} of their runs folded`,
        repair.duplicatePublishes > 0 && `${repair.duplicatePublishes} duplicate publishes`,
        repair.status !== "succeeded" && `the repair ended ${repair.status}`,
        duplicateWebhooks > 0 && `${duplicateWebhooks} duplicate webhook deliveries`,
        delivered.length === 0 && "no alert was delivered",
        !chain.ok && "the audit chain is broken",
      ].filter(Boolean);
      if (broken.length) throw new Error(`instances check failed: ${broken.join("; ")}`);
      say("instances check: passed");
    }
  } finally {
    for (const p of consoles.values()) p.kill("SIGTERM");
    balancer?.kill("SIGTERM");
    // A profiled console writes its profile when it exits after draining: give it the time.
    await sleep(args.includes("--profile") ? 25_000 : 3_000);
    for (const p of consoles.values()) p.kill("SIGKILL");
    await hook.close();
    agent.destroy();
    await db.$disconnect();
    await drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
