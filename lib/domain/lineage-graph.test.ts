import { describe, expect, it } from "vitest";
import { closure } from "./closure";
import { datasetId, taskId } from "./ids";
import { buildLineageGraph, isSequential, writersOf, type LineageSpec } from "./lineage-graph";
import type { PartitionDef } from "./partitions";
import { D, ordersSpec, T } from "./test-fixtures/orders-graph";
import { UnitSet } from "./unit-set";

const day: PartitionDef = { kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-31", timezone: "UTC" };
const month: PartitionDef = { kind: "time", grain: "month", start: "2026-01", end: "2026-12", timezone: "UTC" };
const a = taskId("x", "a");
const b = taskId("x", "b");
const c = taskId("x", "c");
const da = datasetId("x", "a");
const db = datasetId("x", "b");
const dc = datasetId("x", "c");

const dataset = (id: typeof da, partitions: PartitionDef = day) => ({ id, kind: "table" as const, pipeline: "x", partitions });

describe("lineage graph", () => {
  it("builds the demo graph: a task's unit space is the partition definition of what it writes", () => {
    const g = buildLineageGraph(ordersSpec());
    expect(g.problems).toEqual([]);
    expect(g.nodes[g.index.get(T.export)!]!.space.size).toBe(15);
    expect(g.nodes[g.index.get(T.fct)!]!.space.size).toBe(100);
    expect(writersOf(g, D.fct).map((t) => t.id)).toEqual([T.fct]);
    expect(writersOf(g, D.raw)).toEqual([]);
  });

  it("seed 000: a task reading its own previous unit is the sequential self-loop, legal and not a cycle", () => {
    const g = buildLineageGraph(ordersSpec());
    expect(isSequential(g, T.balance)).toBe(true);
    expect(isSequential(g, T.fct)).toBe(false);
    expect(g.selfReads.get(g.index.get(T.balance)!)).toEqual({ dataset: D.balance, mapping: { type: "previous", n: 1 }, kind: "sequential" });
  });

  it("dependsOnOwnPast without a declared self-read is still sequential (previous(1))", () => {
    const g = buildLineageGraph(ordersSpec({ fct: { dependsOnOwnPast: true } }));
    expect(g.selfLoops.get(g.index.get(T.fct)!)).toBe(1);
  });

  // a --writes--> da --identity--> a   (dbt incremental / MERGE: reads the unit it updates)
  it("a task reading the unit it writes (identity self-read) updates in place: no cycle, not sequential", () => {
    const g = buildLineageGraph({
      tasks: [{ id: a, pipeline: "x" }],
      datasets: [dataset(da)],
      writes: [{ task: a, dataset: da }],
      reads: [{ task: a, dataset: da, mapping: { type: "identity" } }],
    });
    expect(g.problems).toEqual([]);
    expect(g.selfReads.get(g.index.get(a)!)).toEqual({ dataset: da, mapping: { type: "identity" }, kind: "in_place" });
    expect(isSequential(g, a)).toBe(false);
    const down = closure(g, [{ node: a, units: UnitSet.of(16) }], "downstream");
    expect(down.entries.get(da)!.units.ranges()).toEqual([[16, 16]]);
  });

  it("a task reading all of what it writes (max(updated_at) of itself) depends on its own past", () => {
    const g = buildLineageGraph({
      tasks: [{ id: a, pipeline: "x" }],
      datasets: [dataset(da)],
      writes: [{ task: a, dataset: da }],
      reads: [{ task: a, dataset: da, mapping: { type: "all" } }],
    });
    expect(g.problems).toEqual([]);
    expect(isSequential(g, a)).toBe(true);
    const down = closure(g, [{ node: a, units: UnitSet.of(16) }], "downstream");
    expect(down.entries.get(da)!.units.ranges()).toEqual([[16, 30]]);
  });

  //   a --writes--> da --identity--> b --writes--> db --identity--> a   (a real cycle)
  it("a real cycle is cut at its newest read edge, reported with its path, and the rest still walks", () => {
    const g = buildLineageGraph({
      tasks: [
        { id: a, pipeline: "x" },
        { id: b, pipeline: "x" },
      ],
      datasets: [dataset(da), dataset(db)],
      writes: [
        { task: a, dataset: da },
        { task: b, dataset: db },
      ],
      reads: [
        { task: b, dataset: da, mapping: { type: "identity" }, since: 100 },
        { task: a, dataset: db, mapping: { type: "identity" }, since: 200 },
      ],
    });
    expect(g.topo).toHaveLength(4);
    expect(g.cutEdges.map((e) => [e.task, e.dataset])).toEqual([[a, db]]);
    const problem = g.problems[0]!;
    expect(problem.code).toBe("cycle_cut");
    if (problem.code !== "cycle_cut") return;
    expect(problem.cycle[0]).toBe(problem.cycle[problem.cycle.length - 1]);
    expect(new Set(problem.cycle)).toEqual(new Set([a, da, b, db]));
    expect(problem.message).toContain(`${a} reading ${db} is left out of closures`);
    const down = closure(g, [{ node: a, units: UnitSet.of(3) }], "downstream");
    expect([...down.entries.keys()]).toEqual([a, da, b, db]);
  });

  it("two interlocking cycles are both cut, ties broken by node id, and the order covers every node", () => {
    const g = buildLineageGraph({
      tasks: [
        { id: a, pipeline: "x" },
        { id: b, pipeline: "x" },
        { id: c, pipeline: "x" },
      ],
      datasets: [dataset(da), dataset(db), dataset(dc)],
      writes: [
        { task: a, dataset: da },
        { task: b, dataset: db },
        { task: c, dataset: dc },
      ],
      reads: [
        { task: b, dataset: da, mapping: { type: "identity" } },
        { task: c, dataset: db, mapping: { type: "identity" } },
        { task: a, dataset: dc, mapping: { type: "identity" } },
        { task: a, dataset: db, mapping: { type: "identity" } },
      ],
    });
    expect(g.topo).toHaveLength(6);
    // with no observation times, the read into the last task by id goes first: c←db, then b←da
    expect(g.cutEdges.map((e) => [e.task, e.dataset])).toEqual([
      [c, db],
      [b, da],
    ]);
    // every remaining edge points forward in the order
    const at = new Map(g.topo.map((n, i) => [n, i]));
    for (const edges of g.out) for (const e of edges) expect(at.get(e.from)!).toBeLessThan(at.get(e.to)!);
  });

  // db (daily) --identity--> a --writes--> da (monthly): identity cannot relate day to month
  it("a mapping that cannot relate the two definitions is a degraded edge, walked as every unit", () => {
    const g = buildLineageGraph({
      tasks: [{ id: a, pipeline: "x" }],
      datasets: [dataset(da, month), dataset(db, day)],
      writes: [{ task: a, dataset: da }],
      reads: [{ task: a, dataset: db, mapping: { type: "identity" } }],
    });
    expect(g.problems.map((p) => p.code)).toEqual(["degraded_edge"]);
    expect(g.problems[0]!.message).toMatch(/identity cannot relate daily partitions to monthly partitions/);
    const edge = g.in[g.index.get(a)!]![0]!;
    expect(edge.degraded).toMatch(/walked as all units/);
    const down = closure(g, [{ node: db, units: UnitSet.of(16) }], "downstream");
    expect(down.entries.get(a)!.units.size).toBe(12);
    expect(down.entries.get(a)!.degradedVia).toEqual([{ node: db, reason: edge.degraded }]);
    const up = closure(g, [{ node: a, units: UnitSet.of(7) }], "upstream");
    expect(up.entries.get(db)!.units.size).toBe(31);
  });

  // raw (unpartitioned) --identity--> a (daily): every day reads the one unit, exactly
  it("identity with an unpartitioned side means the whole of it, exactly: not degraded", () => {
    const g = buildLineageGraph({
      tasks: [{ id: a, pipeline: "x" }],
      datasets: [dataset(da, day), dataset(db, { kind: "none" })],
      writes: [{ task: a, dataset: da }],
      reads: [{ task: a, dataset: db, mapping: { type: "identity" } }],
    });
    expect(g.problems).toEqual([]);
    const down = closure(g, [{ node: db, units: UnitSet.of(0) }], "downstream");
    expect(down.entries.get(da)!.units.size).toBe(31);
    expect(down.entries.get(da)!.degradedVia).toEqual([]);
  });

  it("a task writing two differently partitioned datasets takes the partitioned one's units; the other write is degraded", () => {
    const g = buildLineageGraph({
      tasks: [{ id: a, pipeline: "x" }],
      datasets: [dataset(da, month), dataset(db, day), dataset(dc, { kind: "none" })],
      writes: [
        { task: a, dataset: dc },
        { task: a, dataset: db },
        { task: a, dataset: da },
      ],
      reads: [],
    });
    expect(g.nodes[g.index.get(a)!]!.space.size).toBe(31);
    expect(g.problems.map((p) => [p.code, p.code === "degraded_edge" ? p.dataset : null])).toEqual([["degraded_edge", da]]);
    const down = closure(g, [{ node: a, units: UnitSet.of(2) }], "downstream");
    expect(down.entries.get(dc)!.units.size).toBe(1);
    expect(down.entries.get(da)!.units.size).toBe(12);
  });

  it("undeclared nodes, duplicate nodes and definitions that do not resolve are reported, never fatal", () => {
    const spec: LineageSpec = {
      tasks: [{ id: a, pipeline: "x" }],
      datasets: [dataset(da), dataset(da, month), dataset(db, { kind: "time", grain: "day", start: "2026-08-01", timezone: "Mars/Olympus" })],
      writes: [{ task: a, dataset: da }],
      reads: [
        { task: a, dataset: datasetId("x", "ghost"), mapping: { type: "all" } },
        { task: a, dataset: db, mapping: { type: "identity" } },
      ],
    };
    const g = buildLineageGraph(spec, { asOf: Date.UTC(2026, 8, 1) });
    expect(g.problems.map((p) => p.code).sort()).toEqual(["bad_partitions", "duplicate_node", "unknown_node"]);
    expect(g.nodes[g.index.get(db)!]!.space.def).toEqual({ kind: "none" });
    expect(g.topo).toHaveLength(3);
  });
});
