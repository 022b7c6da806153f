import { describe, expect, it } from "vitest";
import type { Attempt, UnitFacts } from "./unit-state";
import {
  emptyOrInputMismatch,
  missingUnits,
  periodAwareCompleteness,
  prevailingInputVersion,
  publishedMoreThanOnce,
  reconcile,
  staleness,
  validateUnits,
  type GroupPeriod,
  type LedgerRow,
} from "./validation";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 7, 26, 2, 0);
const days = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `2026-08-${String(from + i).padStart(2, "0")}`);

function row(unitKey: string, over: Partial<LedgerRow> = {}): LedgerRow {
  return { unitKey, runId: "run-1", runKind: "scheduled", publishedAt: T0, inputVersion: "raw@2026-08-26", codeVersion: "c1", rowCount: 2400, ...over };
}

// fct_orders, August 1..25: 2026-08-17 and 2026-08-23 failed and were never published
const ledger = days(1, 25)
  .filter((d) => d !== "2026-08-17" && d !== "2026-08-23")
  .map((d) => row(d));

describe("seed 000's three ledger queries", () => {
  it("seed 000: query 1 finds the two missing partition-days among twenty-five", () => {
    expect(missingUnits(days(1, 25), ledger)).toEqual(["2026-08-17", "2026-08-23"]);
  });

  it("seed 000: query 2 — a non-idempotent repair announces itself as a unit published twice", () => {
    const repaired = [...ledger, row("2026-08-10", { runId: "rep-7", runKind: "repair", publishedAt: T0 + HOUR })];
    expect(publishedMoreThanOnce(repaired)).toEqual([
      { unitKey: "2026-08-10", publishes: 2, firstRunId: "run-1", lastRunId: "rep-7", runIds: ["run-1", "rep-7"] },
    ]);
    expect(publishedMoreThanOnce(ledger)).toEqual([]);
  });

  it("seed 000: query 3 — a unit present in the ledger with 0 rows is caught; presence is not completeness", () => {
    const withEmpty = ledger.map((r) => (r.unitKey === "2026-08-05" ? { ...r, rowCount: 0 } : r));
    expect(emptyOrInputMismatch(withEmpty)).toEqual([expect.objectContaining({ unitKey: "2026-08-05", empty: true, inputMismatch: false })]);
  });

  it("seed 000: query 3 — the repaired unit carries another input version: visible, not called wrong", () => {
    const repaired = [...ledger, row("2026-08-17", { runId: "rep-1", runKind: "repair", inputVersion: "raw@2026-08-27", publishedAt: T0 + 24 * HOUR })];
    const flagged = emptyOrInputMismatch(repaired);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatchObject({
      unitKey: "2026-08-17",
      inputMismatch: true,
      repaired: true,
      prevailingInputVersion: "raw@2026-08-26",
      note: "repaired against a different input version than its neighbours: visible, decide whether it matters here",
    });
  });

  it("seed 000: the prevailing version is the neighbours' — MAX(input_version) would flag the 23 neighbours instead", () => {
    const repaired = [...ledger, row("2026-08-17", { inputVersion: "raw@2026-08-27", runKind: "repair" })];
    expect(prevailingInputVersion(repaired)).toBe("raw@2026-08-26");
  });
});

describe("reconciliation and period-aware completeness — seed 003", () => {
  it("seed 003: a half-written partition passes the ±5% row-count check at 2,320 of 2,400 rows", () => {
    const r = reconcile(2320, 2400, 0.05);
    expect(r.verdict).toBe("within_band");
    expect(r.deviation).toBeCloseTo(-0.033333, 5);
    expect(r.reason).toBe("2320 rows for a source count of 2400 (−3.33%) within ±5%");
  });

  it("seed 003: the atomic write leaves 2,200 of 2,400 rows and fails the band at −8.33%", () => {
    expect(reconcile(2200, 2400, 0.05)).toMatchObject({ verdict: "divergent", reason: "2200 rows for a source count of 2400 (−8.33%) outside ±5%" });
  });

  it("seed 003: three appending tries leave 2,640 rows — the row check fires at +10%", () => {
    expect(reconcile(2640, 2400, 0.05)).toMatchObject({ verdict: "divergent", deviation: 0.1 });
  });

  it("seed 003: exactly on the band edge passes (the check is 'more than 5%')", () => {
    expect(reconcile(2280, 2400, 0.05).verdict).toBe("within_band");
  });

  it("seed 003: no source count means not reconciled, said out loud", () => {
    expect(reconcile(2400, null, 0.05)).toEqual({ verdict: "no_source", deviation: null, reason: "no source count: row count not reconciled" });
  });

  const REGIONS = ["east", "west", "north", "south", "central"];
  const PERIODS = Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, "0")}`);
  // 200 subscribers, one reading each per period; subscriber i lives in REGIONS[i % 5]
  const reading = (i: number, period: string): GroupPeriod => ({ group: REGIONS[i % 5]!, period });
  const fullPeriod = (period: string) => Array.from({ length: 200 }, (_, i) => reading(i, period));
  const others = PERIODS.filter((p) => p !== "2026-07").flatMap(fullPeriod);

  it("seed 003: period-aware completeness passes on the partition half-written at row 120, while per-unit reconciliation flags it", () => {
    const store = [...others, ...fullPeriod("2026-07").slice(0, 120)];
    expect(store).toHaveLength(2320);
    expect(periodAwareCompleteness(store, REGIONS, PERIODS)).toEqual({ complete: true, missing: [] });
    expect(reconcile(store.length, 2400, 0.05).verdict).toBe("within_band");
    expect(reconcile(120, 200, 0.05)).toMatchObject({ verdict: "divergent", deviation: -0.4 });
  });

  it("seed 003: the atomic write leaves 2026-07 absent — period-aware completeness names all five regions", () => {
    const result = periodAwareCompleteness(others, REGIONS, PERIODS);
    expect(result.complete).toBe(false);
    expect(result.missing).toEqual(REGIONS.map((group) => ({ group, period: "2026-07" })));
  });
});

describe("staleness and validateUnits — the Validate step", () => {
  const ok: Attempt = { runId: "rep-1", tryNumber: 1, status: "succeeded", rowsWritten: 2390, error: null, startedAt: T0 - HOUR, endedAt: T0 };
  const facts = (over: Partial<UnitFacts> = {}): UnitFacts => ({
    ledger: [row("2026-08-17", { runId: "rep-1", runKind: "repair", rowCount: 2390 })],
    attempts: [ok],
    sourceCount: 2400,
    tolerance: 0.05,
    writeMode: "replace",
    ...over,
  });

  it("seed 001: a downstream table not rebuilt after its upstream was republished is stale", () => {
    const up = [
      { dataset: "stg_orders", unitKey: "2026-08-17", publishedAt: T0 + HOUR },
      { dataset: "dim_customers", unitKey: "current", publishedAt: T0 - 5 * HOUR },
    ];
    expect(staleness(T0, up)).toEqual({ stale: true, newerUpstream: [up[0]] });
  });

  it("seed 001: after a replace repair with its closure, a republished unit is one copy and passes", () => {
    const v = validateUnits(
      [
        {
          unitKey: "2026-08-17",
          facts: facts({ ledger: [row("2026-08-17"), row("2026-08-17", { runId: "rep-1", runKind: "repair", rowCount: 2390, publishedAt: T0 + HOUR })] }),
        },
      ],
      T0 + 2 * HOUR,
    );
    expect(v.passed).toBe(true);
    expect(v.units[0]).toMatchObject({ state: "repaired", inputVersion: "raw@2026-08-26", failures: [] });
  });

  it("seed 001: the retry worked, but an append left two copies — validation fails 'published once' and reconciliation", () => {
    const v = validateUnits(
      [
        {
          unitKey: "2026-08-17",
          facts: facts({
            writeMode: "append",
            ledger: [row("2026-08-17", { rowCount: 2400 }), row("2026-08-17", { runId: "rep-1", runKind: "repair", rowCount: 4800, publishedAt: T0 + HOUR })],
          }),
        },
      ],
      T0 + 2 * HOUR,
    );
    expect(v.passed).toBe(false);
    expect(v.failedUnits).toEqual(["2026-08-17"]);
    expect(v.units[0]!.checks).toEqual({ inLedger: true, publishedOnce: false, nonEmpty: true, reconciles: false, notStale: true });
  });

  it("without a source count there is nothing to reconcile against: the check is neither passed nor failed, and the unit still passes", () => {
    const v = validateUnits(
      [{ unitKey: "2026-08-17", facts: facts({ sourceCount: null, ledger: [row("2026-08-17", { runId: "rep-1", runKind: "repair", rowCount: 5 })] }) }],
      T0 + HOUR,
    );
    expect(v.units[0]!.checks).toEqual({ inLedger: true, publishedOnce: true, nonEmpty: true, reconciles: null, notStale: true });
    expect(v.units[0]).toMatchObject({ passed: true, failures: [], notes: expect.arrayContaining(["no source count: row count not reconciled"]) });
  });

  it("seed 000: a repair run by hand outside the job left no ledger row — validation keeps failing 'in the ledger'", () => {
    const v = validateUnits([{ unitKey: "2026-08-23", facts: facts({ ledger: [], attempts: [] }) }], T0);
    expect(v.units[0]).toMatchObject({ passed: false, state: "missing", failures: ["not in the ledger"] });
  });

  it("one truth: a unit the matrix calls suspect fails, naming the upstream unit and what clears it, however green its checks", () => {
    const upstreamBad = [{ dataset: "stg_orders", unitKey: "2026-08-10", problem: "duplicate" }];
    const v = validateUnits([{ unitKey: "2026-08-20", facts: facts({ upstreamBad }) }], T0).units[0]!;
    expect(v.state).toBe("suspect");
    expect(v.passed).toBe(false);
    expect(Object.values(v.checks).every((c) => c !== false)).toBe(true);
    expect(v.failures).toEqual([
      "suspect: built from upstream stg_orders 2026-08-10, which is duplicate: published, but its figures carry that problem — to clear it: add that upstream unit to the repair (Scope: add it), or mark it known-bad with a reason",
    ]);
  });

  it("published without a row count passes, unreconciled; another input version passes only when the repair explains it", () => {
    const unknownRows = validateUnits([{ unitKey: "2026-08-17", facts: facts({ ledger: [{ ...facts().ledger[0]!, rowCount: null }], sourceCount: null }) }], T0)
      .units[0]!;
    expect([unknownRows.state, unknownRows.passed, unknownRows.checks.nonEmpty, unknownRows.checks.reconciles]).toEqual(["rows_unknown", true, null, null]);
    const mismatch = (runKind: "repair" | "scheduled") =>
      validateUnits(
        [{ unitKey: "2026-08-17", facts: facts({ ledger: [{ ...facts().ledger[0]!, runKind, inputVersion: "raw@v2" }], neighbourInputVersion: "raw@v1" }) }],
        T0,
      ).units[0]!;
    expect([mismatch("repair").state, mismatch("repair").passed]).toEqual(["input_mismatch", true]);
    expect([mismatch("scheduled").state, mismatch("scheduled").passed]).toEqual(["input_mismatch", false]);
  });

  it("the set passes only if every unit passes; an empty set proves nothing", () => {
    const good = { unitKey: "2026-08-17", facts: facts() };
    const stale = { unitKey: "2026-08-18", facts: facts({ upstream: [{ dataset: "stg_orders", unitKey: "2026-08-18", publishedAt: T0 + HOUR }] }) };
    expect(validateUnits([good], T0).passed).toBe(true);
    expect(validateUnits([good, stale], T0)).toMatchObject({ passed: false, failedUnits: ["2026-08-18"] });
    expect(validateUnits([], T0).passed).toBe(false);
  });
});
