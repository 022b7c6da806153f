import { describe, expect, it } from "vitest";
import { CompactLineageGraphSchema, compactLineageGraph, expandLineageGraph } from "./compact-lineage-graph";
import { aLineageGraph, aLineageNode } from "@/test/components/lineage-builders";

// raw_orders → stg_orders → fct_orders → revenue_daily (orders) → weekly_revenue_export (finance, by week)
const graph = aLineageGraph();
const compactOf = (g: typeof graph) => CompactLineageGraphSchema.parse(JSON.parse(JSON.stringify({ asOf: g.asOf, ...compactLineageGraph(g) })));

describe("the compact lineage graph", () => {
  it("spells each string once, sends no edge ids, and expands back to the full answer", () => {
    const compact = compactOf(graph);
    expect(compact.strings.filter((s) => s === "orders")).toHaveLength(1);
    expect(compact.strings).toContain("day → week");
    // stg_orders (node 1) writes its table (node 2): a write, exact, with no mapping and no note.
    const empty = compact.strings.indexOf("");
    expect(compact.edges[1]).toEqual([1, 2, 1, 0, empty, empty]);
    expect(JSON.stringify(compact)).not.toContain("->");
    expect(expandLineageGraph(compact)).toEqual(graph);
  });

  it("keeps an edge's status and note, and a consumer's own name", () => {
    const withConsumer = aLineageGraph({
      nodes: [...graph.nodes, aLineageNode({ id: "consumer:finance-ledger", kind: "consumer", role: "consumer", name: "Finance ledger", namespace: "" })],
      edges: [
        ...graph.edges,
        {
          id: "job:finance:weekly_revenue_export->consumer:finance-ledger",
          source: "job:finance:weekly_revenue_export",
          target: "consumer:finance-ledger",
          kind: "reads",
          mapping: "all",
          status: "degraded",
          note: "identity between week and month",
        },
      ],
    });
    expect(expandLineageGraph(compactOf(withConsumer))).toEqual(withConsumer);
  });

  it("refuses an edge to a node the graph does not hold, and an answer that refers past its strings", () => {
    const broken = { ...graph, edges: [{ ...graph.edges[0]!, target: "job:a:gone" }] };
    expect(() => compactLineageGraph(broken)).toThrow("an edge names job:a:gone, which is not a node");
    const compact = compactOf(graph);
    expect(() => expandLineageGraph({ ...compact, strings: [] })).toThrow("refers to string");
    expect(() => expandLineageGraph({ ...compact, edges: [[0, 99, 0, 0, 0, 0]] })).toThrow("names node 99 of 8");
  });
});
