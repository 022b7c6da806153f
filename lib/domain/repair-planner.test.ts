import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { taskId, type NodeId, type TaskId } from "./ids";
import { mustBuildLineageGraph, type LineageGraph, type TaskNode } from "./lineage-graph";
import { planRepair, type RepairOptions, type RepairPlan } from "./repair-planner";
import { summariseLedger, type LedgerRow } from "./repair-scope";
import { STRATEGIES } from "./repair-strategies";
import { arbGraph } from "./test-fixtures/random-graph";
import { D, dayOrdinal, ordersGraph, ordersSpec, T } from "./test-fixtures/orders-graph";
import { UnitSet } from "./unit-set";

// The demo lineage (seeds 000/001), failure at stg_orders 2026-08-17:
//
//   raw_orders ─► stg_orders (APPEND, failed) ─► fct_orders ◄─latest─ dim_customers (mutable)
//                                                 │            │               │
//                                           revenue_daily  running_balance⟲  ml_features (ml)
//                                             │       │ day→week
//                               executive_dashboard  finance_weekly_export (finance, EXTERNAL)
const graph = ordersGraph();
const aug17 = UnitSet.of(dayOrdinal("2026-08-17"));
const failed = [{ node: T.stg as NodeId, units: aug17 }];
const dedupStg: RepairOptions = { resolutions: [{ kind: "unit_deduplicated", task: T.stg }] };
const scheduledTasks = (p: RepairPlan) => p.waves.flat().map((t) => t.task);
const codes = (xs: readonly { code: string }[]) => xs.map((x) => x.code);
const plan = (options: RepairOptions = {}, g: LineageGraph = graph, extra: Partial<Parameters<typeof planRepair>[0]> = {}) =>
  planRepair({ graph: g, targets: failed, options, ...extra });

/** Ledger: everything published once, except the failed unit; fct…export already ran on 08-17. */
function ledgerRows(overrides: LedgerRow[] = []): LedgerRow[] {
  const rows: LedgerRow[] = [];
  for (const node of [D.stg, D.fct, D.revenue, D.balance, D.features, D.dashboard]) {
    for (let d = dayOrdinal("2026-08-10"); d <= dayOrdinal("2026-08-25"); d++) {
      const key = new Date(Date.UTC(2026, 4, 18 + d)).toISOString().slice(0, 10);
      if (node === D.stg && key === "2026-08-17") continue;
      rows.push({ node, key, publishCount: 1, inputVersion: "v1", inputVersionRetained: true });
    }
  }
  rows.push({ node: D.export, key: "2026-W34", publishCount: 1, consumed: true });
  return [...rows, ...overrides];
}
const ledger = summariseLedger(graph, ledgerRows()).ledger;

describe("seed 000: partial failure", () => {
  it("seed 000: re-running only the failed units of a cumulative model is refused (targeted blocked for sequential)", () => {
    const p = planRepair({ graph, targets: [{ node: T.balance, units: aug17 }], options: { strategy: "targeted" } });
    expect(p.options.find((o) => o.strategy === "targeted")).toMatchObject({ enabled: false });
    expect(codes(p.blockers)).toContain("sequential_targeted");
    expect(p.runnable).toBe(false);
  });

  it("seed 000: a cumulative model is recomputed forward from the earliest affected unit — a range, not a set", () => {
    const p = planRepair({ graph, targets: [{ node: T.balance, keys: ["2026-08-17", "2026-08-20"] }] });
    expect(p.recommended).toBe("recompute_forward");
    expect(p.waves).toHaveLength(1);
    expect(p.waves[0]![0]).toMatchObject({ task: T.balance, keyRanges: [["2026-08-17", "2026-08-25"]] });
    expect(p.runnable).toBe(true);
  });

  it("seed 000: a repair against a non-idempotent (append) task is blocked and the task held back, not scheduled", () => {
    const p = plan();
    expect(p.blockers.find((b) => b.code === "append_unresolved")).toMatchObject({ node: T.stg, keyRanges: [["2026-08-17", "2026-08-17"]] });
    expect(scheduledTasks(p)).not.toContain(T.stg);
    expect(p.held.map((h) => h.task)).toEqual([T.stg]);
    expect(p.runnable).toBe(false);
  });

  it("seed 000: the append blocker is lifted by deduplicating the unit, or by fixing the task to replace", () => {
    expect(codes(plan(dedupStg).blockers)).toEqual([]);
    expect(codes(plan({ resolutions: [{ kind: "fixed_to_replace", task: T.stg }] }).blockers)).toEqual([]);
    expect(scheduledTasks(plan(dedupStg))[0]).toBe(T.stg);
  });

  it("seed 000: deduplicating some units leaves the others blocked", () => {
    const p = planRepair({
      graph,
      targets: [{ node: T.stg, keys: ["2026-08-17", "2026-08-23"] }],
      options: { resolutions: [{ kind: "unit_deduplicated", task: T.stg, units: aug17 }] },
    });
    expect(p.blockers.find((b) => b.code === "append_unresolved")?.keyRanges).toEqual([["2026-08-23", "2026-08-23"]]);
  });

  it("seed 001: an append unit that holds nothing (its try failed before writing) runs without cleaning, and the plan says why", () => {
    const aug23 = UnitSet.of(dayOrdinal("2026-08-23"));
    const p = planRepair({
      graph,
      targets: [{ node: T.stg, keys: ["2026-08-17", "2026-08-23"] }],
      options: {
        resolutions: [
          { kind: "unit_deduplicated", task: T.stg, units: aug17 },
          { kind: "unit_empty", task: T.stg, units: aug23 },
        ],
      },
    });
    expect(codes(p.blockers)).toEqual([]);
    expect(p.warnings.find((w) => w.code === "append_unit_empty")).toMatchObject({ node: T.stg, keyRanges: [["2026-08-23", "2026-08-23"]] });
    // Only what holds nothing is spared: 2026-08-17 without its cleaning is still blocked.
    const blocked = planRepair({
      graph,
      targets: [{ node: T.stg, keys: ["2026-08-17", "2026-08-23"] }],
      options: { resolutions: [{ kind: "unit_empty", task: T.stg, units: aug23 }] },
    });
    expect(blocked.blockers.find((b) => b.code === "append_unresolved")?.keyRanges).toEqual([["2026-08-17", "2026-08-17"]]);
  });

  it("seed 000: re-running the whole job against a moved source is not offered (full re-run disabled, mutable dimension)", () => {
    const p = plan({ ...dedupStg, strategy: "full_rerun" });
    const full = p.options.find((o) => o.strategy === "full_rerun")!;
    expect(full.enabled).toBe(false);
    expect(full.why[0]!.message).toContain("dim_customers");
    expect(codes(p.blockers)).toContain("source_not_reproducible");
  });

  it("seed 000: a current snapshot read as of now moves even when a task writes it — full re-run stays disabled", () => {
    //   snapshot_customers ─► dim_customers ─latest─► fct_orders   (dim written by a task, still mutable)
    const spec = ordersSpec();
    const snapshot = taskId("reparo", "snapshot_customers");
    const g = mustBuildLineageGraph({
      ...spec,
      tasks: [
        ...spec.tasks,
        { id: snapshot, pipeline: "customers", owner: "crm", writeMode: "replace", sideEffect: "none", dependsOnOwnPast: false, publish: "per_unit" },
      ],
      writes: [...spec.writes, { task: snapshot, dataset: D.dim }],
    });
    const full = planRepair({ graph: g, targets: failed, options: { ...dedupStg, strategy: "full_rerun" } }).options.find((o) => o.strategy === "full_rerun")!;
    expect(full.enabled).toBe(false);
    expect(full.why[0]!.code).toBe("source_not_reproducible");
  });

  it("seed 000: with immutable, retained sources a full re-run is enabled and costs every unit of the tasks in scope", () => {
    const immutable = planRepair({
      graph: buildWithImmutableDim(),
      targets: failed,
      options: { ...dedupStg, strategy: "full_rerun" },
    });
    expect(immutable.runnable).toBe(true);
    expect(immutable.cost).toEqual({ unitsRecomputed: 600, fullRerunUnits: 600, tasks: 6 });
  });

  it("seed 000: a repair joining a current dimension warns that repaired units see a newer world (as-of-now)", () => {
    const w = plan(dedupStg).warnings.find((x) => x.code === "as_of_now_join");
    expect(w?.node).toBe(T.fct);
    expect(w?.message).toContain("dim_customers");
  });

  it("seed 000: a source whose input version is no longer retained is warned about and rules out a full re-run", () => {
    const rows: LedgerRow[] = [{ node: D.raw, key: "2026-08-17", publishCount: 1, inputVersionRetained: false }];
    const p = plan(dedupStg, graph, { ledger: summariseLedger(graph, rows).ledger });
    expect(p.warnings.find((w) => w.code === "input_not_retained")).toMatchObject({ node: D.raw, keyRanges: [["2026-08-17", "2026-08-17"]] });
  });

  it("seed 000: marking failed units skipped needs a reason, and the omission stays visible", () => {
    const noReason = plan({ strategy: "skip_with_omission" });
    expect(codes(noReason.blockers)).toEqual(["reason_required"]);
    const withReason = plan({ strategy: "skip_with_omission", reason: "optional enrichment, agreed with finance" });
    expect(withReason.runnable).toBe(true);
    expect(withReason.marks).toEqual(failed);
    expect(withReason.waves).toEqual([]);
    expect(codes(withReason.warnings)).toContain("omission_recorded");
  });

  it("seed 000: downstream already built on the bad unit — targeted is disabled and the closure recommended", () => {
    const p = plan({ ...dedupStg, strategy: "targeted" }, graph, { ledger });
    expect(p.options.find((o) => o.strategy === "targeted")!.why.map((w) => w.code)).toEqual(["downstream_already_built"]);
    expect(p.recommended).toBe("targeted_with_closure");
    expect(codes(p.warnings)).toContain("downstream_not_retriggered");
  });

  it("seed 000: an atomic-set publish makes the whole set the unit", () => {
    const g = ordersGraph({ revenue: { publish: "atomic_set" } });
    const p = planRepair({ graph: g, targets: failed, options: dedupStg });
    expect(p.recommended).toBe("atomic_set_republish");
    expect(p.options.find((o) => o.strategy === "targeted_with_closure")!.why.map((w) => w.code)).toEqual(["atomic_set_partial"]);
    const revenue = p.waves.flat().find((t) => t.task === T.revenue)!;
    expect(revenue.keyRanges).toEqual([["2026-05-18", "2026-08-25"]]);
    expect(p.waves.flat().find((t) => t.task === T.dashboard)!.units.size).toBe(100);
  });

  it("seed 000: the cost compares units recomputed with a full re-run of the same tasks", () => {
    expect(plan(dedupStg).cost).toEqual({ unitsRecomputed: 1 + 1 + 1 + 9 + 1 + 1, fullRerunUnits: 600, tasks: 6 });
  });

  it("seed 002: a key the definition rejects is a blocker with its reason, not a unit to re-run", () => {
    const p = planRepair({ graph, targets: [{ node: T.stg, keys: ["2026-08-17", "2026-8-18", "2026-09-01"] }], options: dedupStg });
    expect(p.blockers.filter((b) => b.code === "invalid_key").map((b) => b.keyRanges![0]![0])).toEqual(["2026-8-18", "2026-09-01"]);
    expect(p.waves[0]![0]!.keyRanges).toEqual([["2026-08-17", "2026-08-17"]]);
  });

  it("product: two operators cannot launch overlapping repairs — the blocker names the active repair", () => {
    const active = [
      {
        id: "repair-7",
        label: "repair #7 by ana",
        pairs: [{ node: T.balance as NodeId, units: UnitSet.range(dayOrdinal("2026-08-20"), dayOrdinal("2026-08-30")) }],
      },
    ];
    const p = plan(dedupStg, graph, { activeRepairs: active });
    expect(p.blockers.find((b) => b.code === "active_repair_overlap")).toMatchObject({
      repairId: "repair-7",
      node: T.balance,
      keyRanges: [["2026-08-20", "2026-08-25"]],
    });
  });
});

describe("seed 001: a task fails mid-DAG", () => {
  it("seed 001: 'only C failed, so only C is affected' is false — the default plan repairs the closure", () => {
    expect(scheduledTasks(plan(dedupStg))).toEqual([T.stg, T.fct, T.revenue, T.balance, T.features, T.dashboard]);
  });

  it("seed 001: fix upstream first, then clear in dependency order (waves)", () => {
    expect(plan(dedupStg).waves.map((w) => w.map((t) => t.task))).toEqual([[T.stg], [T.fct], [T.revenue, T.balance, T.features], [T.dashboard]]);
  });

  it("seed 001: a re-run must not re-send the finance export — external side effects are excluded by default", () => {
    const p = plan(dedupStg);
    expect(p.excluded.map((e) => [e.task, e.keyRanges])).toEqual([[T.export, [["2026-W34", "2026-W34"]]]]);
    expect(scheduledTasks(p)).not.toContain(T.export);
  });

  it("seed 001: a side-effecting task is replayed only deliberately, with its idempotency key", () => {
    const p = plan({ ...dedupStg, replay: [{ task: T.export, idempotencyKey: "finance-2026-W34-r2" }] });
    expect(p.waves.flat().find((t) => t.task === T.export)).toMatchObject({ idempotencyKey: "finance-2026-W34-r2" });
    expect(scheduledTasks(plan({ ...dedupStg, replay: [{ task: T.export, idempotencyKey: " " }] }))).not.toContain(T.export);
  });

  it("seed 001: an export already sent gets a communication step — re-running recalls nothing", () => {
    const w = plan(dedupStg, graph, { ledger }).warnings.filter((x) => x.code === "communication_step");
    expect(w.map((x) => [x.node, x.keyRanges])).toEqual([
      [D.dashboard, [["2026-08-17", "2026-08-17"]]],
      [D.export, [["2026-W34", "2026-W34"]]],
    ]);
  });

  it("seed 001: cross-pipeline consumers that already consumed are named with their owner", () => {
    const w = plan(dedupStg, graph, { ledger }).warnings.filter((x) => x.code === "cross_pipeline_consumed");
    expect(w.map((x) => x.node)).toEqual([T.features, T.export]);
    expect(w[0]!.message).toContain("ml-team");
  });

  it("seed 001: mark success without evidence is disabled", () => {
    const p = plan({ strategy: "mark_success", reason: "fixed by hand" }, graph, { ledger });
    expect(p.options.find((o) => o.strategy === "mark_success")!.why.map((w) => w.code)).toEqual(["evidence_required", "unpublished_units"]);
    expect(p.runnable).toBe(false);
  });

  it("seed 001: mark success hiding a task that never produced output is refused even with evidence", () => {
    const evidence = { kind: "reconciliation", passed: true, ref: "recon-991" } as const;
    const unpublished = plan({ strategy: "mark_success", reason: "r", evidence }, graph, { ledger });
    expect(codes(unpublished.blockers)).toEqual(["unpublished_units"]);
    const published = planRepair({ graph, targets: [{ node: T.fct, units: aug17 }], ledger, options: { strategy: "mark_success", reason: "r", evidence } });
    expect(published.runnable).toBe(true);
    expect(codes(published.warnings)).toContain("mark_success_risk");
  });

  it("seed 001: mark known-bad when the source is wrong marks the pairs and recomputes nothing", () => {
    const p = plan({ strategy: "mark_known_bad", reason: "vendor sent a corrupt file for 08-17" });
    expect(p).toMatchObject({ runnable: true, waves: [], marks: failed, cost: { unitsRecomputed: 0 } });
  });

  it("seed 001: 're-running everything is the safe option' only under full idempotency — append still blocks a full re-run", () => {
    const p = planRepair({ graph: buildWithImmutableDim(), targets: failed, options: { strategy: "full_rerun" } });
    expect(codes(p.blockers)).toEqual(["append_unresolved"]);
    expect(p.held[0]!.units.size).toBe(100);
  });

  it("seed 001: a retry that appended shows up as a unit published twice — warned before the repair", () => {
    const rows = ledgerRows([{ node: D.fct, key: "2026-08-17", publishCount: 2 }]);
    const appending = ordersGraph({ fct: { writeMode: "append" } });
    const w = plan(dedupStg, appending, { ledger: summariseLedger(appending, rows).ledger }).warnings.find((x) => x.code === "duplicate_publishes");
    expect(w).toMatchObject({ node: T.fct, keyRanges: [["2026-08-17", "2026-08-17"]] });
    expect(w!.message).toContain("by an append task: deduplicate");
    // A replace task republishing its unit still holds one copy: nothing to warn about.
    expect(plan(dedupStg, graph, { ledger: summariseLedger(graph, rows).ledger }).warnings.filter((x) => x.code === "duplicate_publishes")).toEqual([]);
    // Nobody declared it: the warning says what to declare, not that there is a copy to remove.
    const unknown = ordersGraph({ fct: { writeMode: undefined } });
    const u = plan(dedupStg, unknown, { ledger: summariseLedger(unknown, rows).ledger }).warnings.find((x) => x.code === "duplicate_publishes");
    expect(u!.message).toContain("by a task whose write mode nobody declared: declare it");
  });

  it("seed 001: unknown properties count as unsafe", () => {
    const g = ordersGraph({ fct: { writeMode: undefined }, features: { sideEffect: undefined }, revenue: { dependsOnOwnPast: undefined } });
    const p = planRepair({ graph: g, targets: failed, options: dedupStg });
    expect(p.blockers.find((b) => b.code === "unknown_write_mode")?.node).toBe(T.fct);
    // Never silently dropped: each unknown holds its task with a blocker naming the fact to declare.
    expect(p.blockers.find((b) => b.code === "unknown_side_effect")?.node).toBe(T.features);
    expect(p.blockers.find((b) => b.code === "unknown_independence")?.node).toBe(T.revenue);
    expect(p.excluded.map((e) => e.task)).not.toContain(T.features);
    expect(p.held.map((h) => h.task).sort()).toEqual([T.features, T.fct, T.revenue].sort());
    // revenue_daily's independence is unknown, so the plan treats it as sequential
    expect(p.held.concat(p.waves.flat()).find((t) => t.task === T.revenue)!.keyRanges).toEqual([["2026-08-17", "2026-08-25"]]);
  });

  it("every strategy gets a verdict, and the chosen one is the recommendation by default", () => {
    const p = plan(dedupStg);
    expect(p.options.map((o) => o.strategy)).toEqual([...STRATEGIES]);
    expect(p.options.filter((o) => o.recommended).map((o) => o.strategy)).toEqual(["targeted_with_closure"]);
    expect(p.strategy).toBe("targeted_with_closure");
  });

  it("a failed dataset unit is repaired by the task that writes it; a source unit has no task to re-run", () => {
    expect(planRepair({ graph, targets: [{ node: D.fct, units: aug17 }] }).waves[0]![0]!.task).toBe(T.fct);
    const src = planRepair({ graph, targets: [{ node: D.raw, units: aug17 }], options: { strategy: "targeted" } });
    expect(codes(src.blockers)).toContain("no_task_to_rerun");
  });
});

function buildWithImmutableDim(): LineageGraph {
  return ordersGraph({}, { dimMutable: false });
}

describe("planner properties (fast-check over random lineages)", () => {
  const arbCase = arbGraph.chain((g) =>
    fc.record({
      g: fc.constant(g),
      node: fc.nat(g.nodes.length - 1),
      unit: fc.nat(19),
      strategy: fc.constantFrom(...STRATEGIES),
      resolveSome: fc.boolean(),
      replaySome: fc.boolean(),
    }),
  );

  it("never schedules an append task without a resolution, nor an external side effect without an idempotency key", () => {
    fc.assert(
      fc.property(arbCase, ({ g, node, unit, strategy, resolveSome, replaySome }) => {
        const tasks = g.nodes.filter((n): n is TaskNode => n.nodeKind === "task");
        const resolved = new Set<TaskId>(resolveSome ? tasks.filter((_, i) => i % 2 === 0).map((t) => t.id) : []);
        const replayed = new Set<TaskId>(replaySome ? tasks.filter((_, i) => i % 2 === 1).map((t) => t.id) : []);
        const p = planRepair({
          graph: g,
          targets: [{ node: g.nodes[node]!.id, units: UnitSet.of(unit % g.nodes[node]!.space.size) }],
          options: {
            strategy,
            resolutions: [...resolved].map((task) => ({ kind: "fixed_to_replace" as const, task })),
            replay: [...replayed].map((task) => ({ task, idempotencyKey: `key-${task}` })),
          },
        });
        for (const planned of p.waves.flat()) {
          const t = g.nodes[g.index.get(planned.task)!] as TaskNode;
          if (t.writeMode !== "replace" && t.writeMode !== "merge") expect(resolved.has(t.id)).toBe(true);
          if (t.sideEffect !== "none") expect(planned.idempotencyKey).toBe(`key-${t.id}`);
        }
        if (p.held.length > 0) expect(p.runnable).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
