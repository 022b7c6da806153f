import type { TaskCode } from "../../types";
import { inputRows } from "../input-rows";
import { ORDERS_DATASETS } from "../node-ids";
import type { Customer } from "./customers-source";
import type { FactOrder, StagedOrder } from "./staged-order";

/**
 * The order fact: every staged row joined with the customer's country and segment from the
 * CURRENT dim_customers snapshot (as-of-now, seed 000). Built on whatever stg_orders holds:
 * one and a half copies in, one and a half copies out.
 */
export const fctOrders: TaskCode = {
  codeVersion: "fct_orders@1.9.0",
  atomicWrite: true,
  run(ctx) {
    const customers = new Map(inputRows<Customer>(ctx, ORDERS_DATASETS.dimCustomers).map((c) => [c.customer_id, c]));
    const rows = inputRows<StagedOrder>(ctx, ORDERS_DATASETS.stgOrders).map((o): FactOrder => {
      const c = customers.get(o.customer_id);
      return { ...o, country: c?.country ?? "unknown", segment: c?.segment ?? "unknown" };
    });
    return { rows: rows.map((r) => ({ rowKey: r.order_id, payload: { ...r } })) };
  },
};
