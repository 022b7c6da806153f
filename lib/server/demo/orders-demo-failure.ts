import { ORDERS_TASKS } from "../executor/task-code/node-ids";
import { ordersOfDay } from "../executor/task-code/orders/orders-source";
import type { FailureInjection } from "../executor/types";

/**
 * The faults the demo's daily runs meet (issue 2), all in stg_orders, whose retry policy
 * allows two tries:
 *   2026-08-10  try 1 dies after half the rows; try 2 appends the full set and succeeds
 *   2026-08-17  try 1 dies after half the rows; try 2 fails before writing
 *   2026-08-23  both tries fail before writing anything
 */
export function ordersDemoFailure(taskNodeId: string, unitKey: string, tryNumber: number): FailureInjection | undefined {
  if (taskNodeId !== ORDERS_TASKS.stgOrders) return undefined;
  const half = ordersOfDay(unitKey).length / 2;
  const midWrite = { failAfterRows: half, error: `warehouse connection reset by peer after ${half} rows were inserted` };
  const refused = { failBeforeWrite: true, error: "could not open a warehouse session: too many connections for role etl_orders" };
  if (unitKey === "2026-08-10") return tryNumber === 1 ? midWrite : undefined;
  if (unitKey === "2026-08-17") return tryNumber === 1 ? midWrite : refused;
  if (unitKey === "2026-08-23")
    return { failBeforeWrite: true, error: "raw_orders 2026-08-23: object store returned 503 SlowDown while listing the partition" };
  return undefined;
}
