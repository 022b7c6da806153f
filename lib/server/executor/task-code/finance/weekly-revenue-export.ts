import type { TaskCode } from "../../types";
import { inputRows } from "../input-rows";
import { ORDERS_DATASETS } from "../node-ids";
import type { RevenueRow } from "../orders/revenue-daily";

/**
 * The finance team's weekly file: revenue_daily rolled up from days to the ISO week, sent to
 * the finance ledger's inbox. Sending is the side effect: re-running the pipeline recalls
 * nothing already sent (seed 001).
 */
export const weeklyRevenueExport: TaskCode = {
  codeVersion: "weekly_revenue_export@3.0.1",
  atomicWrite: true,
  run(ctx) {
    const days = ctx.inputs[ORDERS_DATASETS.revenueDaily]?.unitKeys ?? [];
    const byCountry = new Map<string, { week: string; country: string; orders: number; revenue_cents: number }>();
    for (const r of inputRows<RevenueRow>(ctx, ORDERS_DATASETS.revenueDaily)) {
      const row = byCountry.get(r.country) ?? { week: ctx.unitKey, country: r.country, orders: 0, revenue_cents: 0 };
      row.orders += r.orders;
      row.revenue_cents += r.revenue_cents;
      byCountry.set(r.country, row);
    }
    const rows = [...byCountry.values()].sort((a, b) => a.country.localeCompare(b.country));
    const total = rows.reduce((n, r) => n + r.revenue_cents, 0);
    return {
      rows: rows.map((r) => ({ rowKey: r.country, payload: { ...r } })),
      delivery: {
        destination: `sftp://finance-ledger.internal/inbound/weekly_revenue_${ctx.unitKey}.csv`,
        payload: { week: ctx.unitKey, days, rows, total_revenue_cents: total },
      },
    };
  },
};
