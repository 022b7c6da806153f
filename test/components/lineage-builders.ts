import {
  ClosureNodeSchema,
  ClosureSchema,
  HoldingsSchema,
  LINEAGE_NODE_SIZE,
  LineageGraphSchema,
  LineageLayoutSchema,
  LineageNodeSchema,
  type Closure,
  type ClosureNode,
  type Holdings,
  type LineageGraphView,
  type LineageLayout,
  type LineageNode,
} from "@/lib/contracts/lineage";

/**
 * Typed builders of the lineage page's answers (graph, layout, closure, holdings), carrying the
 * demo's orders pipeline and the finance export built on it, each parsed with its contract's
 * schema as in builders.ts.
 */

export function aLineageNode(over: Partial<LineageNode> & Pick<LineageNode, "id">): LineageNode {
  const [kind, namespace, name] = over.id.split(":") as [string, string, string];
  return LineageNodeSchema.parse({
    kind: kind === "job" ? "task" : "dataset",
    role: kind === "job" ? "task" : "dataset",
    name,
    namespace,
    pipeline: kind === "job" ? namespace : "orders",
    partitions: "daily from 2026-05-18 to 2026-08-25",
    traits: kind === "job" ? ["replace"] : [],
    ...over,
  });
}

/**
 * raw_orders → stg_orders → fct_orders → revenue_daily (orders), and weekly_revenue_export
 * (finance) reading revenue_daily by week: a task and the table it writes for each step.
 */
export function aLineageGraph(over: Partial<LineageGraphView> = {}): LineageGraphView {
  const nodes = [
    aLineageNode({ id: "dataset:warehouse:raw_orders" }),
    aLineageNode({ id: "job:orders:stg_orders", traits: ["append"] }),
    aLineageNode({ id: "dataset:warehouse:stg_orders" }),
    aLineageNode({ id: "job:orders:fct_orders" }),
    aLineageNode({ id: "dataset:warehouse:fct_orders" }),
    aLineageNode({ id: "job:orders:revenue_daily" }),
    aLineageNode({ id: "dataset:warehouse:revenue_daily" }),
    aLineageNode({ id: "job:finance:weekly_revenue_export", partitions: "weekly from 2026-W21 to 2026-W35", traits: ["replace", "external side effect"] }),
  ];
  const chain = nodes.map((n) => n.id);
  const edges = chain.slice(1).map((target, i) => {
    const source = chain[i]!;
    const reads = target.startsWith("job:");
    return {
      id: `${source}->${target}`,
      source,
      target,
      kind: reads ? "reads" : "writes",
      mapping: reads ? (target.includes("weekly") ? "day → week" : "identity") : "",
      status: "exact",
      note: "",
    };
  });
  return LineageGraphSchema.parse({ asOf: "2026-08-26T06:00:00.000Z", hash: "graph-1", nodes, edges, ...over });
}

/** Each pipeline in one row of boxes, its nodes left to right in graph order. */
export function aLineageLayout(graph: LineageGraphView = aLineageGraph(), over: Partial<LineageLayout> = {}): LineageLayout {
  const pipelines = [...new Set(graph.nodes.map((n) => n.pipeline))];
  const step = LINEAGE_NODE_SIZE.width + 40;
  const inPipeline = (p: string) => graph.nodes.filter((n) => n.pipeline === p);
  let x = 0;
  const groups = pipelines.map((pipeline) => {
    const width = inPipeline(pipeline).length * step + 40;
    const box = { pipeline, x, y: 0, width, height: LINEAGE_NODE_SIZE.height + 80, collapsed: false, nodeCount: inPipeline(pipeline).length };
    x += width + 60;
    return box;
  });
  const positions = Object.fromEntries(pipelines.flatMap((p) => inPipeline(p).map((n, i) => [n.id, { x: 20 + i * step, y: 50 }])));
  return LineageLayoutSchema.parse({ groups, positions, hash: graph.hash, collapsed: [], ...over });
}

export function aClosureNode(over: Partial<ClosureNode> & Pick<ClosureNode, "nodeId">): ClosureNode {
  const [kind, , name] = over.nodeId.split(":") as [string, string, string];
  return ClosureNodeSchema.parse({
    kind: kind === "job" ? "task" : "dataset",
    name,
    units: [["2026-08-17", "2026-08-17"]],
    unitCount: 1,
    unitsText: "2026-08-17",
    via: [],
    degradedVia: [],
    seed: false,
    depth: 0,
    ...over,
  });
}

/** The downstream closure of `from` (a node of aLineageGraph) for 2026-08-17: every node after it, one wave each. */
export function aClosure(from = "job:orders:stg_orders", over: Partial<Closure> = {}): Closure {
  const chain = aLineageGraph().nodes.map((n) => n.id);
  const reached = chain.slice(chain.indexOf(from));
  const nodes = reached.map((nodeId, depth) =>
    nodeId.includes("weekly")
      ? aClosureNode({ nodeId, depth, via: [reached[depth - 1]!], units: [["2026-W34", "2026-W34"]], unitsText: "2026-W34" })
      : aClosureNode({ nodeId, depth, seed: depth === 0, via: depth === 0 ? [] : [reached[depth - 1]!] }),
  );
  return ClosureSchema.parse({ asOf: "2026-08-26T06:00:00.000Z", direction: "downstream", nodes, waves: reached.map((id) => [id]), ...over });
}

/** What the closure of stg_orders 2026-08-17 holds: the failed tries' partial write, nothing built after it. */
export function someHoldings(over: Partial<Holdings> = {}): Holdings {
  return HoldingsSchema.parse({
    asOf: "2026-08-26T06:00:00.000Z",
    failedAt: "2026-08-18T02:10:00.000Z",
    statesComputing: null,
    nodes: [
      {
        nodeId: "job:orders:stg_orders",
        holdings: [{ kind: "partial_write", units: [["2026-08-17", "2026-08-17"]], unitsText: "2026-08-17", detail: "20 rows left by the failed tries" }],
      },
      {
        nodeId: "job:orders:fct_orders",
        holdings: [{ kind: "never_ran", units: [["2026-08-17", "2026-08-17"]], unitsText: "2026-08-17", detail: "" }],
      },
    ],
    ...over,
  });
}
