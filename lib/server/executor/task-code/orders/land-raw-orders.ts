import type { TaskCode } from "../../types";
import { ORDERS_DATASETS } from "../node-ids";
import { ordersOfDay } from "./orders-source";

/** Extracts one day from the order system into the raw landing zone; the day's count is the source count. */
export const landRawOrders: TaskCode = {
  codeVersion: "land_raw_orders@1.2.0",
  atomicWrite: true,
  reconciles: [ORDERS_DATASETS.stgOrders, ORDERS_DATASETS.fctOrders],
  run(ctx) {
    const orders = ordersOfDay(ctx.unitKey);
    return { rows: orders.map((o) => ({ rowKey: o.order_id, payload: { ...o } })), sourceCount: orders.length };
  },
};
