import { describe, expect, it } from "vitest";
import { namesUnit, parseFailedPairs } from "./incident-reads";

describe("an incident's failed pairs", () => {
  it("reads keys, [from, to] ranges and { from, to } objects, and ignores anything else", () => {
    const pairs = parseFailedPairs(JSON.stringify([
      { nodeId: "job:orders:stg_orders", units: ["2026-08-17", ["2026-08-20", "2026-08-22"], { from: "2026-08-24", to: "2026-08-25" }, 7] },
      { units: ["2026-08-01"] },
    ]));
    expect(pairs).toEqual([{ nodeId: "job:orders:stg_orders", keys: ["2026-08-17"], ranges: [["2026-08-20", "2026-08-22"], ["2026-08-24", "2026-08-25"]] }]);
    expect(namesUnit(pairs, ["dataset:warehouse:stg_orders", "job:orders:stg_orders"], "2026-08-21")).toBe(true);
    expect(namesUnit(pairs, ["job:orders:stg_orders"], "2026-08-23")).toBe(false);
    expect(namesUnit(pairs, ["job:orders:fct_orders"], "2026-08-17")).toBe(false);
    expect(parseFailedPairs("not json")).toEqual([]);
  });
});
