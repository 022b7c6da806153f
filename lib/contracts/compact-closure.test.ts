import { describe, expect, it } from "vitest";
import { CompactClosureSchema, compactClosure, expandClosure } from "./compact-closure";
import { aClosureNode } from "@/test/components/lineage-builders";
import { ClosureSchema, type Closure } from "./lineage";

// stg_orders -> fct_orders -(degraded: daily into monthly)-> revenue_monthly, read by the finance ledger
const closure: Closure = ClosureSchema.parse({
  asOf: "2026-08-26T06:00:00.000Z",
  direction: "downstream",
  nodes: [
    aClosureNode({ nodeId: "job:orders:stg_orders", seed: true }),
    aClosureNode({ nodeId: "dataset:warehouse:fct_orders", kind: "dataset", via: ["job:orders:stg_orders"], depth: 1 }),
    aClosureNode({
      nodeId: "dataset:warehouse:revenue_monthly",
      kind: "dataset",
      units: [["2026-08", "2026-08"]],
      unitsText: "all of 2026-08",
      via: ["dataset:warehouse:fct_orders"],
      degradedVia: [{ nodeId: "dataset:warehouse:fct_orders", reason: "identity between day and month" }],
      depth: 2,
    }),
    aClosureNode({
      nodeId: "consumer:finance-ledger",
      kind: "consumer",
      name: "finance ledger",
      units: null,
      unitCount: 0,
      unitsText: "all of 2026-08 of revenue_monthly",
      via: ["dataset:warehouse:revenue_monthly"],
      depth: 3,
    }),
  ],
  waves: [["job:orders:stg_orders"], ["dataset:warehouse:fct_orders"], ["dataset:warehouse:revenue_monthly"]],
});

describe("the compact closure", () => {
  it("spells each unit set and reason once, and expands back to the full answer", () => {
    const compact = CompactClosureSchema.parse(JSON.parse(JSON.stringify(compactClosure(closure))));
    expect(compact.unitSets.map((s) => s.unitsText)).toEqual(["2026-08-17", "all of 2026-08", "all of 2026-08 of revenue_monthly"]);
    expect(compact.reasons).toEqual(["identity between day and month"]);
    expect(compact.nodes[2]).toEqual([1, 1, 2, 0, [1], [[1, 0]]]);
    expect(compact.waves).toEqual([[0], [1], [2]]);
    expect(expandClosure(compact)).toEqual(closure);
  });

  it("refuses a closure whose node is reached from a node it does not hold", () => {
    const broken = { ...closure, nodes: [aClosureNode({ nodeId: "job:a:x", via: ["job:a:gone"] })], waves: [] };
    expect(() => compactClosure(broken)).toThrow("job:a:gone is reached from but not in the closure");
  });

  it("refuses to expand an answer that refers past its ids", () => {
    const compact = compactClosure(closure);
    expect(() => expandClosure({ ...compact, waves: [[7]] })).toThrow("refers to node 7 of 4");
  });
});
