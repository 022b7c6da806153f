import type { TaskCode } from "../../types";
import { inputRows } from "../input-rows";
import { ORDERS_DATASETS } from "../node-ids";
import type { FactOrder } from "./staged-order";

interface Balance {
  day: string;
  revenue_cents: number;
  cumulative_cents: number;
}

/**
 * Cumulative revenue: the day's revenue plus YESTERDAY'S OWN balance (previous(1) on its own
 * output). Units are sequential: a gap blocks every later day (seed 001).
 */
export const runningBalance: TaskCode = {
  codeVersion: "running_balance@1.0.0",
  atomicWrite: true,
  run(ctx) {
    const revenue = inputRows<FactOrder>(ctx, ORDERS_DATASETS.fctOrders).reduce((n, o) => n + o.amount_cents, 0);
    const previous = inputRows<Balance>(ctx, ORDERS_DATASETS.runningBalance)[0];
    const payload: Balance = { day: ctx.unitKey, revenue_cents: revenue, cumulative_cents: (previous?.cumulative_cents ?? 0) + revenue };
    return { rows: [{ rowKey: "balance", payload: { ...payload } }] };
  },
};
