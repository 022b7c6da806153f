import type { Db } from "../repositories/database";
import { demoWorldCounts } from "../repositories/demo/demo-world";
import { loadExecutorLineage } from "../executor/load-executor-lineage";
import { clearDemo } from "./clear-demo";
import { metersCatalog } from "./meters-catalog";
import { ordersCatalog } from "./orders-catalog";
import { registerCatalog } from "./register-catalog";
import { registerDemoUsers } from "./register-demo-users";
import { requestInvalidBackfill } from "./request-invalid-backfill";
import { DEMO_METERS_SCENARIO, runMetersHistory } from "./run-meters-history";
import { runOrdersHistory } from "./run-orders-history";

export interface DemoSummary {
  runs: number;
  attempts: Record<string, number>;
  publishes: number;
  warehouseRows: number;
  deliveries: number;
  invalidKeys: number;
}

const LINEAGE_SINCE = new Date("2026-05-01T00:00:00Z");

/**
 * Replaces the demo world: clears the previous one, registers users and the orders, finance,
 * ml and meters catalogs, then produces every row by running the pipelines' task code through
 * the local executor (failures injected where the demo needs them).
 */
export async function loadDemo(db: Db): Promise<DemoSummary> {
  await clearDemo(db);
  await registerDemoUsers(db);
  const orders = await registerCatalog(db, ordersCatalog(), LINEAGE_SINCE);
  const meters = await registerCatalog(db, metersCatalog("append"), LINEAGE_SINCE);
  const lineage = await loadExecutorLineage(db, new Date("2026-08-26T00:00:00Z"));
  let runs = await runOrdersHistory(db, { lineage, pipelines: orders.pipelines });
  await runMetersHistory(db, lineage, meters.pipelines.get("meters") ?? null, DEMO_METERS_SCENARIO);
  await requestInvalidBackfill(db, lineage, orders.pipelines.get("ml") ?? null);
  runs += 3;
  return summarise(db, runs);
}

async function summarise(db: Db, runs: number): Promise<DemoSummary> {
  return { runs, ...(await demoWorldCounts(db)) };
}
