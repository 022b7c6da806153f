import { describe, expect, it } from "vitest";
import { CompactHoldingsSchema, compactHoldings, expandHoldings } from "./compact-holdings";
import { someHoldings } from "@/test/components/lineage-builders";
import type { Holding } from "./lineage";

// stg_orders (partial write) -> fct_orders (never ran) -> revenue_daily (never ran, suspect unknown)
const neverRan: Holding = { kind: "never_ran", units: [["2026-08-17", "2026-08-17"]], unitsText: "2026-08-17", detail: "" };
const holdings = someHoldings({
  statesComputing: { done: 3, total: 10 },
  nodes: [...someHoldings().nodes, { nodeId: "dataset:warehouse:revenue_daily", holdings: [{ ...neverRan }], suspectUnknown: true }],
});

describe("the compact holdings", () => {
  it("spells each node id and distinct holding once, and expands back to the full answer", () => {
    const compact = CompactHoldingsSchema.parse(JSON.parse(JSON.stringify(compactHoldings(holdings))));
    expect(compact.ids).toEqual(["job:orders:stg_orders", "job:orders:fct_orders", "dataset:warehouse:revenue_daily"]);
    expect(compact.holdings.map((h) => h.kind)).toEqual(["partial_write", "never_ran"]);
    expect(compact.nodes).toEqual([
      [[0], 0],
      [[1], 0],
      [[1], 1],
    ]);
    expect(compact.statesComputing).toEqual({ done: 3, total: 10 });
    expect(expandHoldings(compact)).toEqual(holdings);
  });

  it("keeps apart holdings that differ only in their detail", () => {
    const two = someHoldings({
      nodes: [
        { nodeId: "job:a:x", holdings: [{ ...neverRan, kind: "partial_write", detail: "20 rows" }] },
        { nodeId: "job:a:y", holdings: [{ ...neverRan, kind: "partial_write", detail: "3 rows" }] },
      ],
    });
    expect(compactHoldings(two).holdings.map((h) => h.detail)).toEqual(["20 rows", "3 rows"]);
  });

  it("refuses to expand an answer that refers past its holdings or its ids", () => {
    const compact = compactHoldings(holdings);
    expect(() => expandHoldings({ ...compact, nodes: [[[5], 0], ...compact.nodes.slice(1)] })).toThrow("node 0 refers to holding 5 of 2");
    expect(() => expandHoldings({ ...compact, ids: compact.ids.slice(1) })).toThrow("name 2 nodes but describe 3");
  });
});
