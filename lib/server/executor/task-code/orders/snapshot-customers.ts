import type { TaskCode } from "../../types";
import { currentCustomers } from "./customers-source";

/** Copies the CRM's current customer list: an unpartitioned snapshot, replaced whole. */
export const snapshotCustomers: TaskCode = {
  codeVersion: "snapshot_customers@1.0.3",
  atomicWrite: true,
  run: () => ({ rows: currentCustomers().map((c) => ({ rowKey: c.customer_id, payload: { ...c } })) }),
};
