import { describe, expect, it } from "vitest";
import type { NodeId } from "./ids";
import { walkToRootCauses } from "./root-cause";
import { D, dayOrdinal, ordersGraph, T } from "./test-fixtures/orders-graph";
import { UnitSet } from "./unit-set";
import type { UnitState } from "./unit-state";

// The demo lineage (test-fixtures/orders-graph.ts):
//   raw_orders ─id─► stg_orders ─id─► fct_orders ─id─► revenue_daily ─day→week─► finance_weekly_export
//                                          └─id─► running_balance ◄─previous(1)─┘
const graph = ordersGraph();
const day = (key: string) => UnitSet.of(dayOrdinal(key));
const days = (from: string, to: string) => UnitSet.range(dayOrdinal(from), dayOrdinal(to));

/** States by "<dataset id> <key>"; every other expected unit is published. */
function world(states: Record<string, UnitState>) {
  return (d: number, o: number): UnitState | undefined => {
    const node = graph.nodes[d]!;
    return states[`${node.id} ${node.space.keyAt(o)}`] ?? "published";
  };
}

/** The demo's August: stg_orders 2026-08-10 holds one and a half copies, 2026-08-17 and 2026-08-23 failed. */
function demoAugust(): Record<string, UnitState> {
  const s: Record<string, UnitState> = {
    [`${D.stg} 2026-08-10`]: "duplicate",
    [`${D.fct} 2026-08-10`]: "divergent",
    [`${D.revenue} 2026-08-10`]: "suspect",
    [`${D.export} 2026-W33`]: "suspect",
    [`${D.stg} 2026-08-17`]: "failed",
    [`${D.stg} 2026-08-23`]: "failed",
  };
  for (const k of ["2026-08-17", "2026-08-23"]) for (const d of [D.fct, D.revenue, D.dashboard, D.features]) s[`${d} ${k}`] = "blocked";
  for (let o = dayOrdinal("2026-08-10"); o <= dayOrdinal("2026-08-25"); o++) {
    const k = graph.nodes[graph.index.get(D.balance)!]!.space.keyAt(o);
    s[`${D.balance} ${k}`] = o >= dayOrdinal("2026-08-17") ? "blocked" : "suspect";
  }
  return s;
}

const rootsOf = (taskNodeId: NodeId, units: UnitSet, states: Record<string, UnitState>) => {
  const walk = walkToRootCauses(graph, { taskNodeId, units }, world(states));
  return { ...walk, named: walk.roots.map((r) => [r.taskNodeId, r.units.map((u) => `${u.key} ${u.state}`)]) };
};

describe("the root-cause walk", () => {
  it("a blocked unit leads to the failed unit it waits on, two hops up", () => {
    const walk = rootsOf(T.revenue, day("2026-08-17"), demoAugust());
    expect(walk.symptom).toEqual([{ datasetNodeId: D.revenue, key: "2026-08-17", state: "blocked" }]);
    expect(walk.named).toEqual([[T.stg, ["2026-08-17 failed"]]]);
    expect(walk.symptomIsRoot).toBe(false);
  });

  it("a failed unit whose inputs are sound is its own root cause", () => {
    const walk = rootsOf(T.stg, day("2026-08-17"), demoAugust());
    expect(walk.named).toEqual([[T.stg, ["2026-08-17 failed"]]]);
    expect(walk.symptomIsRoot).toBe(true);
  });

  it("through a previous(1) self-loop: a suspect running balance is followed day by day back to the duplicated 2026-08-10", () => {
    const walk = rootsOf(T.balance, day("2026-08-14"), demoAugust());
    // balance 08-14 ← 08-13 ← … ← 08-10 (suspect) ← fct_orders 08-10 (divergent) ← stg_orders 08-10 (duplicate): the earliest.
    expect(walk.named).toEqual([[T.stg, ["2026-08-10 duplicate"]]]);
  });

  it("a sequential unit after two bad days names both root causes, earliest first, and never their symptoms", () => {
    const walk = rootsOf(T.balance, day("2026-08-25"), demoAugust());
    expect(walk.named).toEqual([[T.stg, ["2026-08-10 duplicate", "2026-08-17 failed", "2026-08-23 failed"]]]);
    expect(walk.roots.flatMap((r) => r.units).some((u) => u.state === "divergent" || u.state === "suspect")).toBe(false);
  });

  it("through a roll-up (day → ISO week): the finance export's 2026-W33 leads to stg_orders 2026-08-10", () => {
    const w33 = graph.nodes[graph.index.get(T.export)!]!.space.validate("2026-W33");
    if (!w33.valid) throw new Error(w33.reason);
    const walk = rootsOf(T.export, UnitSet.of(w33.ordinal), demoAugust());
    expect(walk.symptom).toEqual([{ datasetNodeId: D.export, key: "2026-W33", state: "suspect" }]);
    expect(walk.named).toEqual([[T.stg, ["2026-08-10 duplicate"]]]);
  });

  it("a sound unit stops the walk: a stale unit over a published input is its own cause, whatever failed further up", () => {
    const walk = rootsOf(T.revenue, day("2026-08-18"), { [`${D.revenue} 2026-08-18`]: "stale", [`${D.stg} 2026-08-18`]: "failed" });
    expect(walk.named).toEqual([[T.revenue, ["2026-08-18 stale"]]]);
    expect(walk.symptomIsRoot).toBe(true);
  });

  it("a sound symptom has no root cause", () => {
    const walk = rootsOf(T.fct, days("2026-08-01", "2026-08-05"), demoAugust());
    expect(walk).toMatchObject({ symptom: [], roots: [], symptomIsRoot: false, truncated: false });
  });

  it("stops at its budget and says so", () => {
    const walk = walkToRootCauses(graph, { taskNodeId: T.balance, units: day("2026-08-25") }, world(demoAugust()), 5);
    expect(walk.truncated).toBe(true);
  });

  it("an unknown task answers nothing", () => {
    expect(walkToRootCauses(graph, { taskNodeId: "job:nowhere:x" as NodeId, units: day("2026-08-17") }, world({}))).toMatchObject({ roots: [] });
  });
});
