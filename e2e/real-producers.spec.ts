import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { sealedSession, SSO_URL } from "./sso/sso-console";

/**
 * Issue 32's bars on a fresh production-mode console (the single sign-on console of
 * playwright.config.ts), fed what the real producers sent in the peers lab — not the streams the
 * repository tests were written against:
 *   - Airflow 3.3.2's OpenLineage provider (2.20.3), 379 events of the lab month
 *     (test/fixtures/peers/airflow/openlineage-events.ndjson): no row counts anywhere, stg_orders
 *     failing 2026-08-17 and 2026-08-23, running_balance waiting on its own failed past;
 *   - dbt-ol 1.54.0's events of the dbt lab (test/fixtures/peers/dbt/openlineage-events.ndjson):
 *     a microbatch model whose batches carry no row counts, two of them failing.
 * Each scenario rewrites the namespaces so that it is a world of its own on the shared console.
 */
const ROOT = path.resolve(__dirname, "..");
const DB_FILE = path.join(ROOT, "data/e2e-sso.db");
const cli = (script: string, args: string[]) =>
  execFileSync("npx", ["tsx", `scripts/${script}.ts`, ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: `file:${DB_FILE}` }, encoding: "utf8" });
const AIRFLOW_EVENTS = fs.readFileSync(path.join(ROOT, "test/fixtures/peers/airflow/openlineage-events.ndjson"), "utf8");
const DBT_EVENTS = fs.readFileSync(path.join(ROOT, "test/fixtures/peers/dbt/openlineage-events.ndjson"), "utf8");
const WAREHOUSE_NS = "postgres://127.0.0.1:5432";
const AUGUST = Array.from({ length: 31 }, (_, i) => `2026-08-${String(i + 1).padStart(2, "0")}`);
const RERUN_DAY = "2026-08-10";
const DAILY = { kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-31", timezone: "UTC" } as const;

interface OlEvent {
  eventType: string;
  eventTime: string;
  run: { runId: string; facets?: { nominalTime?: { nominalStartTime?: string }; airflow?: { taskInstance?: { try_number?: number } } } };
  job: { namespace: string; name: string };
  inputs?: { namespace: string; name: string }[];
  outputs?: { namespace: string; name: string }[];
}

let ingestToken = "";
let declareToken = "";
let viewerCookie = "";

test.beforeAll(async () => {
  const suffix = Date.now().toString(36);
  const lastLine = (out: string) => out.trim().split("\n").at(-1)!;
  ingestToken = lastLine(cli("tokens", ["create", `producers-${suffix}`, "--scope", "ingest", "--reason", "the real producers' events"]));
  declareToken = lastLine(cli("tokens", ["create", `declarations-${suffix}`, "--scope", "declare", "--reason", "the team's declaration file"]));
  cli("users", ["add", `analyst-${suffix}`, "--role", "viewer", "--reason", "reads the matrix"]);
  viewerCookie = `reparo_session=${await sealedSession(`analyst-${suffix}`, new Date(Date.now() + 3_600_000))}`;
});

/** The stream as a world of its own: its job and dataset namespaces renamed for the scenario. */
function world(ndjson: string, jobNs: string, scenario: string) {
  const datasetNs = `postgres://${scenario}:5432`;
  const text = ndjson.split(WAREHOUSE_NS).join(datasetNs).split(`"${jobNs}"`).join(`"${jobNs}-${scenario}"`);
  const events = text
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as OlEvent);
  return { events, datasetNs, jobNs: `${jobNs}-${scenario}` };
}

/**
 * Airflow's routine re-run: the day's DAG run cleared from a task on, with its downstream (the
 * clear dialog's default), after it succeeded — each task instance runs again as try 2, with a new
 * run id from the provider, the same logical date, the same tables. Nobody declared the tasks'
 * write modes.
 */
function routineRerun(events: OlEvent[], fromTask: string, day: string): OlEvent[] {
  const ofDay = events.filter((e) => e.job.name.includes(".") && e.run.facets?.nominalTime?.nominalStartTime?.startsWith(day));
  const first = ofDay.findIndex((e) => e.job.name === fromTask);
  expect(first).toBeGreaterThanOrEqual(0);
  return ofDay.slice(first).map((e) => {
    const facets = structuredClone(e.run.facets!);
    if (facets.airflow?.taskInstance) facets.airflow.taskInstance.try_number = 2;
    const runId = e.run.runId.replace(/.{4}$/, "2222");
    return { ...e, eventTime: new Date(Date.parse(e.eventTime) + 3_600_000).toISOString(), run: { runId, facets } };
  });
}

/** For each dataset a task wrote, the days a COMPLETE event says its writer published. */
function completedDays(events: OlEvent[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const e of events) {
    if (e.eventType !== "COMPLETE") continue;
    const day = String(e.run.facets?.nominalTime?.nominalStartTime ?? "").slice(0, 10);
    for (const o of e.outputs ?? []) {
      const id = `dataset:${o.namespace}:${o.name}`;
      if (!out.has(id)) out.set(id, new Set());
      if (AUGUST.includes(day)) out.get(id)!.add(day);
    }
  }
  return out;
}

async function ingest(request: APIRequestContext, events: OlEvent[]) {
  const res = await request.post(`${SSO_URL}/api/v1/lineage`, {
    data: events.map((e) => JSON.stringify(e)).join("\n"),
    headers: { authorization: `Bearer ${ingestToken}`, "content-type": "application/x-ndjson" },
    timeout: 120_000,
  });
  const body = await res.json();
  expect(res.status(), JSON.stringify(body).slice(0, 400)).toBe(200);
  expect(body.rejected).toEqual([]);
  expect(body.received).toBe(events.length);
}

async function declarePartitions(request: APIRequestContext, datasets: string[]) {
  const res = await request.put(`${SSO_URL}/api/v1/declarations`, {
    data: {
      declarations: {
        version: 1,
        datasets: datasets.map((id) => {
          const [, ns, name] = /^dataset:(.+):([^:]+)$/.exec(id)!;
          return { namespace: ns, name, partitions: DAILY };
        }),
      },
      reason: "one unit per day of the DAG's August",
    },
    headers: { authorization: `Bearer ${declareToken}` },
  });
  const body = await res.json();
  expect(res.status(), JSON.stringify(body).slice(0, 400)).toBe(200);
  return body as { refolded: { runs: number; publishes: number } };
}

/** A dataset's daily cells (one code per day of August), once the states are computed. */
async function cellsOf(request: APIRequestContext, datasetId: string): Promise<Record<string, string>> {
  let row: Record<string, string> = {};
  await expect
    .poll(
      async () => {
        const res = await request.get(`${SSO_URL}/api/v1/units/matrix?dataset=${encodeURIComponent(datasetId)}`, { headers: { cookie: viewerCookie } });
        if (res.status() !== 200) return `status ${res.status()}`;
        const m = await res.json();
        if (m.states.computing) return "computing";
        const section = m.sections.find((s: { grain: string }) => s.grain === "day");
        const r = section?.rows.find((x: { nodeId: string }) => x.nodeId === datasetId);
        if (!r) return "no daily row";
        row = Object.fromEntries((section.columns as string[]).map((c, i) => [c, r.cells[i] as string]));
        return AUGUST.every((d) => d in row) ? "ready" : "not every day";
      },
      { message: `the daily row of ${datasetId}`, timeout: 30_000 },
    )
    .toBe("ready");
  return row;
}

async function openFailures(request: APIRequestContext, jobNs: string): Promise<string[]> {
  const overview = await (await request.get(`${SSO_URL}/api/v1/overview`, { headers: { cookie: viewerCookie } })).json();
  return (overview.failures as { taskNodeId: string; unitKey: string }[])
    .filter((f) => f.taskNodeId.startsWith(`job:${jobNs}:`))
    .map((f) => `${f.taskNodeId.slice(`job:${jobNs}:`.length)} ${f.unitKey}`)
    .sort();
}

/**
 * The truth of each Airflow dataset: published (rows unknown) on every day its writer completed,
 * missing only on days it never did, never a duplicate.
 */
async function expectAirflowTruth(request: APIRequestContext, events: OlEvent[]) {
  const summary: Record<string, { published: number; missing: number; duplicate: number }> = {};
  for (const [datasetId, done] of completedDays(events)) {
    const cells = await cellsOf(request, datasetId);
    const codes = AUGUST.map((d) => cells[d]);
    const missing = AUGUST.filter((d) => cells[d] === "m");
    summary[datasetId.split(".").at(-1)!] = {
      published: codes.filter((c) => c === "w" || c === "p").length,
      missing: missing.length,
      duplicate: codes.filter((c) => c === "d").length,
    };
    expect(
      codes.filter((c) => c === "d"),
      `${datasetId}: duplicates`,
    ).toEqual([]);
    expect(
      missing.filter((d) => done.has(d)),
      `${datasetId}: missing although its writer completed`,
    ).toEqual([]);
    // running_balance reads its own previous day: the days it built after the re-run of
    // 2026-08-10 read a balance that was rebuilt since — stale, truthfully.
    const readsRerun = (d: string) => datasetId.endsWith(".running_balance") && d > RERUN_DAY;
    for (const d of done) expect(readsRerun(d) ? ["w", "p", "t"] : ["w", "p"], `${datasetId} ${d}`).toContain(cells[d]);
  }
  return summary;
}

test("Airflow's provider, events first and daily partitions declared after: the failures stay open, nothing completed is missing, a re-run is no duplicate", async ({
  request,
}) => {
  const { events, jobNs } = world(AIRFLOW_EVENTS, "airflow-lab", "late");
  const stream = [...events, ...routineRerun(events, "lab_orders.raw_orders", RERUN_DAY)];
  await ingest(request, stream);
  const written = [...completedDays(stream).keys()];
  expect(written).toHaveLength(6);
  const declared = await declarePartitions(request, written);
  // The stored runs are folded again onto the new days: none is lost to the late declaration.
  expect(declared.refolded.runs).toBeGreaterThan(0);
  expect(await openFailures(request, jobNs)).toEqual(["lab_orders.stg_orders 2026-08-17", "lab_orders.stg_orders 2026-08-23"]);
  const summary = await expectAirflowTruth(request, stream);
  expect(summary.raw_orders).toEqual({ published: 31, missing: 0, duplicate: 0 });
  expect(summary.stg_orders?.published).toBe(29);
  console.log(`[real-producers] events first, declared after: ${JSON.stringify(summary)}`);

  // The cell of the re-run day says what it is: a republish by a task whose write mode nobody declared.
  const raw = written.find((id) => id.endsWith(".raw_orders"))!;
  const cell = await (
    await request.get(`${SSO_URL}/api/v1/units/cell?dataset=${encodeURIComponent(raw)}&unit=2026-08-10`, { headers: { cookie: viewerCookie } })
  ).json();
  expect(JSON.stringify(cell)).toMatch(/republish/i);
});

test("Airflow's provider, daily partitions declared first, events without row counts: missing only where nothing completed", async ({ request }) => {
  const { events, jobNs } = world(AIRFLOW_EVENTS, "airflow-lab", "early");
  const stream = [...events, ...routineRerun(events, "lab_orders.raw_orders", RERUN_DAY)];
  await declarePartitions(request, [...completedDays(stream).keys()]);
  await ingest(request, stream);
  expect(await openFailures(request, jobNs)).toEqual(["lab_orders.stg_orders 2026-08-17", "lab_orders.stg_orders 2026-08-23"]);
  const summary = await expectAirflowTruth(request, stream);
  expect(summary.raw_orders).toEqual({ published: 31, missing: 0, duplicate: 0 });
  console.log(`[real-producers] declared first: ${JSON.stringify(summary)}`);
});

test("dbt-ol's microbatch model, no row counts: never missing — every batch's day published or failed", async ({ request }) => {
  const { events, datasetNs } = world(DBT_EVENTS, "dbt-lab", "dbt");
  const revenue = `dataset:${datasetNs}:reparo_lab_warehouse.dbt_lab.revenue_daily`;
  await declarePartitions(request, [revenue]);
  await ingest(request, events);
  const cells = await cellsOf(request, revenue);
  const failed = AUGUST.filter((d) => cells[d] === "f");
  expect(failed).toEqual(["2026-08-17", "2026-08-23"]);
  expect(AUGUST.filter((d) => cells[d] === "m")).toEqual([]);
  expect(AUGUST.filter((d) => !failed.includes(d)).every((d) => cells[d] === "w" || cells[d] === "p")).toBe(true);
  console.log(`[real-producers] dbt revenue_daily: ${AUGUST.map((d) => cells[d]).join("")}`);
});
