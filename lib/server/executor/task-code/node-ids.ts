/**
 * Node ids of the demo pipelines, in Marquez's convention: tasks `job:<pipeline>:<name>`,
 * datasets `dataset:<namespace>:<name>` (warehouse tables, the BI dashboard, the finance
 * export, the ML feature set).
 */
import { datasetId, taskId } from "@/lib/domain/ids";

export const ORDERS_TASKS = {
  landRawOrders: taskId("orders", "land_raw_orders"),
  snapshotCustomers: taskId("orders", "snapshot_customers"),
  stgOrders: taskId("orders", "stg_orders"),
  fctOrders: taskId("orders", "fct_orders"),
  revenueDaily: taskId("orders", "revenue_daily"),
  refreshDashboard: taskId("orders", "refresh_executive_dashboard"),
  runningBalance: taskId("orders", "running_balance"),
  weeklyExport: taskId("finance", "weekly_revenue_export"),
  orderFeatures: taskId("ml", "build_order_features"),
} as const;

export const ORDERS_DATASETS = {
  rawOrders: datasetId("warehouse", "raw_orders"),
  dimCustomers: datasetId("warehouse", "dim_customers"),
  stgOrders: datasetId("warehouse", "stg_orders"),
  fctOrders: datasetId("warehouse", "fct_orders"),
  revenueDaily: datasetId("warehouse", "revenue_daily"),
  runningBalance: datasetId("warehouse", "running_balance"),
  dashboard: datasetId("bi", "executive_dashboard"),
  weeklyExport: datasetId("finance", "weekly_revenue_export"),
  orderFeatures: datasetId("ml", "order_features"),
} as const;

export const METER_TASKS = {
  land: taskId("meters", "land_meter_readings"),
  screen: taskId("meters", "screen_readings"),
  dedupe: taskId("meters", "dedupe_readings"),
  consumption: taskId("meters", "compute_consumption"),
  summary: taskId("meters", "summarise_consumption"),
  serve: taskId("meters", "serve_regional_averages"),
} as const;

export const METER_DATASETS = {
  raw: datasetId("warehouse", "meter_readings_raw"),
  screened: datasetId("warehouse", "meter_readings_screened"),
  deduped: datasetId("warehouse", "meter_readings_deduped"),
  consumption: datasetId("warehouse", "meter_consumption"),
  summary: datasetId("warehouse", "meter_summary"),
  serving: datasetId("warehouse", "meter_serving"),
} as const;
