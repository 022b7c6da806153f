import { describe, expect, it } from "vitest";
import type { LineageGraphView, LineageNode } from "@/lib/contracts/lineage";
import { closureAlone } from "./closure-alone";
import { flowElements } from "./flow-elements";
import { placedOf } from "./framing";

// raw_orders -> stg_orders (task) -> stg_orders (dataset) -> fct_orders (task)      [orders]
//                                    stg_orders (dataset) -> build_features (task)  [ml]
const node = (id: string, pipeline: string): LineageNode => ({
  id,
  kind: id.startsWith("job:") ? "task" : "dataset",
  role: id.startsWith("job:") ? "task" : "dataset",
  name: id.split(":")[2]!,
  namespace: id.split(":")[1]!,
  pipeline,
  partitions: "daily",
  traits: [],
});
const edge = (source: string, target: string) => ({
  id: `${source}>${target}`,
  source,
  target,
  kind: "reads" as const,
  mapping: "identity",
  status: "exact" as const,
  note: "",
});
const graph: LineageGraphView = {
  asOf: "2026-08-20T00:00:00.000Z",
  hash: "h",
  nodes: [
    node("dataset:w:raw_orders", "orders"),
    node("job:orders:stg_orders", "orders"),
    node("dataset:w:stg_orders", "orders"),
    node("job:orders:fct_orders", "orders"),
    node("job:ml:build_features", "ml"),
  ],
  edges: [
    edge("dataset:w:raw_orders", "job:orders:stg_orders"),
    edge("job:orders:stg_orders", "dataset:w:stg_orders"),
    edge("dataset:w:stg_orders", "job:orders:fct_orders"),
    edge("dataset:w:stg_orders", "job:ml:build_features"),
  ],
};

describe("closureAlone", () => {
  // The downstream closure of stg_orders, laid out on its own by the server.
  const layout = {
    positions: {
      "job:orders:stg_orders": { x: 0, y: 50 },
      "dataset:w:stg_orders": { x: 236, y: 50 },
      "job:orders:fct_orders": { x: 472, y: 0 },
      "job:ml:build_features": { x: 472, y: 100 },
      "dataset:w:gone": { x: 708, y: 0 },
    },
    width: 672,
    height: 184,
  };

  it("draws the closure's nodes and the edges between them, without the rest of the lineage or pipeline boxes", () => {
    const alone = closureAlone(graph, layout);
    expect(alone.graph.nodes.map((n) => n.id)).toEqual(["job:orders:stg_orders", "dataset:w:stg_orders", "job:orders:fct_orders", "job:ml:build_features"]);
    expect(alone.graph.edges.map((e) => e.id)).toEqual([
      "job:orders:stg_orders>dataset:w:stg_orders",
      "dataset:w:stg_orders>job:orders:fct_orders",
      "dataset:w:stg_orders>job:ml:build_features",
    ]);
    // A node the graph does not hold (the catalog changed between the answers) is not drawn.
    expect(alone.layout.groups).toEqual([]);
    expect(Object.keys(alone.layout.positions)).toEqual(alone.graph.nodes.map((n) => n.id));
  });

  it("places the nodes at the layout's own coordinates: no node has a parent box", () => {
    const alone = closureAlone(graph, layout);
    const { nodes, edges } = flowElements(alone.graph, alone.layout);
    expect(nodes.map((n) => [n.id, n.parentId, n.position])).toEqual([
      ["job:orders:stg_orders", undefined, { x: 0, y: 50 }],
      ["dataset:w:stg_orders", undefined, { x: 236, y: 50 }],
      ["job:orders:fct_orders", undefined, { x: 472, y: 0 }],
      ["job:ml:build_features", undefined, { x: 472, y: 100 }],
    ]);
    expect(edges).toHaveLength(3);
    expect(placedOf(alone.layout, () => undefined).find((p) => p.id === "job:ml:build_features")!.rect).toMatchObject({ x: 472, y: 100 });
  });
});
