import { describe, expect, it } from "vitest";
import { parseFailedPairs } from "./incidents";
import { namesUnit } from "./open-incidents";

describe("an incident's failed pairs", () => {
  it("are read as they were written, [{ nodeId, units }], and name exactly their units", () => {
    const pairs = parseFailedPairs(JSON.stringify([{ nodeId: "job:orders:stg_orders", units: ["2026-08-17", "2026-08-21"] }]));
    expect(pairs).toEqual([{ nodeId: "job:orders:stg_orders", units: ["2026-08-17", "2026-08-21"] }]);
    expect(namesUnit(pairs, ["dataset:warehouse:stg_orders", "job:orders:stg_orders"], "2026-08-21")).toBe(true);
    expect(namesUnit(pairs, ["job:orders:stg_orders"], "2026-08-20")).toBe(false);
    expect(namesUnit(pairs, ["job:orders:fct_orders"], "2026-08-17")).toBe(false);
  });

  it("refuses a column that is not that shape instead of guessing", () => {
    expect(() => parseFailedPairs("not json")).toThrow();
    expect(() => parseFailedPairs(JSON.stringify([{ units: ["2026-08-01"] }]))).toThrow();
    expect(() => parseFailedPairs(JSON.stringify([{ nodeId: "job:orders:stg_orders", units: [["2026-08-20", "2026-08-22"]] }]))).toThrow();
  });
});
