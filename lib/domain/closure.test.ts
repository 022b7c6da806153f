import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closure, closurePath, sequentialExtent, type ClosureResult } from "./closure";
import type { NodeId } from "./ids";
import type { LineageGraph } from "./lineage-graph";
import { arbGraph } from "./test-fixtures/random-graph";
import { D, dayOrdinal, ordersGraph, T } from "./test-fixtures/orders-graph";
import { toKeyRanges, UnitSet } from "./unit-set";

// The demo lineage (seeds 000/001):
//
//   raw_orders ─id─► stg_orders ─id─► fct_orders ◄─latest─ dim_customers
//                                      │ id          │ id            │ id
//                                  revenue_daily  running_balance ◄┐  ml_features (ml)
//                                   │ id   │ day→week     └─previous(1)┘
//                     executive_dashboard  finance_weekly_export (finance, external)
const graph = ordersGraph();
const day = (key: string) => UnitSet.of(dayOrdinal(key));
const keys = (g: LineageGraph, r: ClosureResult, node: NodeId) => toKeyRanges(r.entries.get(node)!.units, g.nodes[g.index.get(node)!]!.space);

describe("closure on the demo lineage", () => {
  const down = closure(graph, [{ node: T.stg, units: day("2026-08-17") }], "downstream");

  it("bar: downstream of stg_orders 2026-08-17 is exactly the seed's blast radius", () => {
    const tasks = [...down.entries.values()].filter((e) => e.nodeKind === "task").map((e) => [e.node, keys(graph, down, e.node)]);
    expect(Object.fromEntries(tasks)).toEqual({
      [T.stg]: [["2026-08-17", "2026-08-17"]],
      [T.fct]: [["2026-08-17", "2026-08-17"]],
      [T.revenue]: [["2026-08-17", "2026-08-17"]],
      [T.dashboard]: [["2026-08-17", "2026-08-17"]],
      [T.features]: [["2026-08-17", "2026-08-17"]],
      [T.export]: [["2026-W34", "2026-W34"]],
      [T.balance]: [["2026-08-17", "2026-08-25"]],
    });
    expect(down.entries.get(T.balance)!.units.size).toBe(9);
    expect(down.entries.has(D.raw)).toBe(false);
    expect(down.entries.has(D.dim)).toBe(false);
    // 6 single-day tasks + 9 running_balance days, each written to its dataset: 15 × 2 pairs
    expect(down.pairCount).toBe(30);
    // The (task, unit) pairs alone — what scope, plan, run and history all count: 6 single-day tasks + 9 balance days.
    expect(down.taskPairCount).toBe(15);
  });

  it("seed 001: the closure comes from lineage, so cross-pipeline consumers (finance export, ML features) are in it", () => {
    expect(graph.nodes[graph.index.get(T.export)!]!.pipeline).toBe("finance");
    expect(down.entries.get(T.export)!.via).toEqual([D.revenue]);
    expect(down.entries.get(T.features)!.via).toEqual([D.fct]);
  });

  it("seed 000: a gap in a cumulative model invalidates everything after it, in one step", () => {
    expect(keys(graph, down, D.balance)).toEqual([["2026-08-17", "2026-08-25"]]);
    expect(down.entries.get(T.balance)!.units.rangeCount).toBe(1);
  });

  it("says why each node is there: predecessors and the edge path from the seed", () => {
    expect(closurePath(down, T.dashboard)).toEqual([T.stg, D.stg, T.fct, D.fct, T.revenue, D.revenue, T.dashboard]);
    expect(down.entries.get(T.stg)).toMatchObject({ seed: true, parent: null, depth: 0, via: [] });
    expect(down.entries.get(T.fct)).toMatchObject({ seed: false, parent: D.stg, depth: 2 });
  });

  it("seed 001: fix upstream first — task waves follow dependency order", () => {
    expect(down.taskWaves).toEqual([[T.stg], [T.fct], [T.revenue, T.balance, T.features], [T.dashboard, T.export]]);
    expect(down.nodeWaves[0]).toEqual([T.stg]);
    expect(down.entries.get(T.dashboard)!.nodeWave).toBe(6);
  });

  it("upstream of revenue_daily 2026-08-17 reaches the raw day and the current dimension snapshot", () => {
    const up = closure(graph, [{ node: T.revenue, units: day("2026-08-17") }], "upstream");
    expect(keys(graph, up, D.raw)).toEqual([["2026-08-17", "2026-08-17"]]);
    expect(keys(graph, up, D.dim)).toEqual([["*", "*"]]);
    expect(up.entries.has(T.balance)).toBe(false);
    expect(up.taskWaves).toEqual([[T.stg], [T.fct], [T.revenue]]);
  });

  it("upstream of a sequential unit reaches back to the start of its history", () => {
    const up = closure(graph, [{ node: T.balance, units: day("2026-05-20") }], "upstream");
    expect(keys(graph, up, D.raw)).toEqual([["2026-05-18", "2026-05-20"]]);
  });

  it("a changed current dimension snapshot widens to every unit that joined it as of now", () => {
    const dimChange = closure(graph, [{ node: D.dim, units: UnitSet.of(0) }], "downstream");
    expect(dimChange.entries.get(T.fct)!.units.size).toBe(100);
    expect(dimChange.entries.get(T.export)!.units.size).toBe(15);
  });

  it("seeds may be datasets, and a week roll-up widens a day to its whole week upstream", () => {
    const up = closure(graph, [{ node: D.export, units: UnitSet.of(13) }], "upstream");
    expect(keys(graph, up, D.revenue)).toEqual([["2026-08-17", "2026-08-23"]]);
  });

  it("stopAt includes a node but does not traverse past it", () => {
    const r = closure(graph, [{ node: T.stg, units: day("2026-08-17") }], "downstream", { stopAt: new Set([T.fct]) });
    expect([...r.entries.keys()]).toEqual([T.stg, D.stg, T.fct]);
  });

  it("a seed whose units all fall outside its space adds nothing, and is no seed", () => {
    const size = graph.nodes[graph.index.get(T.revenue)!]!.space.size;
    const r = closure(graph, [{ node: T.revenue, units: UnitSet.of(size + 3) }], "downstream");
    expect(r.entries.size).toBe(0);
    const beside = closure(
      graph,
      [
        { node: T.stg, units: day("2026-08-17") },
        { node: T.export, units: UnitSet.of(size + 3) },
      ],
      "downstream",
    );
    expect(beside.entries.get(T.stg)).toMatchObject({ seed: true, via: [], degradedVia: [] });
    expect(beside.entries.get(T.revenue)).toMatchObject({ seed: false, parent: D.fct, via: [D.fct] });
  });
});

describe("sequentialExtent", () => {
  it("previous(1) runs from the earliest unit to the end, previous(7) keeps its weekday residues", () => {
    expect(sequentialExtent(UnitSet.of(91, 95), 1, 100, "downstream").ranges()).toEqual([[91, 99]]);
    expect(sequentialExtent(UnitSet.of(80), 7, 100, "downstream").ranges()).toEqual([
      [80, 80],
      [87, 87],
      [94, 94],
    ]);
    expect(sequentialExtent(UnitSet.of(3), 1, 100, "upstream").ranges()).toEqual([[0, 3]]);
  });
});

// Unit-level reference: walk (node, unit) pairs one at a time through singleton mappings.
function naiveClosure(g: LineageGraph, node: number, unit: number, down: boolean): Set<string> {
  const seen = new Set<string>([`${node}:${unit}`]);
  const queue: [number, number][] = [[node, unit]];
  while (queue.length > 0) {
    const [n, u] = queue.pop()!;
    const next: [number, UnitSet][] = (down ? g.out[n]! : g.in[n]!).map((e) => [down ? e.to : e.from, down ? e.down(UnitSet.of(u)) : e.up(UnitSet.of(u))]);
    const loop = g.selfLoops.get(n);
    if (loop !== undefined) next.push([n, UnitSet.of(u).shift(down ? loop : -loop, g.nodes[n]!.space.size)]);
    for (const [m, units] of next) {
      for (const v of units) {
        if (!seen.has(`${m}:${v}`)) {
          seen.add(`${m}:${v}`);
          queue.push([m, v]);
        }
      }
    }
  }
  return seen;
}

const pairsOf = (g: LineageGraph, r: ClosureResult) => {
  const out = new Set<string>();
  for (const e of r.entries.values()) for (const u of e.units) out.add(`${g.index.get(e.node)}:${u}`);
  return out;
};

const arbCase = arbGraph.chain((g) =>
  fc.record({ g: fc.constant(g), node: fc.nat(g.nodes.length - 1), unit: fc.nat(19), other: fc.nat(g.nodes.length - 1), otherUnit: fc.nat(19) }),
);

describe("closure properties (fast-check over random lineages)", () => {
  it("contains its seed and is closed under the downstream relation", () => {
    fc.assert(
      fc.property(arbCase, ({ g, node, unit }) => {
        const seed = UnitSet.of(unit % g.nodes[node]!.space.size);
        const r = closure(g, [{ node: g.nodes[node]!.id, units: seed }], "downstream");
        expect(seed.difference(r.entries.get(g.nodes[node]!.id)!.units).isEmpty).toBe(true);
        for (const entry of r.entries.values()) {
          const i = g.index.get(entry.node)!;
          for (const e of g.out[i]!) {
            const target = r.entries.get(g.nodes[e.to]!.id)?.units ?? UnitSet.EMPTY;
            expect(e.down(entry.units).difference(target).isEmpty).toBe(true);
          }
          const loop = g.selfLoops.get(i);
          if (loop !== undefined) expect(entry.units.shift(loop, g.nodes[i]!.space.size).difference(entry.units).isEmpty).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("equals a unit-by-unit walk in both directions", () => {
    fc.assert(
      fc.property(arbCase, ({ g, node, unit }) => {
        const u = unit % g.nodes[node]!.space.size;
        for (const direction of ["downstream", "upstream"] as const) {
          const r = closure(g, [{ node: g.nodes[node]!.id, units: UnitSet.of(u) }], direction);
          expect(pairsOf(g, r)).toEqual(naiveClosure(g, node, u, direction === "downstream"));
        }
      }),
      { numRuns: 150 },
    );
  });

  it("upstream and downstream are converse: (b,j) ∈ down(a,i) ⇔ (a,i) ∈ up(b,j)", () => {
    fc.assert(
      fc.property(arbCase, ({ g, node, unit, other, otherUnit }) => {
        const [a, b] = [g.nodes[node]!, g.nodes[other]!];
        const [i, j] = [unit % a.space.size, otherUnit % b.space.size];
        const down = closure(g, [{ node: a.id, units: UnitSet.of(i) }], "downstream");
        const up = closure(g, [{ node: b.id, units: UnitSet.of(j) }], "upstream");
        const forward = down.entries.get(b.id)?.units.contains(j) ?? false;
        const backward = up.entries.get(a.id)?.units.contains(i) ?? false;
        expect(forward).toBe(backward);
      }),
      { numRuns: 300 },
    );
  });

  it("task waves respect every edge among included tasks", () => {
    fc.assert(
      fc.property(arbCase, ({ g, node, unit }) => {
        const r = closure(g, [{ node: g.nodes[node]!.id, units: UnitSet.of(unit % g.nodes[node]!.space.size) }], "downstream");
        const wave = new Map<string, number>();
        r.taskWaves.forEach((w, k) => w.forEach((t) => wave.set(t, k)));
        for (const e of g.out.flat()) {
          const [from, to] = [g.nodes[e.from]!, g.nodes[e.to]!];
          if (to.nodeKind !== "task" || !wave.has(to.id)) continue;
          for (const w of g.in[e.from]!) {
            const writer = g.nodes[w.from]!.id;
            if (from.nodeKind === "dataset" && wave.has(writer)) expect(wave.get(writer)!).toBeLessThan(wave.get(to.id)!);
          }
        }
      }),
    );
  });
});
