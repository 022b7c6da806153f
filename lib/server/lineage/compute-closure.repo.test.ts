import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClosureQuerySchema } from "@/lib/contracts/lineage";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { errorResponse } from "../http/route";
import { computeClosure } from "./compute-closure";
import { getClosureHoldings } from "./get-closure-holdings";
import { getKeptLineageGraphView, getLineageGraphView } from "./get-lineage-graph-view";
import { CompactLineageGraphSchema, expandLineageGraph } from "@/lib/contracts/compact-lineage-graph";
import { keptJsonResponse } from "../http/kept-json";

const NOW = new Date("2026-11-29T12:00:00Z");
const query = (q: Record<string, string>) => ClosureQuerySchema.parse(q);
const day = (k: string): [string, string] => [k, k];

describe.each(providersUnderTest())("the closure API on the demo world (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
  }, 120_000);
  afterAll(async () => t.drop());

  it("stg_orders 2026-08-17 downstream: the day through the marts, W34 of the export, running_balance to the end", async () => {
    const closure = await computeClosure(query({ nodeId: "job:orders:stg_orders", units: "2026-08-17" }), NOW, t.db);
    expect(closure.direction).toBe("downstream");
    const byId = Object.fromEntries(closure.nodes.map((n) => [n.nodeId, { units: n.units, text: n.unitsText, via: n.via }]));
    expect(byId).toEqual({
      "job:orders:stg_orders": { units: [day("2026-08-17")], text: "2026-08-17", via: [] },
      "dataset:warehouse:stg_orders": { units: [day("2026-08-17")], text: "2026-08-17", via: ["job:orders:stg_orders"] },
      "job:orders:fct_orders": { units: [day("2026-08-17")], text: "2026-08-17", via: ["dataset:warehouse:stg_orders"] },
      "dataset:warehouse:fct_orders": { units: [day("2026-08-17")], text: "2026-08-17", via: ["job:orders:fct_orders"] },
      "job:orders:revenue_daily": { units: [day("2026-08-17")], text: "2026-08-17", via: ["dataset:warehouse:fct_orders"] },
      "dataset:warehouse:revenue_daily": { units: [day("2026-08-17")], text: "2026-08-17", via: ["job:orders:revenue_daily"] },
      "job:orders:refresh_executive_dashboard": { units: [day("2026-08-17")], text: "2026-08-17", via: ["dataset:warehouse:revenue_daily"] },
      "dataset:bi:executive_dashboard": { units: [day("2026-08-17")], text: "2026-08-17", via: ["job:orders:refresh_executive_dashboard"] },
      "job:ml:build_order_features": { units: [day("2026-08-17")], text: "2026-08-17", via: ["dataset:warehouse:fct_orders"] },
      "dataset:ml:order_features": { units: [day("2026-08-17")], text: "2026-08-17", via: ["job:ml:build_order_features"] },
      "job:finance:weekly_revenue_export": { units: [day("2026-W34")], text: "2026-W34", via: ["dataset:warehouse:revenue_daily"] },
      "dataset:finance:weekly_revenue_export": { units: [day("2026-W34")], text: "2026-W34", via: ["job:finance:weekly_revenue_export"] },
      "job:orders:running_balance": { units: [["2026-08-17", "2026-08-25"]], text: "2026-08-17 → 2026-08-25 (9 units)", via: ["dataset:warehouse:fct_orders"] },
      "dataset:warehouse:running_balance": {
        units: [["2026-08-17", "2026-08-25"]],
        text: "2026-08-17 → 2026-08-25 (9 units)",
        via: ["job:orders:running_balance"],
      },
      // The declared consumers reading what it reaches, after it: what they read, in words; never in a wave.
      "consumer:churn-model-team": { units: null, text: "2026-08-17 of order_features", via: ["dataset:ml:order_features"] },
      "consumer:finance-ledger": { units: null, text: "2026-W34 of weekly_revenue_export", via: ["dataset:finance:weekly_revenue_export"] },
      "consumer:revenue-dashboard": { units: null, text: "2026-08-17 of revenue_daily", via: ["dataset:warehouse:revenue_daily"] },
    });
    expect(closure.nodes.slice(-3).map((n) => [n.kind, n.depth])).toEqual([
      ["consumer", 6],
      ["consumer", 8],
      ["consumer", 6],
    ]);
    expect(closure.waves[0]).toEqual(["job:orders:stg_orders"]);
    expect(closure.waves.flat()).toHaveLength(14);
  });

  it("upstream of revenue_daily for August: all of 2026-08 back to raw_orders, and the whole customer snapshot", async () => {
    const closure = await computeClosure(
      query({ nodeId: "dataset:warehouse:revenue_daily", units: "2026-08-01..2026-08-25", direction: "upstream" }),
      NOW,
      t.db,
    );
    const byId = Object.fromEntries(closure.nodes.map((n) => [n.nodeId, n.unitsText]));
    expect(byId["dataset:warehouse:raw_orders"]).toBe("2026-08-01 → 2026-08-25 (25 units)");
    expect(byId["dataset:warehouse:dim_customers"]).toBe("the whole dataset (unpartitioned)");
    expect(closure.nodes.find((n) => n.nodeId === "dataset:warehouse:dim_customers")?.units).toBeNull();
    const july = await computeClosure(query({ nodeId: "dataset:warehouse:fct_orders", units: "2026-07-01..2026-07-31", direction: "upstream" }), NOW, t.db);
    expect(july.nodes.find((n) => n.nodeId === "dataset:warehouse:stg_orders")?.unitsText).toBe("all of 2026-07");
  });

  it("an unknown node is a 404 naming it; an invalid key a 400 with the domain's reason", async () => {
    const unknown = await computeClosure(query({ nodeId: "job:orders:nope", units: "2026-08-17" }), NOW, t.db).catch(errorResponse);
    expect((unknown as Response).status).toBe(404);
    expect(((await (unknown as Response).json()) as { message: string }).message).toContain("job:orders:nope is not in the lineage");
    const bad = await computeClosure(query({ nodeId: "job:orders:stg_orders", units: "2026-8-17" }), NOW, t.db).catch(errorResponse);
    expect((bad as Response).status).toBe(400);
    expect(await (bad as Response).json()).toMatchObject({ message: 'units: "2026-8-17" is not a day key (expected yyyy-MM-dd)' });
    const early = await computeClosure(query({ nodeId: "job:orders:stg_orders", units: "2026-01-01" }), NOW, t.db).catch(errorResponse);
    expect((early as Response).status).toBe(400);
    expect(() => ClosureQuerySchema.parse({ nodeId: "job:orders:stg_orders", direction: "sideways" })).toThrow(/direction/);
  });

  it("a consumer's closure is that of everything it reads: upstream, what its numbers are built from; unknown, a 404", async () => {
    const up = await computeClosure(query({ nodeId: "consumer:finance-ledger", direction: "upstream" }), NOW, t.db);
    const byId = Object.fromEntries(up.nodes.map((n) => [n.nodeId, n.unitsText]));
    expect(up.nodes.find((n) => n.seed)?.nodeId).toBe("dataset:finance:weekly_revenue_export");
    expect(byId["dataset:warehouse:raw_orders"]).toBe("2026-05-18 → 2026-08-23 (98 units)");
    const down = await computeClosure(query({ nodeId: "consumer:finance-ledger" }), NOW, t.db);
    expect(down.nodes.map((n) => n.nodeId)).toEqual(["dataset:finance:weekly_revenue_export", "consumer:finance-ledger"]);
    const unknown = await computeClosure(query({ nodeId: "consumer:nobody" }), NOW, t.db).catch(errorResponse);
    expect((unknown as Response).status).toBe(404);
  });

  it("as of a time before the lineage existed, the node is not in it (404)", async () => {
    const r = await computeClosure(query({ nodeId: "job:orders:stg_orders", asOf: "2020-01-01T00:00:00Z" }), NOW, t.db).catch(errorResponse);
    expect((r as Response).status).toBe(404);
  });

  it("what each node holds: 2026-08-10's export was already sent; 08-17's closure never ran", async () => {
    const sent = await getClosureHoldings(query({ nodeId: "job:orders:stg_orders", units: "2026-08-10" }), NOW, t.db);
    const exportHolds = sent.nodes.find((n) => n.nodeId === "dataset:finance:weekly_revenue_export")!.holdings;
    // Sent outside, and on figures built from stg_orders' duplicated 08-10 (seed 001: "B is green, its table is wrong").
    expect(exportHolds.map((h) => [h.kind, h.unitsText])).toEqual([
      ["sent_outside", "2026-W33"],
      ["suspect", "2026-W33"],
    ]);
    expect(exportHolds[1]!.detail).toMatch(
      /^published, but built on bad input: 2026-W33 built from upstream dataset:warehouse:revenue_daily 2026-08-10, which is itself suspect/,
    );
    const revenue = sent.nodes.find((n) => n.nodeId === "dataset:warehouse:revenue_daily")!.holdings;
    expect(revenue.find((h) => h.kind === "suspect")?.unitsText).toBe("2026-08-10");
    const failed = await getClosureHoldings(query({ nodeId: "job:orders:stg_orders", units: "2026-08-17" }), NOW, t.db);
    const balance = failed.nodes.find((n) => n.nodeId === "dataset:warehouse:running_balance")!.holdings;
    expect(balance.map((h) => [h.kind, h.unitsText])).toEqual([["never_ran", "2026-08-17 → 2026-08-25 (9 units)"]]);
    // The seed ran twice and left 20 of its 40 rows: a partial write, not "never ran".
    const seed = failed.nodes.find((n) => n.nodeId === "dataset:warehouse:stg_orders")!.holdings;
    expect(seed.map((h) => [h.kind, h.unitsText, h.detail.match(/\((\d+) rows\)/)?.[1]])).toEqual([["partial_write", "2026-08-17", "20"]]);
    expect(failed.failedAt).not.toBeNull();
    // 08-23's two tries failed without a row: it ran, so it is not "never ran" either.
    const empty = await getClosureHoldings(query({ nodeId: "job:orders:stg_orders", units: "2026-08-23" }), NOW, t.db);
    const seed23 = empty.nodes.find((n) => n.nodeId === "dataset:warehouse:stg_orders")!.holdings;
    expect(seed23.map((h) => [h.kind, h.unitsText])).toEqual([["failed_nothing_written", "2026-08-23"]]);
  });

  it("holdings nobody waits for any more stop (499), and a closure asked twice is the same answer", async () => {
    const gone = new AbortController();
    gone.abort();
    const stopped = await getClosureHoldings(query({ nodeId: "job:orders:stg_orders", units: "2026-08-17" }), NOW, t.db, gone.signal).catch(errorResponse);
    expect((stopped as Response).status).toBe(499);
    const q = query({ nodeId: "job:orders:stg_orders", units: "2026-08-17" });
    const [first, again] = [await computeClosure(q, NOW, t.db), await computeClosure(q, NOW, t.db)];
    expect(again).toEqual(first);
    expect(first.nodes.find((n) => n.nodeId === "dataset:warehouse:fct_orders")).toMatchObject({ units: [day("2026-08-17")], unitsText: "2026-08-17" });
  });

  it("the graph view: 30 nodes and 3 consumers, 28 walked edges, 3 consumers' reads and running_balance's self-read, roles by kind, a stable hash", async () => {
    const g = await getLineageGraphView(undefined, NOW, t.db);
    expect([g.nodes.length, g.edges.length]).toEqual([33, 32]);
    expect(g.nodes.filter((n) => n.kind === "consumer").map((n) => [n.id, n.pipeline, n.name, n.traits])).toEqual([
      ["consumer:churn-model-team", "consumers", "Churn model team", ["model team", "Churn model owners"]],
      ["consumer:finance-ledger", "consumers", "Finance ledger (export recipient)", ["export recipient", "Accounts payable"]],
      ["consumer:revenue-dashboard", "consumers", "Revenue dashboard", ["dashboard", "Executive team"]],
    ]);
    expect(g.edges.find((e) => e.target === "consumer:finance-ledger")).toMatchObject({
      source: "dataset:finance:weekly_revenue_export",
      kind: "reads",
      status: "exact",
    });
    expect(g.edges.filter((e) => e.status !== "exact").map((e) => [e.id, e.status, e.mapping, e.note])).toEqual([
      ["dataset:warehouse:running_balance->job:orders:running_balance", "self", "previous(1)", "reads its own past (previous(1)): its units are sequential"],
    ]);
    expect(g.nodes.find((n) => n.id === "dataset:bi:executive_dashboard")?.role).toBe("dashboard");
    expect(g.nodes.find((n) => n.id === "dataset:ml:order_features")?.role).toBe("model");
    expect(g.edges.find((e) => e.id === "dataset:warehouse:revenue_daily->job:finance:weekly_revenue_export")?.mapping).toBe("grain");
    expect((await getLineageGraphView(undefined, NOW, t.db)).hash).toBe(g.hash);
  });

  it("the graph view's kept compact answer (the page's) expands to the same view, self-read and consumers included", async () => {
    const { asOf, body } = await getKeptLineageGraphView(undefined, NOW, t.db, "compact");
    const compact = CompactLineageGraphSchema.parse(await keptJsonResponse(body, { asOf }).json());
    expect(compact.nodes).toHaveLength(33);
    expect(expandLineageGraph(compact)).toEqual(await getLineageGraphView(undefined, NOW, t.db));
  });
});
