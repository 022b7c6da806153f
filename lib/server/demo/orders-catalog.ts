import type { PartitionDef } from "@/lib/domain/partitions";
import { ORDERS_DATASETS as D, ORDERS_TASKS as T } from "../executor/task-code/node-ids";
import type { CatalogSpec } from "./catalog-spec";
import { isoWeekOfDay } from "@/lib/domain/time-partitions";

export const ORDERS_FIRST_DAY = "2026-05-18";
export const ORDERS_LAST_DAY = "2026-08-25";
/** The last ISO week the range closes (2026-08-24..25 is an open week: not expected yet). */
export const ORDERS_LAST_FULL_WEEK_DAY = "2026-08-23";

const DAILY: PartitionDef = { kind: "time", grain: "day", start: ORDERS_FIRST_DAY, end: ORDERS_LAST_DAY, timezone: "UTC" };
const WEEKLY: PartitionDef = {
  kind: "time",
  grain: "week",
  start: isoWeekOfDay(ORDERS_FIRST_DAY)!,
  end: isoWeekOfDay(ORDERS_LAST_FULL_WEEK_DAY)!,
  timezone: "UTC",
};
const NONE: PartitionDef = { kind: "none" };

const task = (
  nodeId: string,
  pipeline: string,
  writeMode: "replace" | "merge" | "append",
  description: string,
  extra: Partial<CatalogSpec["tasks"][number]> = {},
) => ({
  nodeId,
  pipeline,
  writeMode,
  sideEffect: "none" as const,
  dependsOnOwnPast: false,
  owner: `${pipeline}-team`,
  description,
  ...extra,
});

/**
 * Seeds 000 and 001: raw_orders → stg_orders (append!) → fct_orders (joined as-of-now with
 * dim_customers) → revenue_daily → executive dashboard; running_balance reads its own past;
 * the weekly finance export (another pipeline, an external side effect) and the ML feature
 * pipeline (another pipeline) consume the same data through lineage the orders DAG never shows.
 */
export function ordersCatalog(): CatalogSpec {
  return {
    pipelines: [
      { namespace: "orders", description: "Daily order ingestion, staging, facts and revenue marts", owner: "orders-team" },
      { namespace: "finance", description: "Finance team's weekly revenue file to the ledger", owner: "finance-team" },
      { namespace: "ml", description: "Feature pipeline for the churn model", owner: "ml-team" },
    ],
    datasets: [
      {
        nodeId: D.rawOrders,
        pipeline: "orders",
        kind: "table",
        partitionDef: DAILY,
        sourceImmutable: true,
        retentionDays: 400,
        description: "Immutable daily extracts of the order system",
      },
      {
        nodeId: D.dimCustomers,
        pipeline: "orders",
        kind: "table",
        partitionDef: NONE,
        sourceImmutable: false,
        description: "Current customer snapshot (no history)",
      },
      { nodeId: D.stgOrders, pipeline: "orders", kind: "table", partitionDef: DAILY, description: "Typed orders, one row per order" },
      { nodeId: D.fctOrders, pipeline: "orders", kind: "table", partitionDef: DAILY, description: "Orders joined with customer country and segment" },
      { nodeId: D.revenueDaily, pipeline: "orders", kind: "table", partitionDef: DAILY, description: "Revenue per country and day" },
      { nodeId: D.runningBalance, pipeline: "orders", kind: "table", partitionDef: DAILY, description: "Cumulative revenue to date" },
      { nodeId: D.dashboard, pipeline: "orders", kind: "dashboard", partitionDef: DAILY, description: "Executive revenue dashboard, daily headline" },
      {
        nodeId: D.weeklyExport,
        pipeline: "finance",
        kind: "export",
        partitionDef: WEEKLY,
        external: true,
        description: "Weekly revenue file sent to the finance ledger",
      },
      { nodeId: D.orderFeatures, pipeline: "ml", kind: "feature_set", partitionDef: DAILY, description: "Customer-day features for the churn model" },
    ],
    tasks: [
      task(T.landRawOrders, "orders", "replace", "Extracts one day of orders into the raw zone"),
      task(T.snapshotCustomers, "orders", "replace", "Copies the CRM's current customer list"),
      task(T.stgOrders, "orders", "append", "Stages raw orders (appends: not idempotent)"),
      task(T.fctOrders, "orders", "replace", "Builds the order fact, joining customers as of now"),
      task(T.revenueDaily, "orders", "replace", "Aggregates revenue per country-day"),
      task(T.refreshDashboard, "orders", "replace", "Refreshes the executive dashboard"),
      task(T.runningBalance, "orders", "replace", "Cumulative revenue: reads its own previous day", { dependsOnOwnPast: true }),
      task(T.weeklyExport, "finance", "replace", "Sends the weekly revenue file to finance", { sideEffect: "external" }),
      task(T.orderFeatures, "ml", "merge", "Builds customer-day features from fct_orders"),
    ],
    edges: [
      { task: T.landRawOrders, dataset: D.rawOrders, direction: "write" },
      { task: T.snapshotCustomers, dataset: D.dimCustomers, direction: "write" },
      { task: T.stgOrders, dataset: D.rawOrders, direction: "read" },
      { task: T.stgOrders, dataset: D.stgOrders, direction: "write" },
      { task: T.fctOrders, dataset: D.stgOrders, direction: "read" },
      { task: T.fctOrders, dataset: D.dimCustomers, direction: "read", mapping: "latest" },
      { task: T.fctOrders, dataset: D.fctOrders, direction: "write" },
      { task: T.revenueDaily, dataset: D.fctOrders, direction: "read" },
      { task: T.revenueDaily, dataset: D.revenueDaily, direction: "write" },
      { task: T.refreshDashboard, dataset: D.revenueDaily, direction: "read" },
      { task: T.refreshDashboard, dataset: D.dashboard, direction: "write" },
      { task: T.runningBalance, dataset: D.fctOrders, direction: "read" },
      { task: T.runningBalance, dataset: D.runningBalance, direction: "read", mapping: "previous", mappingParams: { n: 1 } },
      { task: T.runningBalance, dataset: D.runningBalance, direction: "write" },
      { task: T.weeklyExport, dataset: D.revenueDaily, direction: "read", mapping: "grain", mappingParams: { from: "day", to: "week" } },
      { task: T.weeklyExport, dataset: D.weeklyExport, direction: "write" },
      { task: T.orderFeatures, dataset: D.fctOrders, direction: "read" },
      { task: T.orderFeatures, dataset: D.orderFeatures, direction: "write" },
    ],
    // Seed 001's people: the teams owning the three pipelines, and who reads their output.
    teams: [
      { name: "orders-team", people: ["Maria Lopez (data engineering)"] },
      { name: "finance-team", people: ["Ana Silva (finance controller)"] },
      { name: "ml-team", people: ["Kenji Sato (ML engineering)"] },
    ],
    consumers: [
      { key: "finance-ledger", name: "Finance ledger (export recipient)", kind: "export_recipient", reads: [D.weeklyExport], people: ["Accounts payable"] },
      { key: "revenue-dashboard", name: "Revenue dashboard", kind: "dashboard", reads: [D.revenueDaily], people: ["Executive team"] },
      { key: "churn-model-team", name: "Churn model team", kind: "model_team", reads: [D.orderFeatures], people: ["Churn model owners"] },
    ],
  };
}
