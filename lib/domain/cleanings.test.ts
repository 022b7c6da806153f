import { describe, expect, it } from "vitest";
import { awaitedEvidence, cleanedAt, evidenceOf, holdsNothing } from "./cleanings";

const T = (m: number) => Date.UTC(2026, 7, 18, 10, m);

describe("when a unit's rows were last known gone (seed 001: deduplicate the interval)", () => {
  it("a cleaning Reparo measured holds from its own time", () => {
    expect(cleanedAt([{ kind: "measured", at: T(5) }])).toBe(T(5));
  });

  it("a declaration alone proves nothing", () => {
    expect(cleanedAt([{ kind: "declared", at: T(5), evidencedAt: null }])).toBeNull();
  });

  it("a declaration evidenced by a count of 0 holds from the count, even one taken before the declaration", () => {
    expect(cleanedAt([{ kind: "declared", at: T(5), evidencedAt: T(2) }])).toBe(T(2));
  });

  it("only a count of 0 is evidence", () => {
    expect(evidenceOf({ rows: 0, measuredAt: T(6) })).toBe(T(6));
    expect(evidenceOf({ rows: 20, measuredAt: T(6) })).toBeNull();
    expect(evidenceOf(null)).toBeNull();
  });

  it("the later of a measured cleaning and an evidenced declaration wins", () => {
    expect(
      cleanedAt([
        { kind: "measured", at: T(1) },
        { kind: "declared", at: T(3), evidencedAt: T(4) },
      ]),
    ).toBe(T(4));
    expect(
      cleanedAt([
        { kind: "measured", at: T(9) },
        { kind: "declared", at: T(3), evidencedAt: T(4) },
      ]),
    ).toBe(T(9));
  });

  it("says what a declared cleaning still waits for", () => {
    expect(awaitedEvidence(null, null, T(0))).toMatch(/no count/);
    expect(awaitedEvidence(null, { rows: 1, measuredAt: T(6) }, T(0))).toBe("the latest count found 1 row still in the unit");
    expect(awaitedEvidence(T(0), { rows: 0, measuredAt: T(0) }, T(1))).toMatch(/before the unit's latest attempt started/);
    expect(awaitedEvidence(T(2), { rows: 0, measuredAt: T(2) }, T(1))).toBeNull();
    expect(awaitedEvidence(T(2), null, null)).toBeNull();
    // Evidenced, then the repair wrote the unit's true rows and the team counted them: still believed.
    expect(awaitedEvidence(T(2), { rows: 40, measuredAt: T(9) }, T(1))).toBeNull();
  });
});

describe("an append unit with nothing to remove", () => {
  it("never published and every attempt wrote 0 rows: nothing to clean", () => {
    expect(holdsNothing([{ status: "failed", rowsWritten: 0 }], 0)).toBe(true);
  });
  it("rows written, rows unknown, an attempt still running, a publish, or no attempt known at all: it may hold rows", () => {
    expect(holdsNothing([], 0)).toBe(false);
    expect(holdsNothing([{ status: "failed", rowsWritten: 20 }], 0)).toBe(false);
    expect(holdsNothing([{ status: "failed", rowsWritten: null }], 0)).toBe(false);
    expect(holdsNothing([{ status: "running", rowsWritten: 0 }], 0)).toBe(false);
    expect(holdsNothing([{ status: "succeeded", rowsWritten: 0 }], 1)).toBe(false);
  });
});
