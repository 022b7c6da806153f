import { describe, expect, it } from "vitest";
import { datasetId, taskId } from "./ids";
import { buildLineageGraph, isSequential, topologicalOrder, writersOf } from "./lineage-graph";
import { D, ordersSpec, T } from "./test-fixtures/orders-graph";

const day = { kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-31", timezone: "UTC" } as const;
const a = taskId("x", "a");
const b = taskId("x", "b");
const da = datasetId("x", "a");
const db = datasetId("x", "b");

describe("lineage graph", () => {
  it("builds the demo graph: a task's unit space is the partition definition of what it writes", () => {
    const r = buildLineageGraph(ordersSpec());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.graph.nodes[r.graph.index.get(T.export)!]!.space.size).toBe(15);
    expect(r.graph.nodes[r.graph.index.get(T.fct)!]!.space.size).toBe(100);
    expect(writersOf(r.graph, D.fct).map((t) => t.id)).toEqual([T.fct]);
    expect(writersOf(r.graph, D.raw)).toEqual([]);
  });

  it("seed 000: a task reading its own previous unit is the sequential self-loop, legal and not a cycle", () => {
    const r = buildLineageGraph(ordersSpec());
    expect(r.ok && isSequential(r.graph, T.balance)).toBe(true);
    expect(r.ok && isSequential(r.graph, T.fct)).toBe(false);
  });

  it("dependsOnOwnPast without a declared self-read is still sequential (previous(1))", () => {
    const r = buildLineageGraph(ordersSpec({ fct: { dependsOnOwnPast: true } }));
    expect(r.ok && r.graph.selfLoops.get(r.graph.index.get(T.fct)!)).toBe(1);
  });

  it("reports a real cycle with its path instead of looping", () => {
    const r = buildLineageGraph({
      tasks: [{ id: a, pipeline: "x" }, { id: b, pipeline: "x" }],
      datasets: [{ id: da, kind: "table", pipeline: "x", partitions: day }, { id: db, kind: "table", pipeline: "x", partitions: day }],
      writes: [{ task: a, dataset: da }, { task: b, dataset: db }],
      reads: [{ task: b, dataset: da, mapping: { type: "identity" } }, { task: a, dataset: db, mapping: { type: "identity" } }],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const cycle = r.errors[0]!;
    expect(cycle.code).toBe("cycle");
    if (cycle.code !== "cycle") return;
    expect(cycle.cycle[0]).toBe(cycle.cycle[cycle.cycle.length - 1]);
    expect(new Set(cycle.cycle)).toEqual(new Set([a, da, b, db]));
  });

  it("a task reading its own CURRENT unit (identity self-read) is a cycle, not a sequential model", () => {
    const r = buildLineageGraph({
      tasks: [{ id: a, pipeline: "x" }],
      datasets: [{ id: da, kind: "table", pipeline: "x", partitions: day }],
      writes: [{ task: a, dataset: da }],
      reads: [{ task: a, dataset: da, mapping: { type: "identity" } }],
    });
    expect(r.ok ? [] : r.errors.map((e) => e.code)).toEqual(["cycle"]);
  });

  it("rejects mappings that cannot relate the two definitions, and undeclared nodes", () => {
    const r = buildLineageGraph({
      tasks: [{ id: a, pipeline: "x" }],
      datasets: [
        { id: da, kind: "table", pipeline: "x", partitions: { kind: "time", grain: "month", start: "2026-01", end: "2026-12", timezone: "UTC" } },
        { id: db, kind: "table", pipeline: "x", partitions: day },
      ],
      writes: [{ task: a, dataset: da }],
      reads: [{ task: a, dataset: db, mapping: { type: "identity" } }, { task: a, dataset: datasetId("x", "ghost"), mapping: { type: "all" } }],
    });
    expect(r.ok ? [] : r.errors.map((e) => e.code).sort()).toEqual(["bad_mapping", "unknown_node"]);
  });

  it("topologicalOrder finds the cycle in a bare adjacency list", () => {
    const out = [[{ to: 1 }], [{ to: 2 }], [{ to: 1 }], []];
    expect(topologicalOrder(4, out)).toEqual({ ok: false, cycle: [1, 2, 1] });
    expect(topologicalOrder(3, [[{ to: 1 }], [{ to: 2 }], []])).toEqual({ ok: true, order: [0, 1, 2] });
  });
});
