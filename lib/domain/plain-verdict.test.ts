import { describe, expect, it } from "vitest";
import { incidentDoing, plainVerdict, type ProblemReason } from "./plain-verdict";

// raw_orders -> stg_orders (append) -> fct_orders -> revenue_daily
const reason = (over: Partial<ProblemReason>): ProblemReason => ({
  datasetName: "revenue_daily", role: "target", unitKey: "2026-08-10", state: "suspect", reason: "built from upstream …",
  rows: null, sourceCount: null, writerNodeId: "job:orders:revenue_daily", incidents: [], ...over,
});
const stg = (over: Partial<ProblemReason>) => reason({ datasetName: "stg_orders", role: "upstream", writerNodeId: "job:orders:stg_orders", ...over });
const fct = (over: Partial<ProblemReason>) => reason({ datasetName: "fct_orders", role: "upstream", writerNodeId: "job:orders:fct_orders", ...over });

describe("plainVerdict", () => {
  it("the demo's 2026-08-10: overstated by about 50 %, named from the duplicated upstream unit, and no one on it", () => {
    const v = plainVerdict("revenue_daily", "2026-08-10", [
      reason({ rows: 5 }),
      stg({ state: "duplicate", rows: 66, sourceCount: 44 }),
      fct({ state: "divergent", rows: 66, sourceCount: 44 }),
    ]);
    expect(v.sentence).toBe("revenue_daily for 2026-08-10 is probably overstated by about 50 %: it was built from stg_orders 2026-08-10, which holds 66 rows where the source has 44 (22 rows extra).");
    expect(v.effect).toEqual({ kind: "overstated", percent: 50 });
    expect(v.onIt).toEqual([]);
    expect(v.openIncident).toEqual({ node: "job:orders:stg_orders", unitKey: "2026-08-10" });
  });

  it("exactly two copies read as 'every row twice'; rows short read as understated", () => {
    expect(plainVerdict("revenue_daily", "2026-08-10", [reason({}), stg({ state: "duplicate", rows: 88, sourceCount: 44 })]).sentence)
      .toBe("revenue_daily for 2026-08-10 is probably overstated by about 100 %: it was built from stg_orders 2026-08-10, which holds every row twice (88 where the source has 44).");
    const short = plainVerdict("meters_monthly", "2026-07", [reason({ datasetName: "meters_monthly", unitKey: "2026-07", state: "divergent", rows: 120, sourceCount: 200 })]);
    expect(short.sentence).toBe("meters_monthly for 2026-07 is probably understated by about 40 %: it holds 120 rows where the source has 200 (80 rows short).");
    expect(short.effect).toEqual({ kind: "understated", percent: 40 });
  });

  it("a day never built says the total leaves it out and names the failed upstream unit, with the incident on it", () => {
    const incident = { id: "inc-1", title: "stg_orders 2026-08-17 failed", status: "repairing" };
    const v = plainVerdict("revenue_daily", "2026-08-17", [
      reason({ unitKey: "2026-08-17", state: "blocked" }),
      stg({ unitKey: "2026-08-17", state: "failed", rows: 20, sourceCount: 40, incidents: [incident] }),
      fct({ unitKey: "2026-08-17", state: "blocked", incidents: [incident] }),
    ]);
    expect(v.sentence).toBe("revenue_daily has no figure for 2026-08-17: it was never built, because stg_orders 2026-08-17 failed. A total over the period leaves that day out.");
    expect(v.effect).toEqual({ kind: "absent" });
    expect(v.onIt).toEqual([{ ...incident, doing: "is repairing it" }]);
    expect(v.openIncident).toBeNull();
  });

  it("without a source count it says the number may be wrong, never a percentage", () => {
    const v = plainVerdict("revenue_daily", "2026-08-10", [reason({}), stg({ state: "duplicate", rows: 66, sourceCount: null })]);
    expect(v.sentence).toBe("revenue_daily for 2026-08-10 may be wrong: it was built from stg_orders 2026-08-10, which holds some of its rows more than once.");
    expect(v.effect).toEqual({ kind: "unknown" });
  });

  it("known-bad and skipped units are gaps to leave out; an empty unit is a whole day short", () => {
    expect(plainVerdict("revenue_daily", "2026-08-05", [reason({ unitKey: "2026-08-05", state: "known_bad", reason: "vendor double-counted refunds" })]).sentence)
      .toBe("revenue_daily for 2026-08-05 is marked known-bad: leave it out of any total and do not quote it (vendor double-counted refunds).");
    expect(plainVerdict("revenue_daily", "2026-08-06", [reason({ unitKey: "2026-08-06", state: "skipped" })]).sentence)
      .toBe("revenue_daily for 2026-08-06 was skipped on purpose: the period has a gap there, not a number.");
    const empty = plainVerdict("revenue_daily", "2026-08-07", [reason({ unitKey: "2026-08-07", state: "empty", rows: 0, sourceCount: 44 })]);
    expect(empty.sentence).toBe("revenue_daily for 2026-08-07 is empty: 0 rows where the source has 44 rows, so a total over the period misses it.");
    expect(empty.effect).toEqual({ kind: "understated", percent: 100 });
    expect(empty.openIncident).toEqual({ node: "job:orders:revenue_daily", unitKey: "2026-08-07" });
  });

  it("words an incident's status as what it is doing", () => {
    expect(incidentDoing("open")).toBe("is open on it");
    expect(incidentDoing("planned")).toBe("has a repair planned");
    expect(incidentDoing("validating")).toBe("is validating its repair");
  });
});
