import { resolvePartitions } from "@/lib/domain/partitions";
import { UNPARTITIONED_KEY } from "@/lib/domain/partitions";
import type { Db } from "../repositories/database";
import type { ExecutorLineage } from "../executor/executor-lineage";
import { executeRun } from "../executor/execute-run";
import { ORDERS_TASKS as T } from "../executor/task-code/node-ids";
import { demoClock } from "./demo-clock";
import { ORDERS_FIRST_DAY, ORDERS_LAST_DAY, ORDERS_LAST_FULL_WEEK_DAY } from "./orders-catalog";
import { ordersDemoFailure } from "./orders-demo-failure";
import { isoWeekOfDay } from "@/lib/domain/time-partitions";

export interface OrdersHistoryContext {
  lineage: ExecutorLineage;
  pipelines: ReadonlyMap<string, string>;
}

const HOUR = 3_600_000;
const DAILY_TASKS = [T.landRawOrders, T.stgOrders, T.fctOrders, T.revenueDaily, T.refreshDashboard, T.runningBalance];
// Every task gets one automatic retry, as most orchestrator configs do; it is stg_orders' that hurts.
const RETRIES = Object.fromEntries([...DAILY_TASKS, T.orderFeatures, T.weeklyExport, T.snapshotCustomers].map((t) => [t, { maxTries: 2 }]));

/**
 * The orders world's history, run for real: the initial customer snapshot, then for each day
 * the scheduled orders run (02:00 the next morning), the ML feature run (04:00) and, on the
 * Monday after each closed ISO week, the finance export (06:00). Returns the number of runs.
 */
export async function runOrdersHistory(db: Db, ctx: OrdersHistoryContext): Promise<number> {
  const days = resolvePartitions({ kind: "time", grain: "day", start: ORDERS_FIRST_DAY, end: ORDERS_LAST_DAY, timezone: "UTC" });
  await run(
    db,
    ctx,
    "orders",
    "manual",
    [{ taskNodeId: T.snapshotCustomers, unitKey: UNPARTITIONED_KEY }],
    new Date(`${ORDERS_FIRST_DAY}T01:00:00Z`),
    "demo-operator",
  );
  let runs = 1;
  for (let o = 0; o < days.size; o++) {
    const day = days.keyAt(o);
    const morning = Date.parse(`${day}T00:00:00Z`) + 24 * HOUR;
    await run(
      db,
      ctx,
      "orders",
      "scheduled",
      DAILY_TASKS.map((taskNodeId) => ({ taskNodeId, unitKey: day })),
      new Date(morning + 2 * HOUR),
      "schedule:orders_daily",
    );
    await run(db, ctx, "ml", "scheduled", [{ taskNodeId: T.orderFeatures, unitKey: day }], new Date(morning + 4 * HOUR), "sensor:fct_orders_published");
    runs += 2;
    if (new Date(`${day}T00:00:00Z`).getUTCDay() === 0 && day <= ORDERS_LAST_FULL_WEEK_DAY) {
      await run(
        db,
        ctx,
        "finance",
        "scheduled",
        [{ taskNodeId: T.weeklyExport, unitKey: isoWeekOfDay(day)! }],
        new Date(morning + 6 * HOUR),
        "schedule:finance_weekly",
      );
      runs += 1;
    }
  }
  return runs;
}

async function run(
  db: Db,
  ctx: OrdersHistoryContext,
  pipeline: string,
  kind: "manual" | "scheduled",
  pairs: { taskNodeId: string; unitKey: string }[],
  start: Date,
  triggeredBy: string,
) {
  return executeRun(db, {
    pipelineId: ctx.pipelines.get(pipeline) ?? null,
    kind,
    pairs,
    triggeredBy,
    clock: demoClock(start),
    nominalTime: new Date(Math.floor(start.getTime() / (24 * HOUR)) * 24 * HOUR),
    codeVersion: `${pipeline}@2026.08`,
    retries: RETRIES,
    failures: ordersDemoFailure,
    lineage: ctx.lineage,
    concurrency: 4,
  });
}
