import type { TaskCode } from "../../types";
import { inputRows } from "../input-rows";
import { ORDERS_DATASETS } from "../node-ids";
import type { FactOrder } from "../orders/staged-order";

interface CustomerDayFeatures {
  customer_id: string;
  day: string;
  orders: number;
  spend_cents: number;
  avg_order_cents: number;
}

/** Training features per customer-day, read from fct_orders on the ML team's own schedule; merged on the customer. */
export const buildOrderFeatures: TaskCode = {
  codeVersion: "order_features@0.5.0",
  atomicWrite: true,
  run(ctx) {
    const byCustomer = new Map<string, CustomerDayFeatures>();
    for (const o of inputRows<FactOrder>(ctx, ORDERS_DATASETS.fctOrders)) {
      const f = byCustomer.get(o.customer_id) ?? { customer_id: o.customer_id, day: ctx.unitKey, orders: 0, spend_cents: 0, avg_order_cents: 0 };
      f.orders += 1;
      f.spend_cents += o.amount_cents;
      f.avg_order_cents = Math.round(f.spend_cents / f.orders);
      byCustomer.set(o.customer_id, f);
    }
    const rows = [...byCustomer.values()].sort((a, b) => a.customer_id.localeCompare(b.customer_id));
    return { rows: rows.map((f) => ({ rowKey: f.customer_id, payload: { ...f } })) };
  },
};
