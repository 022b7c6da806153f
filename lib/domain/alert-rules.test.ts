import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { alertsSteadyUntil, evaluateAlerts, type AlertDatasetInput, type AlertUnitInput } from "./alert-rules";
import type { UnitState } from "./unit-state";

const HOUR = 3_600_000;
const day = (key: string) => Date.parse(`${key}T00:00:00Z`);
const unit = (unitKey: string, over: Partial<AlertUnitInput> = {}): AlertUnitInput => ({
  unitKey,
  state: "published",
  reasons: [],
  windowEndMs: day(unitKey) + 24 * HOUR,
  period: unitKey.slice(0, 7),
  publishCount: 1,
  rowCount: 200,
  sourceCount: 200,
  deviation: 0,
  ...over,
});
const dataset = (units: AlertUnitInput[], over: Partial<AlertDatasetInput> = {}): AlertDatasetInput => ({
  datasetNodeId: "dataset:warehouse:stg_orders",
  taskNodeId: "job:orders:stg_orders",
  tolerance: 0.05,
  graceMs: 6 * HOUR,
  units,
  ...over,
});

//   raw_orders -> stg_orders (append) : 08-17 failed, 08-23 blocked, 08-10 one and a half copies
describe("evaluateAlerts", () => {
  it("seed 001: a wrong unit already delivered outside raises its own alert to tell its consumers; a healthy or failed one does not", () => {
    const sent = (unitKey: string, state: UnitState) => ({
      unitKey,
      state,
      reasons: [`${state} because of upstream`],
      sentTo: ["to sftp://finance at 2026-08-24T06:00:00.000Z"],
    });
    const alerts = evaluateAlerts(
      [dataset([], { delivered: [sent("2026-W34", "failed"), sent("2026-W33", "suspect"), sent("2026-W32", "published"), sent("2026-W31", "stale")] })],
      day("2026-09-02"),
    );
    const told = alerts.filter((a) => a.rule === "consumed_outside");
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ severity: "critical", source: "data", units: ["2026-W31", "2026-W33"] });
    expect(told[0]!.title).toBe("2 units already delivered outside while they are wrong: tell their consumers");
    expect(told[0]!.details[1]).toBe("2026-W33: suspect (suspect because of upstream); sent to sftp://finance at 2026-08-24T06:00:00.000Z");
  });

  it("an alert over many units keeps a short id that still changes when one of its units does", () => {
    const keys = Array.from({ length: 25 }, (_, i) => `2026-07-${String(i + 1).padStart(2, "0")}`);
    const stale = (ks: string[]) =>
      evaluateAlerts([dataset(ks.map((k) => unit(k, { state: "stale" })))], day("2026-09-02")).find((a) => a.rule === "stale_after_republish")!;
    const all = stale(keys);
    expect(all.units).toHaveLength(25);
    expect(all.id).toMatch(/^stale_after_republish\|dataset:warehouse:stg_orders\|2026-07-01\.\.2026-07-25\|25\|[0-9a-f]{16}$/);
    expect(stale(keys).id).toBe(all.id);
    expect(stale([...keys.slice(0, 12), "2026-07-31", ...keys.slice(13)]).id).not.toBe(all.id);
    expect(stale(keys.slice(0, 3)).id).toBe("stale_after_republish|dataset:warehouse:stg_orders|2026-07-01,2026-07-02,2026-07-03");
  });

  it("a missing unit alerts only once its window closed and the grace passed", () => {
    const d = dataset([unit("2026-08-17", { state: "missing", publishCount: 0, rowCount: null, deviation: null, period: null })]);
    expect(evaluateAlerts([d], day("2026-08-18") + 5 * HOUR)).toEqual([]);
    const alerts = evaluateAlerts([d], day("2026-08-18") + 6 * HOUR);
    expect(alerts.map((a) => [a.rule, a.source, a.units])).toEqual([["missing_past_deadline", "data", ["2026-08-17"]]]);
    expect(alerts[0]!.details).toEqual(["2026-08-17: missing, due 2026-08-18T06:00:00.000Z"]);
  });

  it("a failed unit raises a task alert and a data alert, each naming its source", () => {
    const failed = unit("2026-08-17", {
      state: "failed",
      reasons: ["latest attempt failed: too many connections"],
      publishCount: 0,
      rowCount: null,
      deviation: null,
    });
    const alerts = evaluateAlerts([dataset([failed])], day("2026-09-02"));
    expect(alerts.map((a) => `${a.source}:${a.rule}`)).toEqual(["task:task_failed", "data:missing_past_deadline", "data:period_incomplete"]);
    expect(alerts[0]).toMatchObject({ taskNodeId: "job:orders:stg_orders", units: ["2026-08-17"], details: ["latest attempt failed: too many connections"] });
    expect(alerts[2]!.title).toBe("period 2026-08 incomplete: 1 of 1 unit not published");
  });

  it("duplicates, empty units and units outside the band are data alerts even when every task succeeded", () => {
    const alerts = evaluateAlerts(
      [
        dataset([
          unit("2026-08-09", { state: "duplicate", publishCount: 2, reasons: ["published 2 times by an append task: each publish added its rows again"] }),
          unit("2026-08-10", { state: "empty", rowCount: 0, deviation: -1 }),
          unit("2026-08-11", { state: "divergent", rowCount: 120, deviation: -0.4 }),
          unit("2026-08-12", { rowCount: 190, deviation: -0.05 }),
        ]),
      ],
      day("2026-09-02"),
    );
    expect(alerts.map((a) => [a.rule, a.units])).toEqual([
      ["published_more_than_once", ["2026-08-09"]],
      ["empty", ["2026-08-10"]],
      ["row_count_out_of_band", ["2026-08-10", "2026-08-11"]],
    ]);
    expect(alerts[2]!.details).toEqual(["2026-08-10: 0 rows for a source count of 200 (−100%)", "2026-08-11: 120 rows for a source count of 200 (−40%)"]);
  });

  it("a known-bad unit breaks its closed period; an open period does not alert yet", () => {
    const d = dataset([unit("2026-08-30", { state: "known_bad" }), unit("2026-08-31"), unit("2026-09-01", { state: "known_bad" })]);
    const alerts = evaluateAlerts([d], day("2026-09-01") + 12 * HOUR);
    expect(alerts.map((a) => [a.rule, a.units])).toEqual([["period_incomplete", ["2026-08-30"]]]);
  });

  it("stale units alert, and the id is stable for the same rule and units", () => {
    const d = dataset([unit("2026-08-17", { state: "stale", reasons: ["upstream stg_orders 2026-08-17 was republished after this unit was built"] })]);
    const [a] = evaluateAlerts([d], day("2026-09-02"));
    expect(a).toMatchObject({ rule: "stale_after_republish", severity: "warning", id: "stale_after_republish|dataset:warehouse:stg_orders|2026-08-17" });
    expect(evaluateAlerts([d], day("2026-09-03"))[0]!.id).toBe(a!.id);
  });
});

describe("alertsSteadyUntil", () => {
  it("a missing unit's alerts hold until its deadline, and change there", () => {
    const d = dataset([unit("2026-08-17", { state: "missing", publishCount: 0, rowCount: null, deviation: null, period: null })]);
    const from = day("2026-08-18");
    expect(alertsSteadyUntil(d, from)).toBe(from + 6 * HOUR);
    expect(evaluateAlerts([d], from + 6 * HOUR - 1)).toEqual([]);
    expect(evaluateAlerts([d], from + 6 * HOUR)).toHaveLength(1);
    expect(alertsSteadyUntil(d, from + 6 * HOUR)).toBeNull();
  });

  it("a unit with no window, or every deadline passed, holds for good", () => {
    expect(alertsSteadyUntil(dataset([unit("eu", { state: "missing", windowEndMs: null, period: null })]), day("2026-01-01"))).toBeNull();
    expect(alertsSteadyUntil(dataset([unit("2026-08-17")]), day("2026-09-01"))).toBeNull();
  });

  it("for random units, periods and instants, evaluateAlerts answers the same from `from` up to the instant it names (seeded)", () => {
    const states: UnitState[] = ["published", "missing", "failed", "blocked", "known_bad", "skipped", "duplicate", "stale", "empty", "divergent"];
    const unitArb = fc.record({
      day: fc.integer({ min: 1, max: 60 }),
      state: fc.constantFrom(...states),
      timeless: fc.boolean(),
    });
    const base = day("2026-08-01");
    fc.assert(
      fc.property(
        fc.array(unitArb, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 0, max: 48 }),
        fc.integer({ min: 0, max: 70 * 24 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 70 * 24 }),
        (cells, graceHours, fromHour, withPeriods, probeHour) => {
          const units = cells.map((c) => {
            const key = new Date(base + (c.day - 1) * 24 * HOUR).toISOString().slice(0, 10);
            return unit(key, { state: c.state, windowEndMs: c.timeless ? null : day(key) + 24 * HOUR, period: c.timeless ? null : key.slice(0, 7) });
          });
          const periods = withPeriods
            ? new Map(
                [...new Set(units.flatMap((u) => (u.period ? [u.period] : [])))].map((p) => {
                  const [y, m] = p.split("-").map(Number) as [number, number];
                  return [p, { endMs: Date.UTC(y, m, 1), units: 31 }];
                }),
              )
            : undefined;
          const d = dataset(units, { graceMs: graceHours * HOUR, periods });
          const from = base + fromHour * HOUR;
          const until = alertsSteadyUntil(d, from);
          const at = from + probeHour * HOUR;
          if (until !== null && at >= until) return;
          expect(evaluateAlerts([d], at)).toEqual(evaluateAlerts([d], from));
        },
      ),
      { seed: 12, numRuns: 400 },
    );
  });
});
