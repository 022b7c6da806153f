import { describe, expect, it } from "vitest";
import { awaitedEvidence, cleanedAt } from "./cleanings";

const T = (m: number) => Date.UTC(2026, 7, 18, 10, m);

describe("when a unit's rows were last known gone (seed 001: deduplicate the interval)", () => {
  it("a cleaning Reparo measured holds from its own time", () => {
    expect(cleanedAt([{ kind: "measured", at: T(5) }], null)).toBe(T(5));
  });

  it("a declaration alone proves nothing", () => {
    expect(cleanedAt([{ kind: "declared", at: T(5) }], null)).toBeNull();
  });

  it("declared, and a count of 0 rows arrived: cleaned as of the count, even one taken before the declaration", () => {
    expect(cleanedAt([{ kind: "declared", at: T(5) }], { rows: 0, measuredAt: T(2) })).toBe(T(2));
  });

  it("declared, but the count still finds rows: not cleaned", () => {
    expect(cleanedAt([{ kind: "declared", at: T(5) }], { rows: 20, measuredAt: T(6) })).toBeNull();
  });

  it("a count of 0 without a declaration is no intervention", () => {
    expect(cleanedAt([], { rows: 0, measuredAt: T(6) })).toBeNull();
  });

  it("the later of a measured cleaning and an evidenced declaration wins", () => {
    expect(cleanedAt([{ kind: "measured", at: T(1) }, { kind: "declared", at: T(3) }], { rows: 0, measuredAt: T(4) })).toBe(T(4));
    expect(cleanedAt([{ kind: "measured", at: T(9) }, { kind: "declared", at: T(3) }], { rows: 0, measuredAt: T(4) })).toBe(T(9));
  });

  it("says what a declared cleaning still waits for", () => {
    expect(awaitedEvidence(null, T(0))).toMatch(/no count/);
    expect(awaitedEvidence({ rows: 1, measuredAt: T(6) }, T(0))).toBe("the latest count found 1 row still in the unit");
    expect(awaitedEvidence({ rows: 0, measuredAt: T(0) }, T(1))).toMatch(/before the unit's latest attempt started/);
    expect(awaitedEvidence({ rows: 0, measuredAt: T(2) }, T(1))).toBeNull();
    expect(awaitedEvidence({ rows: 0, measuredAt: T(2) }, null)).toBeNull();
  });
});
