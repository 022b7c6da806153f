import type { TaskCode } from "../types";
import { weeklyRevenueExport } from "./finance/weekly-revenue-export";
import { computeConsumption } from "./meters/compute-consumption";
import { dedupeReadings } from "./meters/dedupe-readings";
import { landMeterReadings } from "./meters/land-meter-readings";
import { screenReadings } from "./meters/screen-readings";
import { serveRegionalAverages } from "./meters/serve-regional-averages";
import { summariseConsumption } from "./meters/summarise-consumption";
import { buildOrderFeatures } from "./ml/build-order-features";
import { METER_TASKS, ORDERS_TASKS } from "./node-ids";
import { fctOrders } from "./orders/fct-orders";
import { landRawOrders } from "./orders/land-raw-orders";
import { refreshExecutiveDashboard } from "./orders/refresh-executive-dashboard";
import { revenueDaily } from "./orders/revenue-daily";
import { runningBalance } from "./orders/running-balance";
import { snapshotCustomers } from "./orders/snapshot-customers";
import { stgOrders } from "./orders/stg-orders";

const CODE: ReadonlyMap<string, TaskCode> = new Map<string, TaskCode>([
  [ORDERS_TASKS.landRawOrders, landRawOrders],
  [ORDERS_TASKS.snapshotCustomers, snapshotCustomers],
  [ORDERS_TASKS.stgOrders, stgOrders],
  [ORDERS_TASKS.fctOrders, fctOrders],
  [ORDERS_TASKS.revenueDaily, revenueDaily],
  [ORDERS_TASKS.refreshDashboard, refreshExecutiveDashboard],
  [ORDERS_TASKS.runningBalance, runningBalance],
  [ORDERS_TASKS.weeklyExport, weeklyRevenueExport],
  [ORDERS_TASKS.orderFeatures, buildOrderFeatures],
  [METER_TASKS.land, landMeterReadings],
  [METER_TASKS.screen, screenReadings],
  [METER_TASKS.dedupe, dedupeReadings],
  [METER_TASKS.consumption, computeConsumption],
  [METER_TASKS.summary, summariseConsumption],
  [METER_TASKS.serve, serveRegionalAverages],
]);

/**
 * The code the local executor runs for a task, by the task's node id. A task with no code here
 * (one only known from OpenLineage events) cannot be run locally: a repair of it is exported
 * to its own orchestrator instead.
 */
export function taskCodeFor(taskNodeId: string): TaskCode {
  const code = CODE.get(taskNodeId);
  if (!code) throw new Error(`no local code for ${taskNodeId}: run it through its own orchestrator`);
  return code;
}

/** Whether the local executor has code for the task (the demo's tasks only). */
export function hasTaskCode(taskNodeId: string): boolean {
  return CODE.has(taskNodeId);
}
