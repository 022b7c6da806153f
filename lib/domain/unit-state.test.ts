import { upstreamProblemOf } from "./suspect";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  computeUnitStates,
  stateRank,
  unitState,
  UNIT_STATE_PRECEDENCE,
  worseState,
  worstState,
  type Attempt,
  type LedgerEntry,
  type UnitFacts,
  type UnitState,
} from "./unit-state";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 7, 18, 2, 0); // the night after 2026-08-17
const NOW = T0 + 10 * HOUR;

function publish(over: Partial<LedgerEntry> = {}): LedgerEntry {
  return { runId: "run-1", runKind: "scheduled", publishedAt: T0, inputVersion: "raw@2026-08-18", codeVersion: "c1", rowCount: 200, ...over };
}
function attempt(over: Partial<Attempt> = {}): Attempt {
  return { runId: "run-1", tryNumber: 1, status: "succeeded", rowsWritten: 200, error: null, startedAt: T0 - HOUR, endedAt: T0, ...over };
}
function facts(over: Partial<UnitFacts> = {}): UnitFacts {
  return { ledger: [publish()], attempts: [attempt()], sourceCount: 200, tolerance: 0.05, writeMode: "replace", ...over };
}

describe("unitState — seed 000 (partial failure)", () => {
  it("seed 000: presence is not completeness — a unit in the ledger with 0 rows is empty", () => {
    const r = unitState(facts({ ledger: [publish({ rowCount: 0 })], attempts: [attempt({ rowsWritten: 0 })] }), NOW);
    expect(r.state).toBe("empty");
    expect(r.reasons[0]).toContain("presence is not completeness");
  });

  it("seed 000: an expected unit with no publish is missing, whatever the run status said", () => {
    const r = unitState(facts({ ledger: [], attempts: [] }), NOW);
    expect(r.state).toBe("missing");
    expect(r.facts).toMatchObject({ publishCount: 0, ageMs: null, lastRunId: null });
  });

  it("seed 000: a repair against a non-idempotent task converts a gap into a duplicate", () => {
    // stg_orders (append) 2026-08-17: run-1 published, then repair run-2 appended again
    const r = unitState(
      facts({
        writeMode: "append",
        sourceCount: null,
        ledger: [publish(), publish({ runId: "run-2", runKind: "repair", publishedAt: T0 + HOUR })],
        attempts: [attempt(), attempt({ runId: "run-2", startedAt: T0 + HOUR / 2, endedAt: T0 + HOUR })],
      }),
      NOW,
    );
    expect(r.state).toBe("duplicate");
    expect(r.facts.publishCount).toBe(2);
    expect(r.reasons[0]).toBe("published 2 times by an append task: each publish added its rows again");
  });

  it("seed 000: a replace task republished by a repair is one copy, shown as repaired", () => {
    const r = unitState(
      facts({
        ledger: [publish(), publish({ runId: "run-2", runKind: "repair", publishedAt: T0 + HOUR })],
        attempts: [attempt(), attempt({ runId: "run-2", startedAt: T0 + HOUR / 2, endedAt: T0 + HOUR })],
      }),
      NOW,
    );
    expect(r.state).toBe("repaired");
    expect(r.facts).toMatchObject({ publishCount: 2, lastRunId: "run-2", ageMs: 9 * HOUR });
  });

  it("seed 000: failed units marked skipped to get a green run stay visible as skipped, with the reason", () => {
    const r = unitState(
      facts({
        ledger: [],
        attempts: [attempt({ status: "failed", rowsWritten: 0, error: "no source file" })],
        marks: [{ kind: "skipped", reason: "optional enrichment source down", at: T0 + HOUR }],
      }),
      NOW,
    );
    expect(r.state).toBe("skipped");
    expect(r.reasons[0]).toBe("skipped on purpose: optional enrichment source down — the omission stays visible");
    expect(r.reasons[1]).toContain("failed: no source file");
  });

  it("the first day of a model reading its own past read no earlier day: published, not input_mismatch", () => {
    const r = unitState(
      facts({
        ledger: [publish({ inputVersion: "fct_orders@1" })],
        neighbourInputVersion: "fct_orders@1,running_balance@1",
      }),
      NOW,
    );
    expect(r.state).toBe("published");
  });

  it("seed 000: a repair built against an as-of-now dimension is input_mismatch — said, not called wrong", () => {
    const r = unitState(
      facts({
        ledger: [publish({ runKind: "repair", runId: "rep-1", inputVersion: "dim@2026-08-26" })],
        attempts: [attempt({ runId: "rep-1" })],
        neighbourInputVersion: "dim@2026-08-18",
      }),
      NOW,
    );
    expect(r.state).toBe("input_mismatch");
    expect(r.reasons).toEqual([
      "built from input version dim@2026-08-26, neighbours from dim@2026-08-18 — not always wrong, but visible",
      "latest publish came from repair run rep-1",
    ]);
  });

  it("seed 000: downstream mart built before the repair landed is stale once the upstream unit is republished", () => {
    // stg_orders 2026-08-17 --identity--> fct_orders 2026-08-17
    const r = unitState(facts({ upstream: [{ dataset: "stg_orders", unitKey: "2026-08-17", publishedAt: T0 + 2 * HOUR }] }), NOW);
    expect(r.state).toBe("stale");
    expect(r.reasons[0]).toBe("upstream stg_orders 2026-08-17 was republished after this unit was built");
  });
});

describe("unitState — seed 001 (a task fails mid-DAG)", () => {
  it("seed 001: an append retry after a partial write leaves one and a half copies — duplicate", () => {
    // C (append): try 1 wrote 100 rows then failed; try 2 wrote all 200; the ledger records 200
    const r = unitState(
      facts({
        writeMode: "append",
        attempts: [attempt({ status: "failed", rowsWritten: 100, endedAt: T0 - HOUR / 2 }), attempt({ tryNumber: 2, startedAt: T0 - HOUR / 2 })],
      }),
      NOW,
    );
    expect(r.state).toBe("duplicate");
    expect(r.facts.partialRows).toBe(100);
    expect(r.reasons[0]).toContain("wrote 300 rows for 200 expected");
  });

  it("seed 001: mark success on a task that never produced output is still missing", () => {
    const r = unitState(
      facts({
        ledger: [],
        attempts: [attempt({ status: "failed", rowsWritten: 0 }), attempt({ tryNumber: 2, status: "marked_success", rowsWritten: null, startedAt: T0 })],
      }),
      NOW,
    );
    expect(r.state).toBe("missing");
    expect(r.reasons[0]).toContain("marked success by an operator, but the ledger has no publish");
  });

  it("seed 001: a unit blocked by an upstream failure stays blocked after the upstream retry succeeded", () => {
    const r = unitState(
      facts({
        ledger: [],
        attempts: [attempt({ status: "upstream_failed", rowsWritten: null, startedAt: null, endedAt: T0 })],
        upstream: [{ dataset: "stg_orders", unitKey: "2026-08-17", publishedAt: T0 + HOUR }],
      }),
      NOW,
    );
    expect(r.state).toBe("blocked");
    expect(r.reasons).toEqual(["never ran in run run-1: an upstream unit failed"]);
  });

  it("seed 001: source known wrong — marked known-bad, consumers see a gap even though rows are published", () => {
    const r = unitState(facts({ marks: [{ kind: "known_bad", reason: "vendor feed double-counted refunds", at: T0 + HOUR }] }), NOW);
    expect(r.state).toBe("known_bad");
    expect(r.reasons[0]).toContain("consumers must see a gap, not a number");
  });

  it("seed 001: a known-bad mark is superseded by a later repair publish", () => {
    const r = unitState(
      facts({
        marks: [{ kind: "known_bad", reason: "bad feed", at: T0 + HOUR }],
        ledger: [publish(), publish({ runId: "rep-2", runKind: "repair", publishedAt: T0 + 3 * HOUR })],
        attempts: [attempt(), attempt({ runId: "rep-2", startedAt: T0 + 2 * HOUR })],
      }),
      NOW,
    );
    expect(r.state).toBe("repaired");
  });

  it("seed 001: an upstream republished while the unit was being built still makes it stale", () => {
    // the attempt started at T0−1h, upstream republished at T0−30min, the unit published at T0
    const r = unitState(facts({ upstream: [{ dataset: "stg_orders", unitKey: "2026-08-17", publishedAt: T0 - HOUR / 2 }] }), NOW);
    expect(r.state).toBe("stale");
  });

  it("seed 001: a failed re-run leaves the earlier publish in place and says so", () => {
    const r = unitState(facts({ attempts: [attempt(), attempt({ runId: "run-2", status: "failed", rowsWritten: 0, startedAt: T0 + HOUR })] }), NOW);
    expect(r.state).toBe("published");
    expect(r.reasons).toEqual(["latest attempt (run run-2) failed; the published data is from run run-1"]);
  });
});

describe("unitState — seed 003 (retry and alerting)", () => {
  it("seed 003: three appending tries leave 440 rows for 200 — duplicate at +120%", () => {
    const r = unitState(
      facts({
        writeMode: "append",
        ledger: [publish({ rowCount: 440 })],
        attempts: [
          attempt({ status: "failed", rowsWritten: 120 }),
          attempt({ tryNumber: 2, status: "failed", rowsWritten: 120 }),
          attempt({ tryNumber: 3, rowsWritten: 200 }),
        ],
      }),
      NOW,
    );
    expect(r.state).toBe("duplicate");
    expect(r.facts).toMatchObject({ partialRows: 240, deviation: 1.2, attempts: 3 });
    expect(r.reasons[0]).toContain("wrote 440 rows for 200 expected");
    expect(r.reasons[1]).toBe("440 rows for a source count of 200 (+120%): a retry that appended");
  });

  it("seed 003: three keyed tries leave 200 rows — published, no duplicate", () => {
    const r = unitState(
      facts({
        writeMode: "merge",
        attempts: [attempt({ status: "failed", rowsWritten: 120 }), attempt({ tryNumber: 2, status: "failed", rowsWritten: 120 }), attempt({ tryNumber: 3 })],
      }),
      NOW,
    );
    expect(r.state).toBe("published");
    expect(r.facts.partialRows).toBe(0);
  });

  it("seed 003: a non-atomic write failing at row 120 with nothing published is failed with 120 partial rows", () => {
    const r = unitState(facts({ ledger: [], attempts: [attempt({ status: "failed", rowsWritten: 120, error: "connection reset" })] }), NOW);
    expect(r.state).toBe("failed");
    expect(r.facts.partialRows).toBe(120);
    expect(r.reasons[0]).toBe("latest attempt (run run-1, try 1) failed: connection reset; it left 120 partial rows behind");
  });

  it("a failed try whose producer sent no row count (Airflow's provider, dbt-ol) left rows unknown — not 0, and no claim on what reads it", () => {
    const r = unitState(
      facts({ writeMode: "append", ledger: [], attempts: [attempt({ status: "failed", rowsWritten: null, error: "division by zero" })] }),
      NOW,
    );
    expect(r.state).toBe("failed");
    expect(r.facts.partialRows).toBeNull();
    expect(r.reasons[0]).toBe(
      "latest attempt (run run-1, try 1) failed: division by zero; whether it left rows behind is unknown: its producer reported no row count",
    );
    expect(upstreamProblemOf(r.state, r.facts.partialRows)).toBeNull();
    // Counted rows from one try and none from another: at least those, and said so.
    const both = unitState(
      facts({
        writeMode: "append",
        ledger: [],
        attempts: [attempt({ status: "failed", rowsWritten: 20 }), attempt({ tryNumber: 2, status: "failed", rowsWritten: null })],
      }),
      NOW,
    );
    expect(both.facts.partialRows).toBe(20);
    expect(both.reasons[0]).toContain("it left 20 partial rows behind (and a try that reported no row count)");
  });

  it("seed 003: an atomic write failing leaves nothing behind — failed with 0 partial rows", () => {
    const r = unitState(facts({ ledger: [], attempts: [attempt({ status: "failed", rowsWritten: 0 })] }), NOW);
    expect(r.state).toBe("failed");
    expect(r.facts.partialRows).toBe(0);
  });

  it("seed 003: a half-written partition published with 120 of 200 rows is divergent at −40%", () => {
    const r = unitState(facts({ ledger: [publish({ rowCount: 120 })] }), NOW);
    expect(r.state).toBe("divergent");
    expect(r.facts.deviation).toBeCloseTo(-0.4, 10);
    expect(r.reasons[0]).toBe("120 rows for a source count of 200 (−40%), outside the ±5% band");
  });

  it("seed 003: 2,320 of 2,400 rows is −3.33%, inside the ±5% band — published", () => {
    const r = unitState(facts({ ledger: [publish({ rowCount: 2320 })], sourceCount: 2400 }), NOW);
    expect(r.state).toBe("published");
    expect(r.facts.deviation).toBeCloseTo(-0.03333, 5);
  });

  it("seed 003: 2,200 of 2,400 rows is −8.33%, outside the band — divergent", () => {
    expect(unitState(facts({ ledger: [publish({ rowCount: 2200 })], sourceCount: 2400 }), NOW).state).toBe("divergent");
  });
});

describe("unitState — the remaining definitions", () => {
  it("a unit whose attempt is still running and not yet published is missing, with running = true", () => {
    const r = unitState(facts({ ledger: [], attempts: [attempt({ status: "running", rowsWritten: null, endedAt: null })] }), NOW);
    expect(r.state).toBe("missing");
    expect(r.facts.running).toBe(true);
  });

  it("several conditions: the worst one is the state, every one is a reason", () => {
    const r = unitState(
      facts({
        ledger: [publish({ rowCount: 150 })],
        neighbourInputVersion: "raw@2026-08-17",
        upstream: [{ dataset: "stg_orders", unitKey: "2026-08-17", publishedAt: T0 + HOUR }],
      }),
      NOW,
    );
    expect(r.state).toBe("divergent");
    expect(r.reasons).toHaveLength(3);
  });

  it("computeUnitStates returns one result per cell in order", () => {
    const out = computeUnitStates([facts(), facts({ ledger: [], attempts: [] }), facts({ ledger: [publish({ rowCount: 0 })] })], NOW);
    expect(out.map((r) => r.state)).toEqual(["published", "missing", "empty"]);
  });
});

describe("unitState over arbitrary records", () => {
  const attemptArb = fc.record({
    runId: fc.constantFrom("run-1", "run-2", "rep-1"),
    tryNumber: fc.integer({ min: 1, max: 3 }),
    status: fc.constantFrom("queued", "running", "succeeded", "failed", "upstream_failed", "skipped", "marked_success", "known_bad") as fc.Arbitrary<
      Attempt["status"]
    >,
    rowsWritten: fc.option(fc.nat({ max: 400 })),
    error: fc.option(fc.constant("boom")),
    startedAt: fc.option(fc.integer({ min: T0 - 5 * HOUR, max: T0 + 5 * HOUR })),
    endedAt: fc.constant(null),
  });
  const ledgerArb = fc.record({
    runId: fc.constantFrom("run-1", "run-2", "rep-1"),
    runKind: fc.constantFrom("scheduled", "manual", "backfill", "repair") as fc.Arbitrary<LedgerEntry["runKind"]>,
    publishedAt: fc.integer({ min: T0 - 5 * HOUR, max: T0 + 5 * HOUR }),
    inputVersion: fc.constantFrom("v1", "v2"),
    codeVersion: fc.constant("c1"),
    rowCount: fc.nat({ max: 400 }),
  });
  const factsArb = fc.record({
    ledger: fc.array(ledgerArb, { maxLength: 3 }),
    attempts: fc.array(attemptArb, { maxLength: 4 }),
    sourceCount: fc.option(fc.nat({ max: 400 })),
    tolerance: fc.constantFrom(0, 0.05),
    writeMode: fc.constantFrom("replace", "merge", "append") as fc.Arbitrary<UnitFacts["writeMode"]>,
    neighbourInputVersion: fc.option(fc.constantFrom("v1", "v2")),
    upstream: fc.array(
      fc.record({ dataset: fc.constant("up"), unitKey: fc.constant("k"), publishedAt: fc.integer({ min: T0 - 5 * HOUR, max: T0 + 5 * HOUR }) }),
      { maxLength: 2 },
    ),
  });

  it("always yields one of the twelve states, explains every unhealthy one, and the batch path agrees cell by cell", () => {
    fc.assert(
      fc.property(fc.array(factsArb, { minLength: 1, maxLength: 8 }), (cells) => {
        const batch = computeUnitStates(cells, NOW);
        cells.forEach((cell, i) => {
          const single = unitState(cell, NOW);
          expect(batch[i]).toEqual(single);
          expect(UNIT_STATE_PRECEDENCE).toContain(single.state);
          if (single.state !== "published" && single.state !== "repaired") expect(single.reasons.length).toBeGreaterThan(0);
          if (cell.ledger.length === 0) expect(["known_bad", "skipped", "failed", "blocked", "missing"]).toContain(single.state);
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe("unitState — what real producers leave unsaid (unknown is a value)", () => {
  it("a run that completed the unit without a row count is published, rows unknown — present, never missing", () => {
    const r = unitState(facts({ ledger: [publish({ rowCount: null })], attempts: [attempt({ rowsWritten: null })], sourceCount: null }), NOW);
    expect(r.state).toBe("rows_unknown");
    expect(r.reasons[0]).toBe("published without a row count (its producer reported the run complete, not how many rows): present, but not reconciled");
    expect(r.facts.publishCount).toBe(1);
  });

  it("rows unknown is never reconciled nor called empty or divergent, even beside a source count", () => {
    const r = unitState(facts({ ledger: [publish({ rowCount: null })], sourceCount: 1_000 }), NOW);
    expect(r.state).toBe("rows_unknown");
    expect(r.facts.deviation).toBeNull();
    expect(r.reasons[0]).toContain("not reconciled with the source's 1000");
  });

  it("a routine re-run by a task whose write mode nobody declared is a republish, not a duplicate", () => {
    const r = unitState(
      facts({
        writeMode: null,
        sourceCount: null,
        ledger: [publish(), publish({ runId: "run-2", publishedAt: T0 + HOUR })],
        attempts: [attempt(), attempt({ runId: "run-2", tryNumber: 2, startedAt: T0 + HOUR / 2, endedAt: T0 + HOUR })],
      }),
      NOW,
    );
    expect(r.state).toBe("published");
    expect(r.reasons).toEqual([
      "republished 2 times by a task whose write mode nobody declared: a republish, not a duplicate — declare the write mode (append makes it one copy per publish)",
    ]);
  });

  it("duplicate needs evidence: rows above the source count make an undeclared task's unit a duplicate", () => {
    const r = unitState(facts({ writeMode: null, ledger: [publish({ rowCount: 400 })], sourceCount: 200 }), NOW);
    expect(r.state).toBe("duplicate");
    expect(r.reasons[0]).toBe("400 rows for a source count of 200 (+100%): a retry that appended");
  });

  it("rows unknown ranks below every problem and above repaired and published", () => {
    expect(worseState("rows_unknown", "stale")).toBe("stale");
    expect(worseState("rows_unknown", "repaired")).toBe("rows_unknown");
    expect(worseState("rows_unknown", "published")).toBe("rows_unknown");
  });
});

describe("precedence and aggregation", () => {
  const stateArb = fc.constantFrom(...UNIT_STATE_PRECEDENCE);

  it("lists the fourteen states of PRODUCT.md, worst first (published, rows unknown among them)", () => {
    expect(UNIT_STATE_PRECEDENCE).toEqual([
      "known_bad",
      "skipped",
      "failed",
      "blocked",
      "missing",
      "empty",
      "duplicate",
      "divergent",
      "suspect",
      "stale",
      "input_mismatch",
      "rows_unknown",
      "repaired",
      "published",
    ]);
  });

  it("ranks every state once, and the worse of two is the one PRODUCT.md puts first", () => {
    // A rank per state, none shared: a state missing from RANK or two states on one rank fails here.
    expect(new Set(UNIT_STATE_PRECEDENCE.map(stateRank)).size).toBe(14);
    expect(UNIT_STATE_PRECEDENCE.map(stateRank)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    // The pairs an operator meets, named: a bad answer outranks a missing one, a wrong copy outranks
    // a suspect one, anything wrong outranks repaired, and repaired outranks plain published.
    const pairs: [UnitState, UnitState, UnitState][] = [
      ["published", "failed", "failed"],
      ["missing", "known_bad", "known_bad"],
      ["suspect", "duplicate", "duplicate"],
      ["stale", "suspect", "suspect"],
      ["repaired", "stale", "stale"],
      ["published", "repaired", "repaired"],
      ["empty", "missing", "missing"],
      ["input_mismatch", "divergent", "divergent"],
    ];
    for (const [a, b, worse] of pairs) {
      expect(worseState(a, b)).toBe(worse);
      expect(worseState(b, a)).toBe(worse);
    }
  });

  it("worst-state aggregation is commutative and associative", () => {
    fc.assert(
      fc.property(stateArb, stateArb, stateArb, (a, b, c) => {
        expect(worseState(a, b)).toBe(worseState(b, a));
        expect(worseState(worseState(a, b), c)).toBe(worseState(a, worseState(b, c)));
      }),
    );
  });

  it("the worst state of a cell does not depend on the order of its units", () => {
    fc.assert(
      fc.property(fc.array(stateArb, { minLength: 1 }), (states) => {
        expect(worstState([...states].reverse())).toBe(worstState(states));
        expect(states).toContain(worstState(states));
      }),
    );
  });

  it("a month holding one failed day among published days shows failed; an empty cell shows nothing", () => {
    expect(worstState(["published", "repaired", "failed", "stale"])).toBe("failed");
    expect(worstState([])).toBeNull();
  });
});

describe("suspect: published, but built on a bad upstream unit (seed 001)", () => {
  const published = {
    ledger: [{ runId: "r1", runKind: "scheduled" as const, publishedAt: 100, inputVersion: null, codeVersion: null, rowCount: 50 }],
    attempts: [],
    tolerance: 0.05,
    writeMode: "replace" as const,
  };

  it("revenue_daily 2026-08-10 built from fct_orders' duplicated day is suspect, naming that unit", () => {
    const r = unitState({ ...published, upstreamBad: [{ dataset: "dataset:warehouse:fct_orders", unitKey: "2026-08-10", problem: "suspect" }] }, 200);
    expect(r.state).toBe("suspect");
    expect(r.reasons).toEqual(["built from upstream dataset:warehouse:fct_orders 2026-08-10, which is suspect: published, but its figures carry that problem"]);
  });

  it("worse conditions of its own still win (a duplicate built on a duplicate is a duplicate), and the suspicion stays in the reasons", () => {
    const r = unitState(
      {
        ...published,
        writeMode: "append",
        ledger: [...published.ledger, { ...published.ledger[0]!, runId: "r2", publishedAt: 150 }],
        upstreamBad: [{ dataset: "d", unitKey: "k", problem: "duplicate (more than one copy)" }],
      },
      200,
    );
    expect(r.state).toBe("duplicate");
    expect(r.reasons.some((x) => x.startsWith("built from upstream d k, which is duplicate"))).toBe(true);
  });

  it("an unpublished unit is what it is (missing, failed), never suspect; a known-bad mark still outranks it", () => {
    expect(unitState({ ...published, ledger: [], upstreamBad: [{ dataset: "d", unitKey: "k", problem: "empty" }] }, 200).state).toBe("missing");
    expect(
      unitState(
        { ...published, marks: [{ kind: "known_bad", reason: "source broken", at: 150 }], upstreamBad: [{ dataset: "d", unitKey: "k", problem: "empty" }] },
        200,
      ).state,
    ).toBe("known_bad");
  });

  it("which upstream states pass a problem on: a partial write does, a clean failure or a stale-free publish does not", () => {
    expect(upstreamProblemOf("failed", 20)).toBe("a partial write (20 rows left by failed tries)");
    expect(upstreamProblemOf("failed", 0)).toBeNull();
    expect(upstreamProblemOf("published", 0)).toBeNull();
    expect(upstreamProblemOf("input_mismatch", 0)).toBeNull();
    expect(["duplicate", "divergent", "empty", "known_bad", "stale", "suspect"].every((s) => upstreamProblemOf(s as UnitState, 0) !== null)).toBe(true);
  });
});
