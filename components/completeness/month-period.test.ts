import { describe, expect, it } from "vitest";
import type { DatasetOption } from "@/lib/contracts/completeness";
import { monthOfPeriod, monthPeriod } from "./month-period";

const revenue: DatasetOption = {
  nodeId: "dataset:warehouse:revenue_daily",
  name: "revenue_daily",
  pipeline: "orders",
  grain: "day",
  firstKey: "2026-05-18",
  lastKey: "2026-08-25",
};

describe("monthOfPeriod", () => {
  it("gives back the month a checked period was picked as, clipped end included, so the field stays filled", () => {
    expect(monthPeriod(revenue, "2026-08")).toEqual({ from: "2026-08-01", to: "2026-08-25" });
    expect(monthOfPeriod(revenue, "2026-08-01", "2026-08-25")).toBe("2026-08");
    expect(monthOfPeriod(revenue, "2026-07-01", "2026-07-31")).toBe("2026-07");
    expect(monthOfPeriod(revenue, "2026-05-18", "2026-05-31")).toBe("2026-05");
  });

  it("stays blank for a period that is not one whole month", () => {
    expect(monthOfPeriod(revenue, "2026-08-02", "2026-08-25")).toBe("");
    expect(monthOfPeriod(revenue, "2026-07-01", "2026-08-25")).toBe("");
    expect(monthOfPeriod(revenue, undefined, undefined)).toBe("");
    expect(monthOfPeriod({ ...revenue, grain: "hour" }, "2026-08-01", "2026-08-25")).toBe("");
  });
});
