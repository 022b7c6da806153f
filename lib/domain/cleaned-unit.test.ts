import { describe, expect, it } from "vitest";
import type { Attempt, LedgerEntry, UnitFacts } from "./unit-state";
import { unitState } from "./unit-state";
import { validateUnits } from "./validation";

// Seed 001's append task, as the demo's stg_orders 2026-08-17: try 1 wrote 20 of 40 rows and
// died, try 2 failed before writing. The operator cleans the unit (the 20 rows are deleted),
// then a repair appends the full 40 rows and publishes them.
const T = (h: number) => Date.UTC(2026, 7, 18, h);
const attempt = (runId: string, tryNumber: number, status: Attempt["status"], rows: number, at: number): Attempt => ({
  runId,
  tryNumber,
  status,
  rowsWritten: rows,
  error: status === "failed" ? "boom" : null,
  startedAt: at,
  endedAt: at + 60_000,
});
const failedTries = [attempt("r1", 1, "failed", 20, T(2)), attempt("r1", 2, "failed", 0, T(3))];
const repairTry = attempt("repair-1", 1, "succeeded", 40, T(10));
const repairPublish: LedgerEntry = {
  runId: "repair-1",
  runKind: "repair",
  publishedAt: T(10) + 60_000,
  inputVersion: "raw_orders@1",
  codeVersion: "c",
  rowCount: 40,
};
const facts = (extra: Partial<UnitFacts>): UnitFacts => ({
  ledger: [],
  attempts: failedTries,
  sourceCount: 40,
  tolerance: 0.05,
  writeMode: "append",
  ...extra,
});

describe("a cleaned append unit (seed 001: deduplicate the interval, then re-run)", () => {
  it("before cleaning, the failed tries' 20 rows are still in the unit", () => {
    expect(unitState(facts({}), T(12)).facts.partialRows).toBe(20);
  });

  it("after cleaning, nothing is left behind: the failure reads as 'nothing written'", () => {
    expect(unitState(facts({ cleanedAt: T(9) }), T(12)).facts.partialRows).toBe(0);
  });

  it("without the cleaning recorded, the repaired unit would read as one and a half copies", () => {
    const repaired = facts({ attempts: [...failedTries, repairTry], ledger: [repairPublish] });
    expect(unitState(repaired, T(12)).state).toBe("duplicate");
    expect(validateUnits([{ unitKey: "2026-08-17", facts: repaired }], T(12)).passed).toBe(false);
  });

  it("cleaned, then repaired: one copy of 40 rows, reconciled — repaired, and validation passes", () => {
    const repaired = facts({ attempts: [...failedTries, repairTry], ledger: [repairPublish], cleanedAt: T(9) });
    expect(unitState(repaired, T(12)).state).toBe("repaired");
    const v = validateUnits([{ unitKey: "2026-08-17", facts: repaired }], T(12));
    expect(v.passed).toBe(true);
    expect(v.units[0]!.checks).toEqual({ inLedger: true, publishedOnce: true, nonEmpty: true, reconciles: true, notStale: true });
  });

  it("a published append unit cleaned and not yet republished holds none of the ledger's rows: empty", () => {
    const published: LedgerEntry = { ...repairPublish, runId: "r0", runKind: "scheduled", publishedAt: T(4), rowCount: 66 };
    const cleaned = facts({ attempts: [attempt("r0", 1, "succeeded", 66, T(3))], ledger: [published], cleanedAt: T(9) });
    const r = unitState(cleaned, T(12));
    expect(r.state).toBe("empty");
    expect(r.reasons[0]).toContain("the ledger's 66 rows are no longer there");
  });

  it("an append republish after the cleaning counts once; a second one is a duplicate again", () => {
    const old: LedgerEntry = { ...repairPublish, runId: "r0", runKind: "scheduled", publishedAt: T(4), rowCount: 66 };
    const once = facts({ attempts: [repairTry], ledger: [old, repairPublish], cleanedAt: T(9) });
    expect(unitState(once, T(12)).state).toBe("repaired");
    const twice = facts({ attempts: [repairTry], ledger: [old, repairPublish, { ...repairPublish, publishedAt: T(11), rowCount: 80 }], cleanedAt: T(9) });
    expect(unitState(twice, T(12)).state).toBe("duplicate");
  });
});
