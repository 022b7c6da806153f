import { describe, expect, it } from "vitest";
import { SCOPE_NODE_SIZE } from "@/lib/contracts/repair";
import { ElkThread } from "./elk-threads";
import { layoutScope } from "./layout-scope";

const node = (nodeId: string) => ({ nodeId });
const chain = (n: number) => ({
  nodes: Array.from({ length: n }, (_, i) => node(`job:p:t${i}`)),
  edges: Array.from({ length: n - 1 }, (_, i) => ({ from: `job:p:t${i}`, to: `job:p:t${i + 1}` })),
});

describe("the scope graph, laid out by the layout threads (elk.worker.mjs)", () => {
  it("puts each node after the one it reads, left to right, every node placed", async () => {
    const elk = new ElkThread();
    const scope = chain(4);
    const layout = await layoutScope(elk, scope);
    expect(Object.keys(layout.positions).sort()).toEqual(scope.nodes.map((n) => n.nodeId).sort());
    for (const e of scope.edges) expect(layout.positions[e.to]!.x).toBeGreaterThanOrEqual(layout.positions[e.from]!.x + SCOPE_NODE_SIZE.width);
    expect(layout.width).toBeLessThanOrEqual(1100);
  });

  it("wraps a scope wider than the wizard's column into rows", async () => {
    const layout = await layoutScope(new ElkThread(), chain(12));
    const rows = new Set(Object.values(layout.positions).map((p) => Math.round(p.y)));
    expect(rows.size).toBeGreaterThan(1);
    expect(layout.width).toBeLessThan(12 * SCOPE_NODE_SIZE.width);
  });
});
