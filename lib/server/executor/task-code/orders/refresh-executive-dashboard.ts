import type { TaskCode } from "../../types";
import { inputRows } from "../input-rows";
import { ORDERS_DATASETS } from "../node-ids";
import type { RevenueRow } from "./revenue-daily";

/** The executive dashboard's headline tile for the day: a number with no interval attached (seed 001). */
export const refreshExecutiveDashboard: TaskCode = {
  codeVersion: "executive_dashboard@0.8.2",
  atomicWrite: true,
  run(ctx) {
    const rows = inputRows<RevenueRow>(ctx, ORDERS_DATASETS.revenueDaily);
    const top = [...rows].sort((a, b) => b.revenue_cents - a.revenue_cents)[0];
    const payload = {
      day: ctx.unitKey,
      orders: rows.reduce((n, r) => n + r.orders, 0),
      revenue_cents: rows.reduce((n, r) => n + r.revenue_cents, 0),
      top_country: top?.country ?? null,
    };
    return { rows: [{ rowKey: "headline", payload }] };
  },
};
