import { describe, expect, it } from "vitest";
import { incidentSeverity, SEVERITY_THRESHOLDS, type SeverityFacts } from "./incident-severity";

// The demo's orders world, as the closures below reach it:
//
//   raw_orders -> stg_orders -> fct_orders -> revenue_daily -> weekly_revenue_export (external: sent each Monday)
//                               fct_orders -> running_balance (reads its own previous day), order_features (ml)
//                                             revenue_daily -> executive dashboard
const small: SeverityFacts = { delivered: [], external: [], critical: null, consumers: null, datasets: 2, units: 2, ageHours: 6 };

describe("incidentSeverity", () => {
  it("an export already sent from an affected unit is SEV1, whatever else holds", () => {
    const s = incidentSeverity({ ...small, delivered: [{ what: "weekly_revenue_export", units: ["2026-W33"] }], datasets: 7, units: 15 });
    expect(s.level).toBe("SEV1");
    expect(s.reasons).toEqual(["an export already sent: weekly_revenue_export 2026-W33 → SEV1", "7 datasets, 15 units reached → SEV3"]);
  });

  it("the demo's stg_orders 2026-08-17: the W34 export not sent yet, a mid-sized closure, months old → SEV2, age never makes SEV1", () => {
    const s = incidentSeverity({
      ...small,
      external: [{ what: "weekly_revenue_export", units: ["2026-W34"] }],
      datasets: 7,
      units: 15,
      ageHours: 110 * 24 + 5,
    });
    expect(s).toEqual({
      level: "SEV2",
      reasons: [
        "read outside the platform, not sent yet: weekly_revenue_export 2026-W34 → SEV2",
        "7 datasets, 15 units reached → SEV3",
        "detected 110 days ago: read for over a week, but age alone never makes SEV1",
      ],
    });
  });

  it("a big closure is SEV2 by its size alone (20 datasets or 500 pairs)", () => {
    expect(incidentSeverity({ ...small, datasets: 3, units: 500 })).toEqual({ level: "SEV2", reasons: ["3 datasets, 500 units reached → SEV2"] });
    expect(incidentSeverity({ ...small, datasets: 20, units: 40 }).level).toBe("SEV2");
    expect(incidentSeverity({ ...small, datasets: 19, units: 499 }).level).toBe("SEV3");
    expect(incidentSeverity({ ...small, datasets: 5, units: 5 }).level).toBe("SEV3");
    expect(incidentSeverity({ ...small, datasets: 4, units: 49 }).level).toBe("SEV4");
  });

  it("a fresh small closure nobody outside reads is SEV4, and says so", () => {
    expect(incidentSeverity(small)).toEqual({ level: "SEV4", reasons: ["2 datasets, 2 units reached, nothing read outside and no consumer known → SEV4"] });
  });

  it("a week old raises SEV4 to SEV3 and SEV3 to SEV2, and a day short of it raises nothing", () => {
    const week = SEVERITY_THRESHOLDS.raiseAfterHours;
    expect(incidentSeverity({ ...small, ageHours: week - 1 }).level).toBe("SEV4");
    expect(incidentSeverity({ ...small, ageHours: week })).toEqual({
      level: "SEV3",
      reasons: [
        "2 datasets, 2 units reached, nothing read outside and no consumer known → SEV4",
        "detected 7 days ago: the wrong number has been read for over a week → SEV3",
      ],
    });
    expect(incidentSeverity({ ...small, datasets: 6, ageHours: 30 * 24 }).level).toBe("SEV2");
  });

  it("consumers: 1 or 2 are SEV3, 3 or more SEV2; unknown (null) adds nothing", () => {
    expect(incidentSeverity({ ...small, consumers: ["executive dashboard"] })).toEqual({
      level: "SEV3",
      reasons: ["1 consumer reached: executive dashboard → SEV3"],
    });
    expect(incidentSeverity({ ...small, consumers: ["executive dashboard", "finance ledger", "churn model", "CFO"] })).toEqual({
      level: "SEV2",
      reasons: ["4 consumers reached: executive dashboard, finance ledger, churn model and 1 more → SEV2"],
    });
    expect(incidentSeverity({ ...small, consumers: [] }).level).toBe("SEV4");
  });

  it("a critical dataset reached is SEV2; criticality undeclared (null) is no reason", () => {
    expect(incidentSeverity({ ...small, critical: ["revenue_daily"] }).reasons).toEqual(["a critical dataset reached: revenue_daily → SEV2"]);
    expect(incidentSeverity({ ...small, critical: null }).level).toBe("SEV4");
  });

  it("many units of one export read as a range", () => {
    const units = ["2026-W30", "2026-W31", "2026-W32", "2026-W33"];
    expect(incidentSeverity({ ...small, delivered: [{ what: "weekly_revenue_export", units }] }).reasons[0]).toBe(
      "an export already sent: weekly_revenue_export 2026-W30 … 2026-W33 (4 units) → SEV1",
    );
  });
});
