import { describe, expect, it } from "vitest";
import { incidentDoing, plainVerdict, type ProblemReason } from "./plain-verdict";

// raw_orders -> stg_orders (append) -> fct_orders -> revenue_daily
const reason = (over: Partial<ProblemReason>): ProblemReason => ({
  datasetName: "revenue_daily",
  role: "target",
  unitKey: "2026-08-10",
  state: "suspect",
  reason: "built from upstream …",
  rows: null,
  sourceCount: null,
  writerNodeId: "job:orders:revenue_daily",
  incidents: [],
  builtFrom: null,
  ...over,
});
const stg = (over: Partial<ProblemReason>) => reason({ datasetName: "stg_orders", role: "upstream", writerNodeId: "job:orders:stg_orders", ...over });
const fct = (over: Partial<ProblemReason>) => reason({ datasetName: "fct_orders", role: "upstream", writerNodeId: "job:orders:fct_orders", ...over });

/** The sentence for revenue_daily 2026-08-10 built from stg_orders 2026-08-17 with this upstream problem, after the subject. */
const stateWords = (problem: string) =>
  plainVerdict("revenue_daily", "2026-08-10", [reason({ builtFrom: { datasetName: "stg_orders", unitKey: "2026-08-17", problem } })]).sentence.replace(
    "revenue_daily for 2026-08-10 ",
    "",
  );

describe("plainVerdict", () => {
  it("the demo's 2026-08-10: overstated by about 50 %, named from the duplicated upstream unit, and no one on it", () => {
    const v = plainVerdict("revenue_daily", "2026-08-10", [
      reason({ rows: 5 }),
      stg({ state: "duplicate", rows: 66, sourceCount: 44 }),
      fct({ state: "divergent", rows: 66, sourceCount: 44 }),
    ]);
    expect(v.sentence).toBe(
      "revenue_daily for 2026-08-10 is probably overstated by about 50 %: it was built from stg_orders 2026-08-10, which holds 66 rows where the source has 44 (22 rows extra).",
    );
    expect(v.effect).toEqual({ kind: "overstated", percent: 50 });
    expect(v.onIt).toEqual([]);
    expect(v.openIncident).toEqual({ node: "job:orders:stg_orders", unitKey: "2026-08-10" });
  });

  it("exactly two copies read as 'every row twice'; rows short read as understated", () => {
    expect(plainVerdict("revenue_daily", "2026-08-10", [reason({}), stg({ state: "duplicate", rows: 88, sourceCount: 44 })]).sentence).toBe(
      "revenue_daily for 2026-08-10 is probably overstated by about 100 %: it was built from stg_orders 2026-08-10, which holds every row twice (88 where the source has 44).",
    );
    const short = plainVerdict("meters_monthly", "2026-07", [
      reason({ datasetName: "meters_monthly", unitKey: "2026-07", state: "divergent", rows: 120, sourceCount: 200 }),
    ]);
    expect(short.sentence).toBe(
      "meters_monthly for 2026-07 is probably understated by about 40 %: it holds 120 rows where the source has 200 (80 rows short).",
    );
    expect(short.effect).toEqual({ kind: "understated", percent: 40 });
  });

  it("a day never built says the total leaves it out and names the failed upstream unit, with the incident on it", () => {
    const incident = { id: "inc-1", title: "stg_orders 2026-08-17 failed", status: "repairing" };
    const v = plainVerdict("revenue_daily", "2026-08-17", [
      reason({ unitKey: "2026-08-17", state: "blocked" }),
      stg({ unitKey: "2026-08-17", state: "failed", rows: 20, sourceCount: 40, incidents: [incident] }),
      fct({ unitKey: "2026-08-17", state: "blocked", incidents: [incident] }),
    ]);
    expect(v.sentence).toBe(
      "revenue_daily has no figure for 2026-08-17: it was never built, because stg_orders 2026-08-17 failed. A total over the period leaves that day out.",
    );
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
    expect(
      plainVerdict("revenue_daily", "2026-08-05", [reason({ unitKey: "2026-08-05", state: "known_bad", reason: "vendor double-counted refunds" })]).sentence,
    ).toBe("revenue_daily for 2026-08-05 is marked known-bad: leave it out of any total and do not quote it (vendor double-counted refunds).");
    expect(plainVerdict("revenue_daily", "2026-08-06", [reason({ unitKey: "2026-08-06", state: "skipped" })]).sentence).toBe(
      "revenue_daily for 2026-08-06 was skipped on purpose: the period has a gap there, not a number.",
    );
    const empty = plainVerdict("revenue_daily", "2026-08-07", [reason({ unitKey: "2026-08-07", state: "empty", rows: 0, sourceCount: 44 })]);
    expect(empty.sentence).toBe("revenue_daily for 2026-08-07 is empty: 0 rows where the source has 44 rows, so a total over the period misses it.");
    expect(empty.effect).toEqual({ kind: "understated", percent: 100 });
    expect(empty.openIncident).toEqual({ node: "job:orders:revenue_daily", unitKey: "2026-08-07" });
  });

  it("a unit whose bad input is its own previous day names that day, in words, not the engineer's reason", () => {
    const v = plainVerdict("running_balance", "2026-08-11", [
      reason({
        datasetName: "running_balance",
        unitKey: "2026-08-11",
        builtFrom: { datasetName: "running_balance", unitKey: "2026-08-10", problem: "itself suspect" },
      }),
    ]);
    expect(v.sentence).toBe("running_balance for 2026-08-11 may be wrong: it was built from running_balance 2026-08-10, which was itself built on bad data.");
    expect(stateWords("a partial write (20 rows left by failed tries)")).toBe(
      "may be wrong: it was built from stg_orders 2026-08-17, which holds only what a failed write left.",
    );
  });

  it("a week never built because a day it reads failed says so, in weeks", () => {
    expect(
      plainVerdict("weekly_revenue_export", "2026-W34", [reason({ datasetName: "weekly_revenue_export", unitKey: "2026-W34", state: "blocked" })]).sentence,
    ).toBe(
      "weekly_revenue_export has no figure for 2026-W34: it was never built, because an upstream unit it reads failed. A total over the period leaves that week out.",
    );
  });

  it("upstream units at another key: an estimate only when something was built on them", () => {
    const unbuilt = plainVerdict("weekly_revenue_export", "2026-08-17", [
      stg({ unitKey: "2026-08-17", state: "failed", rows: 20, sourceCount: 40 }),
      fct({ unitKey: "2026-08-17", state: "blocked" }),
    ]);
    expect(unbuilt.sentence).toBe("weekly_revenue_export has nothing from 2026-08-17: stg_orders 2026-08-17 failed.");
    expect(unbuilt.effect).toEqual({ kind: "absent" });
    // seed 003: the landing failed at row 120 of 200 and the rest of the chain was built on it.
    const partial = plainVerdict("meter_serving", "2026-07", [
      reason({ datasetName: "meter_readings_raw", role: "upstream", unitKey: "2026-07", state: "failed", rows: 120, sourceCount: 200 }),
      reason({ datasetName: "meter_readings_screened", role: "upstream", unitKey: "2026-07", state: "divergent", rows: 120, sourceCount: 200 }),
    ]);
    expect(partial.sentence).toBe(
      "meter_serving, where it reads 2026-07, is probably understated by about 40 %: it reads meter_readings_raw 2026-07, which holds 120 rows where the source has 200 (80 rows short).",
    );
  });

  it("an unpartitioned dataset's one unit is named by the dataset alone", () => {
    expect(
      plainVerdict("meter_serving", "*", [
        reason({ datasetName: "meter_serving", unitKey: "*", builtFrom: { datasetName: "meter_summary", unitKey: "2026-07", problem: "itself suspect" } }),
      ]).sentence,
    ).toBe("meter_serving may be wrong: it was built from meter_summary 2026-07, which was itself built on bad data.");
  });

  it("words an incident's status as what it is doing", () => {
    expect(incidentDoing("open")).toBe("is open on it");
    expect(incidentDoing("planned")).toBe("has a repair planned");
    expect(incidentDoing("validating")).toBe("is validating its repair");
  });
});
