import { describe, expect, it } from "vitest";
import { outstandingDeliveries, type SentUnit } from "./delivery-guard";

// revenue_daily -> weekly_revenue_export (sent to finance-ledger: W33 and W34 before the repair)
const EXPORT = ["job:finance:weekly_revenue_export", "dataset:finance:weekly_revenue_export"];
const sent = (unitKey: string, at: string): SentUnit => ({ nodeIds: EXPORT, unitKey, destination: "finance-ledger", sentAt: new Date(at) });
const name = (id: string) => id.split(":").at(-1)!;
const none = () => false;
const REPAIR = new Date("2026-12-06T05:10:00Z");

describe("outstandingDeliveries", () => {
  it("holds a unit sent before the repair, neither sent again nor acknowledged, and names it", () => {
    const out = outstandingDeliveries([sent("2026-W34", "2026-08-24T06:00:00Z")], REPAIR, none, name);
    expect(out.map((o) => o.words)).toEqual(["weekly_revenue_export 2026-W34 (sent to finance-ledger on 2026-08-24 06:00 UTC)"]);
  });

  it("lets go of a unit delivered again after the repair started", () => {
    expect(outstandingDeliveries([sent("2026-W34", "2026-08-24T06:00:00Z"), sent("2026-W34", "2026-12-06T05:12:00Z")], REPAIR, none, name)).toEqual([]);
  });

  it("does not count a delivery when no repair ran: it carried the same wrong unit", () => {
    expect(outstandingDeliveries([sent("2026-W34", "2026-08-24T06:00:00Z"), sent("2026-W34", "2026-12-06T05:12:00Z")], null, none, name)).toHaveLength(1);
  });

  it("lets go of a unit whose notice was acknowledged, on the task's node or its dataset's, and only that unit", () => {
    const ackW34 = (node: string, key: string) => node === "dataset:finance:weekly_revenue_export" && key === "2026-W34";
    const out = outstandingDeliveries([sent("2026-W33", "2026-08-17T06:00:00Z"), sent("2026-W34", "2026-08-24T06:00:00Z")], REPAIR, ackW34, name);
    expect(out.map((o) => o.unitKey)).toEqual(["2026-W33"]);
  });
});
