import { describe, expect, it } from "vitest";
import { completenessCertificate, freshnessDistribution, rowsHeld, type DatasetUnits } from "./completeness";
import type { LedgerEntry, UnitFacts } from "./unit-state";

// raw_orders -> stg_orders -(identity)-> revenue_daily
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const AUG = (d: number) => `2026-08-${String(d).padStart(2, "0")}`;
const builtAt = (d: number) => Date.UTC(2026, 7, d + 1, 2); // each day published at 02:00 the next day
const NOW = Date.UTC(2026, 7, 26, 12);
const keys = (n: number) => Array.from({ length: n }, (_, i) => AUG(i + 1));

function published(d: number, over: Partial<LedgerEntry> = {}, facts: Partial<UnitFacts> = {}): UnitFacts {
  const entry: LedgerEntry = {
    runId: `daily-${AUG(d)}`,
    runKind: "scheduled",
    publishedAt: builtAt(d),
    inputVersion: "raw@v1",
    codeVersion: "c1",
    rowCount: 2400,
    ...over,
  };
  return {
    ledger: [entry],
    attempts: [
      {
        runId: entry.runId,
        tryNumber: 1,
        status: "succeeded",
        rowsWritten: entry.rowCount,
        error: null,
        startedAt: entry.publishedAt - HOUR,
        endedAt: entry.publishedAt,
      },
    ],
    sourceCount: 2400,
    tolerance: 0.05,
    writeMode: "replace",
    ...facts,
  };
}
function dataset(name: string, n: number, override: Record<string, UnitFacts | null> = {}): DatasetUnits {
  const facts = new Map<string, UnitFacts>();
  keys(n).forEach((k, i) => {
    const f = k in override ? override[k] : published(i + 1);
    if (f) facts.set(k, f);
  });
  return { dataset: name, unitKeys: keys(n), facts };
}
const PERIOD = { from: AUG(1), to: AUG(25) };

describe("completenessCertificate", () => {
  it("units published without a row count are present, not missing: counted towards the set, their rows neither counted nor reconciled", () => {
    const revenue = dataset("revenue_daily", 25, {
      [AUG(17)]: published(17, { rowCount: null }, { sourceCount: null }),
      [AUG(18)]: published(18, { rowCount: null }),
    });
    const c = completenessCertificate({ target: revenue, upstream: [], period: PERIOD }, NOW);
    expect(c.verdict).toBe("complete");
    expect(c.evidence[0]!.units).toBe(25);
    expect(c.evidence[0]!.rows).toBe(23 * 2400);
    expect(c.evidence[0]!.notes).toContain(
      "2 units published without a row count: present and published once, but their rows are neither counted nor reconciled (nor known to be non-empty)",
    );
  });

  it("every unit present, once, non-empty, reconciled, fresh — complete, with its evidence", () => {
    const c = completenessCertificate({ target: dataset("revenue_daily", 25), period: PERIOD, upstream: [dataset("stg_orders", 25)] }, NOW);
    expect(c.verdict).toBe("complete");
    expect(c.evidence[0]).toEqual({
      dataset: "revenue_daily",
      role: "target",
      units: 25,
      healthyUnits: 25,
      rows: 60_000,
      reconciledUnits: 25,
      inputVersions: ["raw@v1"],
      oldestPublishAt: builtAt(1),
      newestPublishAt: builtAt(25),
      notes: [],
    });
  });

  it("seed 000: a table present and queryable but missing two days is incomplete, naming both", () => {
    const c = completenessCertificate({ target: dataset("revenue_daily", 25, { [AUG(17)]: null, [AUG(23)]: null }), period: PERIOD, upstream: [] }, NOW);
    expect(c.verdict === "incomplete" && c.reasons).toEqual([
      {
        dataset: "revenue_daily",
        unitKey: AUG(17),
        role: "target",
        state: "missing",
        reason: "expected, but no publish in the ledger",
        rows: null,
        sourceCount: null,
        builtFrom: null,
      },
      {
        dataset: "revenue_daily",
        unitKey: AUG(23),
        role: "target",
        state: "missing",
        reason: "expected, but no publish in the ledger",
        rows: null,
        sourceCount: null,
        builtFrom: null,
      },
    ]);
  });

  it("seed 000: skipped and known-bad units are named as gaps, never silently counted", () => {
    const target = dataset("revenue_daily", 25, {
      [AUG(5)]: { ...published(5), marks: [{ kind: "known_bad", reason: "vendor double-counted refunds", at: NOW - HOUR }] },
      [AUG(6)]: { ledger: [], attempts: [], tolerance: 0.05, writeMode: "replace", marks: [{ kind: "skipped", reason: "enrichment optional", at: NOW - DAY }] },
    });
    const c = completenessCertificate({ target, period: PERIOD, upstream: [] }, NOW);
    expect(c.verdict === "incomplete" && c.reasons.map((r) => [r.unitKey, r.state])).toEqual([
      [AUG(5), "known_bad"],
      [AUG(6), "skipped"],
    ]);
    expect(c.evidence[0]!.units).toBe(25);
    // The evidence counts the two withheld units as read, not as healthy (the reasons name them).
    expect(c.evidence[0]!.healthyUnits).toBe(23);
    expect(c.evidence[0]!.rows).toBe(23 * 2400);
  });

  it("seed 001: complete downstream, but built on a duplicated upstream unit — incomplete through the upstream closure", () => {
    const dup = published(
      10,
      {},
      { writeMode: "append", ledger: [published(10).ledger[0]!, { ...published(10).ledger[0]!, runId: "retry", publishedAt: builtAt(10) + HOUR }] },
    );
    const c = completenessCertificate({ target: dataset("revenue_daily", 25), period: PERIOD, upstream: [dataset("stg_orders", 25, { [AUG(10)]: dup })] }, NOW);
    expect(c.verdict === "incomplete" && c.reasons).toEqual([
      expect.objectContaining({ dataset: "stg_orders", unitKey: AUG(10), role: "upstream", state: "duplicate" }),
    ]);
  });

  it("seed 000: presence is not completeness — an empty unit makes the period incomplete", () => {
    const c = completenessCertificate({ target: dataset("revenue_daily", 3, { [AUG(2)]: published(2, { rowCount: 0 }) }), period: PERIOD, upstream: [] }, NOW);
    expect(c.verdict === "incomplete" && c.reasons[0]).toMatchObject({ unitKey: AUG(2), state: "empty" });
  });

  it("seed 003: the half-written partition passes the table-level checks but its per-unit reconciliation makes the period incomplete", () => {
    const c = completenessCertificate({ target: dataset("consumption", 3, { [AUG(2)]: published(2, { rowCount: 1200 }) }), period: PERIOD, upstream: [] }, NOW);
    expect(c.verdict === "incomplete" && c.reasons[0]).toMatchObject({
      unitKey: AUG(2),
      state: "divergent",
      reason: "1200 rows for a source count of 2400 (−50%), outside the ±5% band",
    });
  });

  it("seed 001: a mart not rebuilt after its upstream was repaired is stale — incomplete", () => {
    const stale = published(3, {}, { upstream: [{ dataset: "stg_orders", unitKey: AUG(3), publishedAt: NOW - HOUR }] });
    const c = completenessCertificate({ target: dataset("revenue_daily", 3, { [AUG(3)]: stale }), period: PERIOD, upstream: [] }, NOW);
    expect(c.verdict === "incomplete" && c.reasons[0]).toMatchObject({ unitKey: AUG(3), state: "stale" });
  });

  it("seed 000: a repaired unit built from a newer input version passes, and the evidence says so", () => {
    const repaired = published(17, { runKind: "repair", runId: "rep-1", inputVersion: "raw@v2" }, { neighbourInputVersion: "raw@v1" });
    const c = completenessCertificate({ target: dataset("revenue_daily", 25, { [AUG(17)]: repaired }), period: PERIOD, upstream: [] }, NOW);
    expect(c.verdict).toBe("complete");
    expect(c.evidence[0]!.inputVersions).toEqual(["raw@v1", "raw@v2"]);
    expect(c.evidence[0]!.notes).toEqual([`${AUG(17)}: built from input version raw@v2, neighbours from raw@v1 — not always wrong, but visible`]);
  });

  it("units without a source count are complete but the evidence says their rows were not reconciled", () => {
    const noSource = published(1, {}, { sourceCount: null });
    const c = completenessCertificate({ target: dataset("revenue_daily", 2, { [AUG(1)]: noSource }), period: PERIOD, upstream: [] }, NOW);
    expect(c.verdict).toBe("complete");
    expect(c.evidence[0]!.notes).toEqual(["1 unit without a source count: presence and uniqueness checked, row counts not reconciled"]);
  });
});

describe("freshnessDistribution", () => {
  it("seed 000: after a targeted repair the repaired day is fresh while its neighbours are not — one outlier", () => {
    const units = keys(25).map((k, i) => ({ unitKey: k, publishedAt: k === AUG(17) ? NOW - 2 * HOUR : builtAt(i + 1) }));
    const f = freshnessDistribution(units, NOW);
    expect(f.outliers).toEqual([{ unitKey: AUG(17), ageMs: 2 * HOUR, neighbourMedianAgeMs: 8 * DAY + 10 * HOUR, direction: "fresher" }]);
    expect(f.medianAgeMs).toBe(12 * DAY + 10 * HOUR);
  });

  it("seed 000: ninety-eight units current, two hours behind — a table-level average hides them, the per-unit view names them", () => {
    const units = Array.from({ length: 100 }, (_, i) => ({ unitKey: `tenant=${i}`, publishedAt: i === 40 || i === 41 ? NOW - 2 * HOUR : NOW - 10 * 60_000 }));
    const f = freshnessDistribution(units, NOW);
    expect(f.outliers.map((o) => [o.unitKey, o.direction])).toEqual([
      ["tenant=40", "older"],
      ["tenant=41", "older"],
    ]);
    expect(f.medianAgeMs).toBe(10 * 60_000);
  });

  it("daily partitions one day apart are not outliers; unpublished units are listed apart", () => {
    const units = keys(10).map((k, i) => ({ unitKey: k, publishedAt: i === 9 ? null : builtAt(i + 1) }));
    const f = freshnessDistribution(units, NOW);
    expect(f.outliers).toEqual([]);
    expect(f.unpublished).toEqual([AUG(10)]);
    expect(f.units[9]).toEqual({ unitKey: AUG(10), ageMs: null });
  });
});

describe("rowsHeld", () => {
  it("an append unit keeps a failed attempt's partial rows beside the retry's full copy; a replace unit holds its latest publish", () => {
    const entry: LedgerEntry = { runId: "r1", runKind: "scheduled", publishedAt: builtAt(10), inputVersion: null, codeVersion: null, rowCount: 44 };
    const attempts = [
      {
        runId: "r1",
        tryNumber: 1,
        status: "failed" as const,
        rowsWritten: 22,
        error: "timeout",
        startedAt: builtAt(10) - 2 * HOUR,
        endedAt: builtAt(10) - HOUR,
      },
      { runId: "r1", tryNumber: 2, status: "succeeded" as const, rowsWritten: 44, error: null, startedAt: builtAt(10) - HOUR, endedAt: builtAt(10) },
    ];
    expect(rowsHeld({ ledger: [entry], attempts, sourceCount: 44, tolerance: 0.05, writeMode: "append" })).toBe(66);
    expect(rowsHeld({ ledger: [entry], attempts, sourceCount: 44, tolerance: 0.05, writeMode: "replace" })).toBe(44);
    expect(rowsHeld({ ledger: [], attempts: attempts.slice(0, 1), tolerance: 0.05, writeMode: "append" })).toBe(22);
    expect(rowsHeld({ ledger: [], attempts: [], tolerance: 0.05, writeMode: "append" })).toBeNull();
  });
});
