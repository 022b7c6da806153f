import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { datasetId, taskId, type NodeId, type TaskId } from "./ids";
import { mustBuildLineageGraph, type LineageGraph, type LineageSpec, type TaskNode } from "./lineage-graph";
import {
  asOfNowJoins,
  atomicSetPublish,
  holds,
  idempotentOverUnit,
  PRECONDITION_KEYS,
  preconditionsOf,
  sideEffects,
  sourceReproducible,
  unitsIndependent,
  unreproducibleInputs,
  type Verdict,
} from "./preconditions";
import { planRepair } from "./repair-planner";
import { summariseLedger, type Ledger } from "./repair-scope";
import { STRATEGIES } from "./repair-strategies";
import { D, dayOrdinal, NS, ordersGraph, ordersSpec, T } from "./test-fixtures/orders-graph";
import { arbLineage } from "./test-fixtures/random-graph";
import { UnitSet } from "./unit-set";

// Seed 000's graph (lib/domain/test-fixtures/orders-graph.ts):
//
//   raw_orders (immutable) ─► stg_orders (APPEND) ─► fct_orders ◄─latest─ dim_customers (mutable, no writer)
//                                                      │            │
//                                                revenue_daily  running_balance ⟲ previous(1)
//                                                      │ day→week
//                                        finance_weekly_export (EXTERNAL)
const graph = ordersGraph();
const task = (g: LineageGraph, id: TaskId) => g.nodes[g.index.get(id)!] as TaskNode;
const aug17 = UnitSet.of(dayOrdinal("2026-08-17"));
const aug18 = UnitSet.of(dayOrdinal("2026-08-18"));
const NO_LEDGER: Ledger = new Map();

describe("the six questions, on seed 000's graph", () => {
  it("idempotent over the unit? stg_orders appends: a re-run adds a second copy (unsafe); replace and merge overwrite (safe)", () => {
    expect(idempotentOverUnit(task(graph, T.stg))).toEqual({ key: "idempotent", verdict: "unsafe", writeMode: "append" });
    expect(idempotentOverUnit(task(graph, T.fct))).toEqual({ key: "idempotent", verdict: "safe", writeMode: "replace" });
    expect(idempotentOverUnit(task(graph, T.features))).toEqual({ key: "idempotent", verdict: "safe", writeMode: "merge" });
    expect(idempotentOverUnit({ writeMode: undefined })).toEqual({ key: "idempotent", verdict: "unknown", writeMode: undefined });
  });

  it("units independent? running_balance reads its own previous day: sequential (unsafe); fct_orders declared independent (safe)", () => {
    expect(unitsIndependent(graph, task(graph, T.balance))).toEqual({ key: "independent", verdict: "unsafe", readsOwnPast: 1 });
    expect(unitsIndependent(graph, task(graph, T.fct))).toEqual({ key: "independent", verdict: "safe", readsOwnPast: null });
    const undeclared = ordersGraph({ fct: { dependsOnOwnPast: undefined } });
    expect(unitsIndependent(undeclared, task(undeclared, T.fct)).verdict).toBe("unknown");
    // A previous(n) self-read outweighs a declaration of independence.
    const liar = ordersGraph({ balance: { dependsOnOwnPast: false } });
    expect(unitsIndependent(liar, task(liar, T.balance))).toEqual({ key: "independent", verdict: "unsafe", readsOwnPast: 1 });
  });

  it("source immutable and retained? stg_orders reads immutable raw_orders (safe); fct_orders joins the mutable dim_customers (unsafe)", () => {
    expect(sourceReproducible(graph, NO_LEDGER, task(graph, T.stg), aug17)).toEqual({
      key: "source_reproducible",
      verdict: "safe",
      mutable: [],
      unknownMutability: [],
      notRetained: [],
    });
    expect(sourceReproducible(graph, NO_LEDGER, task(graph, T.fct), aug17)).toMatchObject({ verdict: "unsafe", mutable: [D.dim], unknownMutability: [] });
    // A versioned dimension makes fct_orders reproducible; its stg_orders input is the ledger's.
    const versioned = ordersGraph({}, { dimMutable: false });
    expect(sourceReproducible(versioned, NO_LEDGER, task(versioned, T.fct), aug17).verdict).toBe("safe");
    // Produced inputs read as of the unit are versioned by the ledger: revenue_daily reads only fct_orders.
    expect(sourceReproducible(graph, NO_LEDGER, task(graph, T.revenue), aug17).verdict).toBe("safe");
  });

  it("source retained? raw_orders 2026-08-17's input version is gone: re-running stg_orders 08-17 cannot reproduce it, 08-18 can", () => {
    const ledger = summariseLedger(graph, [{ node: D.raw, key: "2026-08-17", publishCount: 1, inputVersionRetained: false }]).ledger;
    const a = sourceReproducible(graph, ledger, task(graph, T.stg), aug17);
    expect(a.verdict).toBe("unsafe");
    expect(a.notRetained.map((n) => [n.dataset, [...n.units]])).toEqual([[D.raw, [dayOrdinal("2026-08-17")]]]);
    expect(sourceReproducible(graph, ledger, task(graph, T.stg), aug18).verdict).toBe("safe");
    expect(unreproducibleInputs(a)).toEqual([D.raw]);
  });

  it("source mutability unknown counts as unsafe, also for a snapshot a task writes and the repair reads as of now (seed 000's dim_customers)", () => {
    const spec = ordersSpec();
    const snapshot = taskId(NS, "snapshot_customers");
    const written: LineageSpec = {
      ...spec,
      datasets: spec.datasets.map((d) => (d.id === D.dim ? { ...d, sourceMutable: undefined } : d)),
      tasks: [...spec.tasks, { id: snapshot, pipeline: "customers", writeMode: "replace", sideEffect: "none", dependsOnOwnPast: false, publish: "per_unit" }],
      writes: [...spec.writes, { task: snapshot, dataset: D.dim }],
    };
    const g = mustBuildLineageGraph(written);
    const a = sourceReproducible(g, NO_LEDGER, task(g, T.fct), aug17);
    expect(a).toMatchObject({ verdict: "unknown", mutable: [], unknownMutability: [D.dim] });
    expect(holds(a)).toBe(false);
  });

  it("side effects? the finance export sends a file outside (unsafe); the marts do not (safe); undeclared is unknown", () => {
    expect(sideEffects(task(graph, T.export))).toEqual({ key: "side_effects", verdict: "unsafe", sideEffect: "external" });
    expect(sideEffects(task(graph, T.revenue))).toEqual({ key: "side_effects", verdict: "safe", sideEffect: "none" });
    expect(sideEffects({ sideEffect: undefined }).verdict).toBe("unknown");
  });

  it("atomic-set publish? a set swapped at once is one unit (unsafe); per-unit is safe; undeclared is unknown unless the set has one unit", () => {
    const atomic = ordersGraph({ revenue: { publish: "atomic_set" } });
    expect(atomicSetPublish(task(atomic, T.revenue))).toEqual({ key: "atomic_set", verdict: "unsafe", publish: "atomic_set", singleUnit: false });
    expect(atomicSetPublish(task(graph, T.revenue))).toEqual({ key: "atomic_set", verdict: "safe", publish: "per_unit", singleUnit: false });
    const undeclared = ordersGraph({ revenue: { publish: undefined } });
    expect(atomicSetPublish(task(undeclared, T.revenue))).toEqual({ key: "atomic_set", verdict: "unknown", publish: undefined, singleUnit: false });
    const single = mustBuildLineageGraph({
      datasets: [
        { id: datasetId("x", "src"), kind: "table", pipeline: "x", partitions: { kind: "none" }, sourceMutable: false },
        { id: datasetId("x", "out"), kind: "table", pipeline: "x", partitions: { kind: "none" } },
      ],
      tasks: [{ id: taskId("x", "model"), pipeline: "x" }],
      reads: [{ task: taskId("x", "model"), dataset: datasetId("x", "src"), mapping: { type: "identity" } }],
      writes: [{ task: taskId("x", "model"), dataset: datasetId("x", "out") }],
    });
    expect(atomicSetPublish(task(single, taskId("x", "model")))).toEqual({ key: "atomic_set", verdict: "safe", publish: undefined, singleUnit: true });
  });

  it("as-of-now joins? fct_orders joins dim_customers as of now (unsafe); revenue_daily reads its input as of the unit (safe)", () => {
    expect(asOfNowJoins(graph, task(graph, T.fct))).toEqual({ key: "as_of_now", verdict: "unsafe", joins: [D.dim] });
    expect(asOfNowJoins(graph, task(graph, T.revenue))).toEqual({ key: "as_of_now", verdict: "safe", joins: [] });
  });

  it("unknown counts as unsafe: only a safe answer holds", () => {
    expect((["safe", "unsafe", "unknown"] as Verdict[]).map((verdict) => holds({ verdict }))).toEqual([true, false, false]);
  });

  it("all six, in PRODUCT.md's order, for one task: fct_orders over 2026-08-17", () => {
    const answers = preconditionsOf(graph, NO_LEDGER, task(graph, T.fct), aug17);
    expect(answers.map((a) => a.key)).toEqual([...PRECONDITION_KEYS]);
    expect(answers.map((a) => a.verdict)).toEqual(["safe", "safe", "unsafe", "safe", "safe", "unsafe"]);
  });
});

describe("the planner acts on the same answers", () => {
  it("an undeclared publish mode counts as atomic: partial strategies are off and the set is republished", () => {
    const g = ordersGraph({ revenue: { publish: undefined } });
    const p = planRepair({ graph: g, targets: [{ node: T.revenue as NodeId, units: aug17 }] });
    expect(p.options.find((o) => o.strategy === "targeted_with_closure")!.why.map((w) => w.code)).toEqual(["atomic_set_partial"]);
    expect(p.recommended).toBe("atomic_set_republish");
    expect(p.waves.flat().find((t) => t.task === T.revenue)!.units.size).toBe(100);
  });

  it("an undeclared side effect holds the task with a blocker naming the fact; an external one is excluded, deliberately", () => {
    const g = ordersGraph({ revenue: { sideEffect: undefined } });
    const p = planRepair({ graph: g, targets: [{ node: T.revenue as NodeId, units: aug17 }] });
    expect(p.excluded.map((e) => [e.task, e.reason])).toEqual([
      [T.export, "finance_weekly_export has external side effects: excluded by default; replay it deliberately with an idempotency key."],
    ]);
    expect(p.held.map((h) => h.task)).toEqual([T.revenue]);
    const b = p.blockers.find((x) => x.code === "unknown_side_effect")!;
    expect(b).toMatchObject({ node: T.revenue, declare: { fact: "sideEffect", choices: ["none", "external"] } });
    expect(b.message).toContain("tasks: [{ namespace: reparo, name: revenue_daily, sideEffect: none | external }] (npm run declare)");
    expect(p.runnable).toBe(false);
  });

  it("a source whose version is gone rules out a full re-run, named as the reason", () => {
    const versioned = ordersGraph({}, { dimMutable: false });
    const target = [{ node: T.fct as NodeId, units: aug17 }];
    expect(planRepair({ graph: versioned, targets: target }).options.find((o) => o.strategy === "full_rerun")!.enabled).toBe(true);
    const ledger = summariseLedger(versioned, [{ node: D.raw, key: "2026-08-17", publishCount: 1, inputVersionRetained: false }]).ledger;
    const stgToo = [{ node: T.stg as NodeId, units: aug17 }];
    const full = planRepair({ graph: versioned, targets: stgToo, ledger }).options.find((o) => o.strategy === "full_rerun")!;
    expect(full.enabled).toBe(false);
    expect(full.why.map((w) => w.message)).toEqual([
      "raw_orders is mutable, of unknown mutability, or no longer retained: a full re-run recomputes correct units against a source that has moved.",
    ]);
  });

  // Random lineages with some declarations left out: every decision of the plan matches the answers.
  const arbCase = fc
    .tuple(arbLineage, fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }), fc.nat(), fc.nat(19), fc.constantFrom(...STRATEGIES))
    .map(([spec, drop, node, unit, strategy]) => {
      const g = mustBuildLineageGraph({
        ...spec,
        tasks: spec.tasks.map((t, i) => (drop[i] ? { ...t, publish: undefined, sideEffect: i % 2 ? undefined : t.sideEffect } : t)),
      });
      const seed = g.nodes[node % g.nodes.length]!;
      return { g, plan: planRepair({ graph: g, targets: [{ node: seed.id, units: UnitSet.of(unit % seed.space.size) }], options: { strategy } }) };
    });

  it("never disagrees with the preconditions: exclusions, holds, sequential, atomic and source verdicts (fast-check)", () => {
    fc.assert(
      fc.property(arbCase, ({ g, plan }) => {
        const node = (id: string) => g.nodes[g.index.get(id as NodeId)!] as TaskNode;
        // Excluded only for a known external effect; held for anything unknown or unsafe to repeat; never dropped.
        for (const e of plan.excluded) expect(sideEffects(node(e.task)).verdict).toBe("unsafe");
        for (const t of plan.waves.flat()) {
          expect(holds(idempotentOverUnit(node(t.task)))).toBe(true);
          expect(sideEffects(node(t.task)).verdict === "unknown").toBe(false);
          expect(node(t.task).dependsOnOwnPast !== undefined || g.selfLoops.has(node(t.task).index)).toBe(true);
        }
        for (const t of plan.held) {
          const n = node(t.task);
          expect(!holds(idempotentOverUnit(n)) || sideEffects(n).verdict === "unknown" || unitsIndependent(g, n).verdict === "unknown").toBe(true);
        }
        const inScope = [...plan.scope.entries.values()].filter((e) => e.nodeKind === "task");
        const why = (s: string) => plan.options.find((o) => o.strategy === s)!.why.map((w) => w.code);
        const seeds = inScope.filter((e) => e.seed);
        expect(why("targeted").includes("sequential_targeted")).toBe(seeds.some((e) => !holds(unitsIndependent(g, node(e.node)))));
        expect(why("targeted_with_closure").includes("atomic_set_partial")).toBe(inScope.some((e) => !holds(atomicSetPublish(node(e.node)))));
        expect(why("recompute_forward").includes("no_sequential_model")).toBe(inScope.every((e) => holds(unitsIndependent(g, node(e.node)))));
        expect(why("full_rerun").includes("source_not_reproducible")).toBe(
          inScope.some((e) => unreproducibleInputs(sourceReproducible(g, new Map(), node(e.node), e.units)).length > 0),
        );
      }),
      { numRuns: 300 },
    );
  });
});
