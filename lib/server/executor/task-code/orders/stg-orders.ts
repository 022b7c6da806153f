import type { TaskCode } from "../../types";
import { inputRows } from "../input-rows";
import { ORDERS_DATASETS } from "../node-ids";
import type { RawOrder } from "./orders-source";

/**
 * Stages a raw day: typed, one row per order. Declared `append` and written row batch by row
 * batch (not atomic) — the combination seed 001 warns about: a retry after a partial write
 * keeps the partial rows and adds a full copy.
 */
export const stgOrders: TaskCode = {
  codeVersion: "stg_orders@2.4.1",
  atomicWrite: false,
  run(ctx) {
    const raw = inputRows<RawOrder>(ctx, ORDERS_DATASETS.rawOrders);
    return {
      rows: raw.map((o) => ({
        rowKey: o.order_id,
        payload: { order_id: o.order_id, customer_id: o.customer_id, amount_cents: o.amount_cents, order_date: ctx.unitKey, ordered_at: o.ordered_at },
      })),
    };
  },
};
