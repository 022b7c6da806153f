/**
 * The demo lineage of seeds 000 and 001, shared by the domain tests.
 *
 *   raw_orders (source, immutable, daily 2026-05-18 … 2026-08-25, 100 units)
 *      │ identity
 *   stg_orders (task C, APPENDS)
 *      │ identity
 *   fct_orders ◄── latest (as-of-now) ── dim_customers (current snapshot, mutable, unpartitioned)
 *      │ identity            │ identity                      │ identity
 *   revenue_daily        running_balance ◄─┐ previous(1)   ml_features (pipeline ml)
 *      │ identity   │ day→week   └─────────┘ (own output)
 *   executive_     finance_weekly_export (pipeline finance, external side effect, ISO weeks)
 *   dashboard
 */
import { datasetId, taskId, type DatasetId, type TaskId } from "../ids";
import { mustBuildLineageGraph, type LineageGraph, type LineageSpec, type TaskSpec } from "../lineage-graph";
import type { PartitionDef } from "../partitions";

export const NS = "reparo";

export const DAILY: PartitionDef = { kind: "time", grain: "day", start: "2026-05-18", end: "2026-08-25", timezone: "UTC" };
export const WEEKLY: PartitionDef = { kind: "time", grain: "week", start: "2026-W21", end: "2026-W35", timezone: "UTC" };

export const T = {
  stg: taskId(NS, "stg_orders"),
  fct: taskId(NS, "fct_orders"),
  revenue: taskId(NS, "revenue_daily"),
  dashboard: taskId(NS, "executive_dashboard"),
  balance: taskId(NS, "running_balance"),
  export: taskId(NS, "finance_weekly_export"),
  features: taskId(NS, "ml_features"),
} satisfies Record<string, TaskId>;

export const D = {
  raw: datasetId(NS, "raw_orders"),
  dim: datasetId(NS, "dim_customers"),
  stg: datasetId(NS, "stg_orders"),
  fct: datasetId(NS, "fct_orders"),
  revenue: datasetId(NS, "revenue_daily"),
  dashboard: datasetId(NS, "executive_dashboard"),
  balance: datasetId(NS, "running_balance"),
  export: datasetId(NS, "finance_weekly_export"),
  features: datasetId(NS, "ml_features"),
} satisfies Record<string, DatasetId>;

const safe = { writeMode: "replace", sideEffect: "none", dependsOnOwnPast: false, publish: "per_unit" } as const;

/** The seed's graph; `overrides` replaces task properties (e.g. make stg_orders replace). */
export interface WorldOptions {
  /** dim_customers is a mutable current snapshot in the seed; false models a versioned one. */
  readonly dimMutable?: boolean;
}

export function ordersSpec(overrides: Partial<Record<keyof typeof T, Partial<TaskSpec>>> = {}, world: WorldOptions = {}): LineageSpec {
  const task = (key: keyof typeof T, pipeline: string, props: Partial<TaskSpec>): TaskSpec => ({
    id: T[key],
    pipeline,
    owner: `${pipeline}-team`,
    ...safe,
    ...props,
    ...overrides[key],
  });
  return {
    datasets: [
      { id: D.raw, kind: "file_set", pipeline: "orders", partitions: DAILY, sourceMutable: false },
      { id: D.dim, kind: "table", pipeline: "customers", partitions: { kind: "none" }, sourceMutable: world.dimMutable ?? true },
      { id: D.stg, kind: "table", pipeline: "orders", partitions: DAILY },
      { id: D.fct, kind: "table", pipeline: "orders", partitions: DAILY },
      { id: D.revenue, kind: "table", pipeline: "orders", partitions: DAILY },
      { id: D.dashboard, kind: "dashboard", pipeline: "orders", partitions: DAILY, externalConsumer: true },
      { id: D.balance, kind: "table", pipeline: "orders", partitions: DAILY },
      { id: D.export, kind: "export", pipeline: "finance", partitions: WEEKLY, externalConsumer: true },
      { id: D.features, kind: "feature_set", pipeline: "ml", partitions: DAILY },
    ],
    tasks: [
      task("stg", "orders", { writeMode: "append" }),
      task("fct", "orders", {}),
      task("revenue", "orders", {}),
      task("dashboard", "orders", {}),
      task("balance", "orders", { dependsOnOwnPast: true }),
      task("export", "finance", { sideEffect: "external" }),
      task("features", "ml", { writeMode: "merge" }),
    ],
    reads: [
      { task: T.stg, dataset: D.raw, mapping: { type: "identity" } },
      { task: T.fct, dataset: D.stg, mapping: { type: "identity" } },
      { task: T.fct, dataset: D.dim, mapping: { type: "latest" } },
      { task: T.revenue, dataset: D.fct, mapping: { type: "identity" } },
      { task: T.dashboard, dataset: D.revenue, mapping: { type: "identity" } },
      { task: T.balance, dataset: D.fct, mapping: { type: "identity" } },
      { task: T.balance, dataset: D.balance, mapping: { type: "previous", n: 1 } },
      { task: T.export, dataset: D.revenue, mapping: { type: "grain" } },
      { task: T.features, dataset: D.fct, mapping: { type: "identity" } },
    ],
    writes: (Object.keys(T) as (keyof typeof T)[]).map((k) => ({ task: T[k], dataset: D[k] })),
  };
}

export function ordersGraph(overrides: Parameters<typeof ordersSpec>[0] = {}, world: WorldOptions = {}): LineageGraph {
  return mustBuildLineageGraph(ordersSpec(overrides, world));
}

/** Ordinal of a day key in DAILY (2026-05-18 is 0, 2026-08-17 is 91, 2026-08-25 is 99). */
export function dayOrdinal(key: string): number {
  return (Date.parse(`${key}T00:00:00Z`) - Date.parse("2026-05-18T00:00:00Z")) / 86_400_000;
}
