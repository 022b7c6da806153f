import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINEAGE_NODE_SIZE } from "@/lib/contracts/lineage";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { DbtImportBodySchema } from "@/lib/contracts/ingestion-dbt";
import { importDbtArtifacts } from "../ingestion/import-dbt-artifacts";
import { fixtureText } from "../ingestion/testing/fixtures";
import { ElkThread } from "./layout/elk-threads";
import { getLineageGraphView } from "./get-lineage-graph-view";
import { getLineageLayout } from "./get-lineage-layout";

const NOW = new Date("2026-11-29T12:00:00Z");
const HEADER = 34;

describe.each(providersUnderTest())("the lineage layout on the server (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
  }, 120_000);
  afterAll(async () => t.drop());

  it("places every node inside its pipeline's box, left to right along each edge, boxes apart", async () => {
    const [graph, layout] = await Promise.all([getLineageGraphView(undefined, NOW, t.db), getLineageLayout({}, NOW, t.db)]);
    expect(layout.hash).toBe(graph.hash);
    expect(Object.keys(layout.positions).sort()).toEqual(graph.nodes.map((n) => n.id).sort());
    const box = new Map(layout.groups.map((g) => [g.pipeline, g]));
    expect([...box.keys()].sort()).toEqual([...new Set(graph.nodes.map((n) => n.pipeline))].sort());
    for (const n of graph.nodes) {
      const at = layout.positions[n.id]!;
      const g = box.get(n.pipeline)!;
      expect(at.x).toBeGreaterThanOrEqual(0);
      expect(at.y).toBeGreaterThanOrEqual(HEADER);
      expect(at.x + LINEAGE_NODE_SIZE.width).toBeLessThanOrEqual(g.width);
      expect(at.y + LINEAGE_NODE_SIZE.height).toBeLessThanOrEqual(g.height);
    }
    const pipelineOf = new Map(graph.nodes.map((n) => [n.id, n.pipeline]));
    for (const e of graph.edges) {
      if (pipelineOf.get(e.source) !== pipelineOf.get(e.target) || e.status === "self") continue;
      expect(layout.positions[e.source]!.x, `${e.source} → ${e.target}`).toBeLessThan(layout.positions[e.target]!.x);
    }
    for (const a of layout.groups) {
      for (const b of layout.groups) {
        if (a === b) continue;
        const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart, `${a.pipeline} and ${b.pipeline} overlap`).toBe(true);
      }
    }
  });

  it("a collapsed pipeline is one box without node positions; unknown pipelines in the link are ignored", async () => {
    const layout = await getLineageLayout({ collapsed: "orders,no_such_pipeline" }, NOW, t.db);
    expect(layout.collapsed).toEqual(["orders"]);
    const orders = layout.groups.find((g) => g.pipeline === "orders")!;
    expect(orders).toMatchObject({ collapsed: true, width: 230, height: 64 });
    expect(orders.nodeCount).toBeGreaterThan(5);
    expect(Object.keys(layout.positions).some((id) => id === "job:orders:stg_orders")).toBe(false);
    // The other pipelines are not laid out again: their nodes keep their places inside their boxes.
    const whole = await getLineageLayout({}, NOW, t.db);
    for (const [id, at] of Object.entries(layout.positions)) expect(at, id).toEqual(whole.positions[id]);
  });

  it("is laid out once per graph and collapsed set: the second ask is the kept layout", async () => {
    const first = await getLineageLayout({ collapsed: "ml" }, NOW, t.db);
    const again = await getLineageLayout({ collapsed: " ml," }, NOW, t.db);
    expect(again.positions).toBe(first.positions);
    expect((await getLineageLayout({}, NOW, t.db)).positions).not.toBe(first.positions);
  });

  it("an imported dbt project is one box, its command job's, datasets with the models that build them, left to right", async () => {
    const read = (f: string) => JSON.parse(fixtureText(`dbt/ol_fixture_jaffle_postgres_run/${f}`)) as unknown;
    await importDbtArtifacts(t.db, DbtImportBodySchema.parse({ manifest: read("manifest.json"), run_results: read("run_results.json") }));
    const [graph, layout] = await Promise.all([getLineageGraphView(undefined, NOW, t.db), getLineageLayout({}, NOW, t.db)]);
    const dbt = graph.nodes.filter((n) => n.id.includes("jaffle_shop") || n.namespace.startsWith("postgres://"));
    expect(dbt).toHaveLength(36);
    expect(new Set(dbt.map((n) => n.pipeline))).toEqual(new Set(["dbt-run-jaffle_shop"]));
    expect(layout.groups.map((g) => g.pipeline)).not.toContain("postgres://localhost:5432");
    const writes = graph.edges.filter((e) => e.kind === "writes" && e.target.includes("postgres.public."));
    expect(writes.length).toBeGreaterThanOrEqual(8);
    for (const e of writes) expect(layout.positions[e.source]!.x, `${e.source} → ${e.target}`).toBeLessThan(layout.positions[e.target]!.x);
  });
});

describe("a layout thread", () => {
  it("rejects what ELK refuses, with ELK's reason, and goes on laying out", async () => {
    const elk = new ElkThread();
    await expect(
      elk.layout({ id: "g", children: [{ id: "a", width: 10, height: 10 }], edges: [{ id: "e", sources: ["a"], targets: ["missing"] }] }),
    ).rejects.toThrow(/ELK could not lay the graph out: .*missing/);
    const laid = await elk.layout({
      id: "g",
      layoutOptions: { "elk.algorithm": "layered", "elk.direction": "RIGHT" },
      children: [
        { id: "a", width: 10, height: 10 },
        { id: "b", width: 10, height: 10 },
      ],
      edges: [{ id: "e", sources: ["a"], targets: ["b"] }],
    });
    const [a, b] = laid.children!;
    expect(a!.x!).toBeLessThan(b!.x!);
  });
});
