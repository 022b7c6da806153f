import type { TaskCode } from "../../types";
import { inputRows } from "../input-rows";
import { ORDERS_DATASETS } from "../node-ids";
import type { FactOrder } from "./staged-order";

export interface RevenueRow {
  day: string;
  country: string;
  orders: number;
  revenue_cents: number;
}

/** The revenue mart: one row per country for the day. */
export const revenueDaily: TaskCode = {
  codeVersion: "revenue_daily@1.1.0",
  atomicWrite: true,
  run(ctx) {
    const byCountry = new Map<string, RevenueRow>();
    for (const o of inputRows<FactOrder>(ctx, ORDERS_DATASETS.fctOrders)) {
      const row = byCountry.get(o.country) ?? { day: ctx.unitKey, country: o.country, orders: 0, revenue_cents: 0 };
      row.orders += 1;
      row.revenue_cents += o.amount_cents;
      byCountry.set(o.country, row);
    }
    const rows = [...byCountry.values()].sort((a, b) => a.country.localeCompare(b.country));
    return { rows: rows.map((r) => ({ rowKey: r.country, payload: { ...r } })) };
  },
};
