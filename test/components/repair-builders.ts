import { STRATEGY_GUIDE } from "@/lib/domain/repair-strategies";
import {
  BlockerSchema,
  PlannedTaskSchema,
  PlanViewSchema,
  ScopeNodeSchema,
  ScopeWithLayoutSchema,
  StrategyOptionSchema,
  type BlockerView,
  type PlannedTaskView,
  type PlanView,
  type ScopeNode,
  type ScopeWithLayout,
} from "@/lib/contracts/repair";
import type { PlanExport } from "@/lib/contracts/orchestrators";
import type { z } from "zod";

type StrategyOption = z.infer<typeof StrategyOptionSchema>;
type Range = [string, string];

/**
 * Typed builders of the repair wizard's answers (scope, plan preview), carrying the demo's
 * stg_orders 2026-08-17 incident, each parsed with its contract's schema as in builders.ts.
 */

const days = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `2026-08-${String(from + i).padStart(2, "0")}`);

/** A node of the scope; its cells, holdings and count follow from `units` and `state` unless given. */
export function aScopeNode(over: Partial<ScopeNode> & { state?: string } = {}): ScopeNode {
  const { state = "failed", ...rest } = over;
  const units: Range[] = (rest.units as Range[] | undefined) ?? [["2026-08-17", "2026-08-17"]];
  const keys = units.flatMap(([a, b]) => (a.startsWith("2026-08-") && b.startsWith("2026-08-") ? days(Number(a.slice(8)), Number(b.slice(8))) : [a]));
  return ScopeNodeSchema.parse({
    nodeId: "job:orders:stg_orders",
    name: "stg_orders",
    kind: "task",
    pipeline: "orders",
    seed: false,
    wave: 0,
    via: [],
    units,
    unitCount: keys.length,
    holdsNow: [{ state, units, count: keys.length }],
    cells: keys.map((key) => ({ key, state })),
    sentOutside: [],
    ...rest,
  });
}

/**
 * The demo's scope of stg_orders 2026-08-17, cut to the orders pipeline: the failed task and its
 * table, fct_orders, and running_balance (which reads its own past, so 2026-08-17…25) — 11 (task,
 * unit) pairs — and the other stg_orders failures running_balance waits on.
 */
export function aScope(over: Partial<ScopeWithLayout> = {}): ScopeWithLayout {
  const nodes = over.nodes ?? [
    aScopeNode({ seed: true }),
    aScopeNode({ nodeId: "dataset:warehouse:stg_orders", kind: "dataset", wave: 1, via: ["job:orders:stg_orders"] }),
    aScopeNode({ nodeId: "job:orders:fct_orders", name: "fct_orders", wave: 2, via: ["dataset:warehouse:stg_orders"], state: "blocked" }),
    aScopeNode({
      nodeId: "dataset:warehouse:fct_orders",
      name: "fct_orders",
      kind: "dataset",
      wave: 3,
      via: ["job:orders:fct_orders"],
      state: "blocked",
    }),
    aScopeNode({
      nodeId: "job:orders:running_balance",
      name: "running_balance",
      wave: 4,
      via: ["dataset:warehouse:fct_orders"],
      units: [["2026-08-17", "2026-08-25"]],
      state: "blocked",
    }),
    aScopeNode({
      nodeId: "dataset:warehouse:running_balance",
      name: "running_balance",
      kind: "dataset",
      wave: 5,
      via: ["job:orders:running_balance"],
      units: [["2026-08-17", "2026-08-25"]],
      state: "blocked",
    }),
  ];
  const edges = nodes.flatMap((n) => n.via.filter((v) => nodes.some((m) => m.nodeId === v)).map((from) => ({ from, to: n.nodeId })));
  const tasks = nodes.filter((n) => n.kind === "task");
  return ScopeWithLayoutSchema.parse({
    failedPairs: [{ nodeId: "job:orders:stg_orders", units: ["2026-08-17"] }],
    nodes,
    edges,
    pairCount: tasks.reduce((s, n) => s + n.unitCount, 0),
    taskWaves: tasks.map((t) => [t.nodeId]),
    waitsOn: [
      {
        taskNodeId: "job:orders:stg_orders",
        units: ["2026-08-10", "2026-08-23"],
        neededBy: "running_balance 2026-08-17…2026-08-25",
        reason:
          "stg_orders 2026-08-10 (duplicate), 2026-08-23 (failed): nothing in this incident re-runs them, so running_balance 2026-08-17…2026-08-25 cannot be rebuilt soundly — add them to this incident, or repair them first.",
      },
    ],
    layout: {
      positions: Object.fromEntries(nodes.map((n) => [n.nodeId, { x: n.wave * 220, y: 0 }])),
      width: nodes.length * 220,
      height: 72,
    },
    ...over,
  });
}

export function aPlannedTask(over: Partial<PlannedTaskView> = {}): PlannedTaskView {
  return PlannedTaskSchema.parse({
    taskNodeId: "job:orders:stg_orders",
    name: "stg_orders",
    pipeline: "orders",
    keyRanges: [["2026-08-17", "2026-08-17"]],
    unitCount: 1,
    idempotencyKey: null,
    reason: null,
    ...over,
  });
}

export function aBlocker(over: Partial<BlockerView> = {}): BlockerView {
  return BlockerSchema.parse({
    code: "append_unresolved",
    message: "stg_orders appends: re-running 2026-08-17 would add a second copy to the 20 rows its failed tries left. Clean the unit first.",
    node: "job:orders:stg_orders",
    keyRanges: [["2026-08-17", "2026-08-17"]],
    declare: null,
    resolution: null,
    ...over,
  });
}

/** The demo's append blocker: 20 rows left in 2026-08-17, a connected warehouse that can delete them. */
export function anAppendBlocker(over: Partial<BlockerView> = {}): BlockerView {
  return aBlocker({
    resolution: {
      kind: "clean_unit",
      taskNodeId: "job:orders:stg_orders",
      units: ["2026-08-17"],
      datasetNodeId: "dataset:warehouse:stg_orders",
      rowsInUnits: [{ unitKey: "2026-08-17", rows: 20, countedBy: "warehouse", countedAt: null, declared: null }],
      cleanable: { possible: true, why: null, statement: "delete from stg_orders where order_date = '2026-08-17'" },
    },
    ...over,
  });
}

/** The demo's options for stg_orders 2026-08-17: the closure recommended, the atomic set not possible. */
export function someStrategyOptions(): StrategyOption[] {
  const why: Partial<Record<StrategyOption["strategy"], StrategyOption["why"]>> = {
    targeted: [{ code: "downstream_already_built", message: "11 downstream pairs already ran on the bad units and would stay stale. Include the closure." }],
    atomic_set_republish: [{ code: "no_atomic_set", message: "No task in scope publishes as an atomic set." }],
    mark_success: [{ code: "evidence_required", message: "Marking success needs evidence, such as a passing reconciliation for these units." }],
  };
  return (Object.keys(STRATEGY_GUIDE) as StrategyOption["strategy"][]).map((strategy) =>
    StrategyOptionSchema.parse({
      strategy,
      enabled: !why[strategy],
      recommended: strategy === "targeted_with_closure",
      why: why[strategy] ?? [],
      ...STRATEGY_GUIDE[strategy],
    }),
  );
}

const nothingExported: PlanExport = { requests: [], unsupported: [] };

/**
 * The plan preview of the demo's incident with its closure: stg_orders, then fct_orders, then
 * running_balance — 11 units of 3 tasks against 300 for a full re-run — runnable, the finance
 * export excluded. `blockers` make it not runnable (as the server does).
 */
export function aPlan(over: Partial<PlanView> = {}): PlanView {
  const waves = over.waves ?? [
    [aPlannedTask()],
    [aPlannedTask({ taskNodeId: "job:orders:fct_orders", name: "fct_orders" })],
    [aPlannedTask({ taskNodeId: "job:orders:running_balance", name: "running_balance", keyRanges: [["2026-08-17", "2026-08-25"]], unitCount: 9 })],
  ];
  const planned = waves.flat();
  const blockers = over.blockers ?? [];
  const exported = (orchestrator: "airflow" | "dagster" | "databricks" | "dbt", path: string): PlanExport =>
    blockers.length > 0 ? nothingExported : { requests: [{ orchestrator, pipeline: "orders", wave: 0, method: "POST", path, body: {} }], unsupported: [] };
  return PlanViewSchema.parse({
    strategy: "targeted_with_closure",
    recommended: "targeted_with_closure",
    options: someStrategyOptions(),
    waves,
    held: [],
    excluded: [
      aPlannedTask({
        taskNodeId: "job:finance:weekly_revenue_export",
        name: "weekly_revenue_export",
        pipeline: "finance",
        keyRanges: [["2026-W34", "2026-W34"]],
        reason: "excluded by default: it sends a file outside the platform (replay it with an idempotency key)",
      }),
    ],
    marks: [],
    blockers,
    warnings: [],
    cost: { unitsRecomputed: planned.reduce((s, p) => s + p.unitCount, 0), fullRerunUnits: planned.length * 100, tasks: planned.length },
    parameterOverrides: {},
    runnable: blockers.length === 0,
    exports: {
      airflow: exported("airflow", "/api/v2/dags/orders/clearTaskInstances"),
      dagster: exported("dagster", "/graphql"),
      databricks: exported("databricks", "/api/2.1/jobs/runs/repair"),
      dbt: exported("dbt", "dbt build --select stg_orders+"),
    },
    ...over,
  });
}
