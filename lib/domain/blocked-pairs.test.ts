import { describe, expect, it } from "vitest";
import { readsAFailure } from "./blocked-pairs";
import { ordersGraph, T } from "./test-fixtures/orders-graph";

const graph = ordersGraph();

describe("readsAFailure: which pairs of a repair wait on a failed pair", () => {
  const blocked = readsAFailure(graph, [{ taskNodeId: T.stg, unitKey: "2026-08-17" }]);
  it("holds back what reads the failed unit, through the partition mappings", () => {
    expect(blocked(T.fct, "2026-08-17")).toBe(true);
    expect(blocked(T.revenue, "2026-08-17")).toBe(true);
  });
  it("lets a branch that does not read it go on", () => {
    expect(blocked(T.fct, "2026-08-23")).toBe(false);
    expect(blocked(T.revenue, "2026-08-16")).toBe(false);
  });
  it("holds back every later unit of a sequential task that reads its own past", () => {
    const seq = readsAFailure(graph, [{ taskNodeId: T.balance, unitKey: "2026-08-20" }]);
    expect(seq(T.balance, "2026-08-21")).toBe(true);
    expect(seq(T.balance, "2026-08-19")).toBe(false);
  });
  it("nothing failed, nothing waits; an unknown task or key is not a reason to wait", () => {
    expect(readsAFailure(graph, [])(T.fct, "2026-08-17")).toBe(false);
    expect(readsAFailure(graph, [{ taskNodeId: "job:x:y", unitKey: "2026-08-17" }])(T.fct, "2026-08-17")).toBe(false);
  });
});
