import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as partitions } from "@/app/api/v1/datasets/[id]/partitions/route";
import { POST as lineage } from "@/app/api/v1/lineage/route";
import type { UnitState } from "@/lib/domain/unit-state";
import { loadUnitStateIndex } from "../repair/unit-state-index";
import { GET as closure } from "@/app/api/v1/closure/route";
import { GET as lineageGraph } from "@/app/api/v1/lineage-graph/route";
import { GET as pipeline } from "@/app/api/v1/pipelines/[id]/route";
import { getRoute } from "../testing/read-routes";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { ledgerState } from "./testing/db-snapshot";
import { AIRFLOW_NS, DATASETS, DBT_NS, PROVIDER_STREAM, providerStream, TASKS } from "./testing/provider-stream";
import { openIncident } from "../incidents/open-incident";
import { previewPlan } from "../repair/preview-plan";
import { applyDeclarations } from "./apply-declarations";

/**
 * Issue "Truth from what real producers send", its bars on an Airflow-provider-shaped stream
 * (testing/provider-stream.ts: no row counts, transform failing 2026-08-17 twice, a routine
 * re-run of extract 2026-08-10, a dbt model reading load's output every day). Measured before:
 * declared after the events, the failure disappeared and 31/31/31 units were missing; declared
 * before, 31/31/31 missing; the re-run made one duplicate.
 */
type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
const DAILY = { kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-31", timezone: "UTC" };
const NOW = new Date("2026-09-02T12:00:00Z");
const ALL = Object.values(DATASETS);
const saved = process.env.DATABASE_URL;
afterAll(() => {
  process.env.DATABASE_URL = saved;
});

async function call(handler: Handler, method: string, path: string, body: unknown, params: Record<string, string> = {}) {
  const res = await handler(
    new Request(`http://console.test${path}`, {
      method,
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", "x-reparo-user": "ingest-bot" },
    }),
    { params: Promise.resolve(params) },
  );
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status}: ${text.slice(0, 400)}`);
  return JSON.parse(text) as Record<string, unknown>;
}
const send = (events: object[]) => call(lineage, "POST", "/api/v1/lineage", events);
const declare = (nodeId: string) => call(partitions, "PUT", "/p", { partitionDef: DAILY, reason: "daily, as the DAG runs" }, { id: nodeId });

async function freshDb(): Promise<TestDatabase> {
  const t = await createTestDatabase("sqlite");
  process.env.DATABASE_URL = t.target.url;
  await t.db.user.create({ data: { id: "ingest-bot", displayName: "Ingestion", role: "operator" } });
  return t;
}

async function statesOf(t: TestDatabase): Promise<Map<string, Map<string, UnitState>>> {
  const index = await loadUnitStateIndex(t.db, NOW, ALL);
  return new Map(ALL.map((ds) => [ds, new Map(PROVIDER_STREAM.days.map((k) => [k, index.get(ds, k)!.result.state]))]));
}

const notPresent = (states: Map<string, UnitState>) =>
  [...states].filter(([, s]) => s === "missing" || s === "failed" || s === "blocked").map(([k, s]) => `${k} ${s}`);

function expectTheBars(states: Map<string, Map<string, UnitState>>) {
  // The failure is there, under its unit, and nothing else of the Airflow datasets is absent.
  expect(states.get(DATASETS.clean)!.get(PROVIDER_STREAM.failedDay)).toBe("failed");
  expect(notPresent(states.get(DATASETS.raw)!)).toEqual([]);
  expect(notPresent(states.get(DATASETS.clean)!)).toEqual([`${PROVIDER_STREAM.failedDay} failed`]);
  expect(notPresent(states.get(DATASETS.loaded)!)).toEqual([`${PROVIDER_STREAM.failedDay} missing`]);
  // The dbt model ran every day without a row count: never missing.
  expect(notPresent(states.get(DATASETS.revenue)!)).toEqual([]);
  expect(new Set(states.get(DATASETS.revenue)!.values())).toEqual(new Set(["rows_unknown"]));
  // A routine re-run by a task whose write mode nobody declared is a republish, not a duplicate.
  const duplicates = [...states.values()].flatMap((m) => [...m.values()].filter((s) => s === "duplicate"));
  expect(duplicates).toEqual([]);
  expect(states.get(DATASETS.raw)!.get(PROVIDER_STREAM.rerunDay)).toBe("rows_unknown");
}

describe("what real producers send: no row counts, late declarations, routine re-runs", () => {
  let t: TestDatabase;
  afterAll(async () => t?.drop());

  it("events first, daily partitions declared after: the failure stays open, each Airflow dataset misses at most the failed day", async () => {
    t = await freshDb();
    const events = providerStream();
    expect(events.length).toBe(374);
    await send(events);
    const answers = [];
    for (const ds of ALL) answers.push(await declare(ds));
    // Declaring found the runs sent before that read or write each dataset, and folded them again:
    // orders_raw extract's 32 tries' runs + transform's 32; orders_clean transform's + load's 30; ...
    expect(answers.map((a) => (a.resolved as { runs: number }).runs)).toEqual([64, 62, 61, 31]);
    expectTheBars(await statesOf(t));
    await t.drop();
  });

  it("partitions first, events without row counts: at most the failed day missing", async () => {
    t = await freshDb();
    for (const ds of ALL) await declare(ds);
    await send(providerStream());
    expectTheBars(await statesOf(t));
  });

  it("the planner under unknowns: blocked naming each fact to declare; once declared, a plan that recomputes", async () => {
    // (the database of the test above: partitions declared, the month sent)
    const operator = { id: "ingest-bot", role: "operator" as const, source: "proxy" as const, namespaces: [] };
    const incident = await openIncident(
      { taskNodeId: TASKS.transform, units: [PROVIDER_STREAM.failedDay], reason: "transform failed twice" },
      operator,
      NOW,
      t.db,
    );
    const before = await previewPlan(incident.id, { replay: [], parameterOverrides: {} }, NOW, t.db);
    expect(before.runnable).toBe(false);
    expect(before.blockers.filter((b) => b.declare).map((b) => [b.code, b.node])).toEqual(
      expect.arrayContaining([
        ["unknown_write_mode", TASKS.transform],
        ["unknown_side_effect", TASKS.transform],
        ["unknown_write_mode", TASKS.load],
      ]),
    );
    // Airflow's facet said depends_on_past false: independence is known, not asked.
    expect(before.blockers.some((b) => b.code === "unknown_independence" && b.node === TASKS.transform)).toBe(false);
    await applyDeclarations(
      {
        declarations: {
          version: 1,
          tasks: [
            { namespace: AIRFLOW_NS, name: "orders_etl.transform", writeMode: "replace", sideEffect: "none", publishMode: "per_unit" },
            { namespace: AIRFLOW_NS, name: "orders_etl.load", writeMode: "replace", sideEffect: "none", publishMode: "per_unit" },
            {
              namespace: DBT_NS,
              name: "warehouse.analytics.jaffle.revenue_daily",
              writeMode: "replace",
              sideEffect: "none",
              dependsOnOwnPast: false,
              publishMode: "per_unit",
            },
          ],
        },
        reason: "orders_etl's facts",
        dryRun: false,
      },
      operator,
      t.db,
    );
    const after = await previewPlan(incident.id, { replay: [], parameterOverrides: {} }, NOW, t.db);
    expect(after.blockers).toEqual([]);
    // transform, load and the dbt model, 2026-08-17 each (per-unit publishes: not the whole set).
    expect(after.cost.unitsRecomputed).toBe(3);
  });
});

describe("every job that ran is a node; one name per pipeline", () => {
  let t: TestDatabase;
  afterAll(async () => t?.drop());

  it("a job that failed before naming a dataset is in the lineage; a DAG's job reaches its tasks' closure; a pipeline is found by its name", async () => {
    t = await freshDb();
    const failedEarly = {
      eventType: "FAIL",
      eventTime: "2026-08-05T02:00:00Z",
      producer: "https://example.com/notify",
      schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
      run: { runId: "0193aaaa-0000-7000-8000-000000000001" },
      job: { namespace: "airflow-lab", name: "orders_etl.notify" },
      inputs: [],
      outputs: [],
    };
    await send([...providerStream(), failedEarly]);
    const graph = JSON.parse((await getRoute(lineageGraph, "/api/v1/lineage-graph")).body) as { nodes: { id: string }[] };
    expect(graph.nodes.map((n) => n.id)).toContain("job:airflow-lab:orders_etl.notify");
    // The DAG and dbt-ol's command job are pipelines, drawn as groups, not task nodes.
    expect(graph.nodes.map((n) => n.id)).not.toContain("job:airflow-lab:orders_etl");
    const closureOf = (id: string) => getRoute(closure, `/api/v1/closure?nodeId=${encodeURIComponent(id)}`);
    const notify = await getRoute(closure, `/api/v1/closure?nodeId=${encodeURIComponent("job:airflow-lab:orders_etl.notify")}`);
    expect(notify.status).toBe(200);
    const dag = await closureOf("job:airflow-lab:orders_etl");
    expect(dag.status, dag.body).toBe(200);
    expect((JSON.parse(dag.body) as { nodes: { nodeId: string }[] }).nodes.map((n) => n.nodeId)).toEqual(
      expect.arrayContaining([TASKS.extract, TASKS.transform, TASKS.load, TASKS.revenue]),
    );
    const byName = await getRoute(pipeline, "/api/v1/pipelines/orders_etl", "ingest-bot", { id: "orders_etl" });
    expect(byName.status).toBe(200);
    expect(JSON.parse(byName.body)).toMatchObject({ pipeline: "orders_etl", namespace: "airflow-lab" });
    const qualified = await getRoute(pipeline, "/api/v1/pipelines/x", "ingest-bot", { id: "dbt/dbt-run-jaffle" });
    expect(JSON.parse(qualified.body)).toMatchObject({ pipeline: "dbt-run-jaffle", namespace: "dbt" });
  });
});

describe("any interleaving of events and declarations ends in the same ledger as declaring first", () => {
  let baseline: Awaited<ReturnType<typeof ledgerState>>;
  beforeAll(async () => {
    const t = await freshDb();
    for (const ds of ALL) await declare(ds);
    await send(providerStream());
    baseline = await ledgerState(t.db);
    await t.drop();
  }, 120_000);

  it("12 seeded interleavings", async () => {
    const events = providerStream();
    await fc.assert(
      fc.asyncProperty(
        // Where each dataset is declared: before event i (events.length: after them all), and the events' batch boundaries.
        fc.array(fc.integer({ min: 0, max: events.length }), { minLength: ALL.length, maxLength: ALL.length }),
        fc.array(fc.integer({ min: 1, max: events.length - 1 }), { maxLength: 4 }),
        async (declaredAt, cuts) => {
          const t = await freshDb();
          try {
            const points = [...new Set([0, ...cuts, ...declaredAt, events.length])].sort((a, b) => a - b);
            for (let p = 0; p < points.length; p++) {
              for (const [i, ds] of ALL.entries()) if (declaredAt[i] === points[p]) await declare(ds);
              const next = points[p + 1];
              if (next !== undefined && next > points[p]!) await send(events.slice(points[p], next));
            }
            expect(await ledgerState(t.db)).toEqual(baseline);
          } finally {
            await t.drop();
          }
        },
      ),
      { numRuns: 12, seed: 20_261_204 },
    );
  }, 600_000);
});
