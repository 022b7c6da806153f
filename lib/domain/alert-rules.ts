/**
 * Alerts from the data, not only from tasks (seed 003, seed 000's missing-unit alert). A task
 * alert says "the task is still failing after its last try"; it goes silent the moment a retry
 * succeeds — even when the retry appended a second copy — and it never fires for a half-written
 * partition whose task exited zero. Data alerts are evaluated from the ledger, the source counts
 * and the unit states, independent of run status:
 *
 *   missing_past_deadline      expected unit with no publish once its window closed + grace
 *   published_more_than_once   more than one copy (append republished, or partial write + retry)
 *   empty                      in the ledger with 0 rows
 *   row_count_out_of_band      |rows − source| / source > the dataset's tolerance, per unit
 *   period_incomplete          a closed period (e.g. a month of days) with a unit not published
 *                              or withheld (known-bad, skipped)
 *   stale_after_republish      an upstream unit was republished after this unit was built
 *   check_failed               a check of the dataset (a dbt test) failed on its latest run: the
 *                              data is wrong in a way the test names, whatever the ledger says
 *   consumed_outside           a unit already delivered outside the platform (an export sent, a
 *                              file shared) is wrong now — suspect, duplicated, divergent, empty,
 *                              stale or known-bad: re-running fixes the table, not what its
 *                              consumers hold, so they must be told (seed 001)
 *
 * Example (seed 003): meter_readings_screened 2026-07 holds 120 rows for a source count of 200.
 * The table-wide row check (2,320 of 2,400, −3.33 %) and the region × period completeness check
 * both pass; row_count_out_of_band names the unit (−40 %), and task_failed names the landing.
 */
import { fnv1a64 } from "./fnv";
import { counted } from "./words";
import type { Instant, UnitKey, UnitState } from "./unit-state";

export type AlertRule =
  | "task_failed"
  | "missing_past_deadline"
  | "published_more_than_once"
  | "empty"
  | "row_count_out_of_band"
  | "period_incomplete"
  | "stale_after_republish"
  | "check_failed"
  | "consumed_outside";

/** A check of a dataset (a dbt test) whose latest attempt failed. */
export interface FailedCheck {
  check: string;
  message: string;
  at: Instant;
}

export interface AlertUnitInput {
  unitKey: UnitKey;
  state: UnitState;
  reasons: readonly string[];
  /** When the unit's window closes (null: not a time unit, expected as soon as it is defined). */
  windowEndMs: Instant | null;
  /** The coarser period the unit belongs to, e.g. "2026-08" for a day (null: no period check). */
  period: string | null;
  publishCount: number;
  rowCount: number | null;
  sourceCount: number | null;
  deviation: number | null;
}

export interface AlertDatasetInput {
  datasetNodeId: string;
  taskNodeId: string | null;
  tolerance: number;
  /** How long after a unit's window closes it may still arrive before it is late. */
  graceMs: number;
  /** The units to judge; healthy ones (published, repaired) may be left out — no rule fires on them. */
  units: readonly AlertUnitInput[];
  /**
   * Per coarser period holding a unit of `units`: when its last unit's window ends and how many
   * units it has. Needed when `units` leaves healthy units out (a period closes with its last
   * unit, healthy or not); without it the periods are read off `units`.
   */
  periods?: ReadonlyMap<string, { endMs: Instant; units: number }>;
  /** Checks that read this dataset and failed on their latest run. */
  failedChecks?: readonly FailedCheck[];
  /** Its units already delivered outside the platform, with their state now (any state, suspect included). */
  delivered?: readonly DeliveredUnit[];
}

/** A unit sent outside the platform (an export, a shared file) and what it is now. */
export interface DeliveredUnit {
  unitKey: UnitKey;
  state: UnitState;
  reasons: readonly string[];
  /** "sftp://finance/weekly at 2026-08-24T06:00:00.000Z", one per delivery. */
  sentTo: readonly string[];
}

/** States in which what consumers were sent may be wrong (a failed or missing unit sent nothing new). */
const WRONG_WHEN_CONSUMED = new Set<UnitState>(["suspect", "duplicate", "divergent", "empty", "stale", "known_bad"]);

export interface Alert {
  /** Stable while the same rule fires for the same units: the webhook sends it once. */
  id: string;
  rule: AlertRule;
  source: "task" | "data";
  severity: "critical" | "warning";
  datasetNodeId: string;
  taskNodeId: string | null;
  units: UnitKey[];
  title: string;
  details: string[];
}

const UNPUBLISHED = new Set<UnitState>(["missing", "failed", "blocked"]);
const WITHHELD = new Set<UnitState>(["known_bad", "skipped"]);

export function evaluateAlerts(datasets: readonly AlertDatasetInput[], now: Instant): Alert[] {
  return datasets.flatMap((d) => [
    ...unitRule(
      d,
      "task_failed",
      "task",
      "critical",
      (u) => u.state === "failed",
      (n) => `${counted(n, "unit")} still failing after the last try`,
      (u) => u.reasons[0] ?? "failed",
    ),
    ...unitRule(
      d,
      "missing_past_deadline",
      "data",
      "critical",
      (u) => isLate(u, d, now),
      (n) => `${counted(n, "expected unit")} missing past the deadline`,
      (u) => `${u.unitKey}: ${u.state}${u.windowEndMs === null ? "" : `, due ${new Date(u.windowEndMs + d.graceMs).toISOString()}`}`,
    ),
    ...unitRule(
      d,
      "published_more_than_once",
      "data",
      "critical",
      (u) => u.state === "duplicate",
      (n) => `${counted(n, "unit")} holding more than one copy`,
      (u) =>
        `${u.unitKey}: ${u.publishCount > 1 ? `published ${u.publishCount}×: ` : ""}${u.reasons.find((r) => /append|copy|copies/.test(r)) ?? u.reasons[0] ?? "more than one copy"}`,
    ),
    ...unitRule(
      d,
      "empty",
      "data",
      "warning",
      (u) => u.publishCount > 0 && u.rowCount === 0,
      (n) => `${counted(n, "unit")} published empty`,
      (u) => `${u.unitKey}: 0 rows${u.sourceCount !== null ? ` (source: ${u.sourceCount})` : ""}`,
    ),
    ...unitRule(
      d,
      "row_count_out_of_band",
      "data",
      "critical",
      (u) => outOfBand(u, d.tolerance),
      (n) => `${counted(n, "unit")} outside the ±${pct(d.tolerance)} band of ${n === 1 ? "its" : "their"} source count`,
      (u) => `${u.unitKey}: ${u.rowCount} rows for a source count of ${u.sourceCount} (${u.deviation === null ? "source reports 0" : signedPct(u.deviation)})`,
    ),
    ...periodRule(d, now),
    ...unitRule(
      d,
      "stale_after_republish",
      "data",
      "warning",
      (u) => u.state === "stale",
      (n) => `${counted(n, "unit")} stale after an upstream republish`,
      (u) => `${u.unitKey}: ${u.reasons.find((r) => r.includes("republished")) ?? "stale"}`,
    ),
    ...checkRule(d),
    ...consumedRule(d),
  ]);
}

/** One alert per dataset for its wrong units already delivered outside: "tell its consumers". */
function consumedRule(d: AlertDatasetInput): Alert[] {
  const hits = (d.delivered ?? []).filter((u) => WRONG_WHEN_CONSUMED.has(u.state)).sort((a, b) => a.unitKey.localeCompare(b.unitKey));
  if (hits.length === 0) return [];
  const units = hits.map((u) => u.unitKey);
  return [
    {
      id: alertId("consumed_outside", d.datasetNodeId, units),
      rule: "consumed_outside",
      source: "data",
      severity: "critical",
      datasetNodeId: d.datasetNodeId,
      taskNodeId: d.taskNodeId,
      units,
      title: `${counted(hits.length, "unit")} already delivered outside while ${hits.length === 1 ? "it is" : "they are"} wrong: tell ${hits.length === 1 ? "its" : "their"} consumers`,
      details: hits.map((u) => `${u.unitKey}: ${u.state.replace(/_/g, "-")} (${u.reasons[0] ?? u.state}); sent ${u.sentTo.join("; ")}`),
    },
  ];
}

/**
 * How long a dataset's alerts stay what they are at `from` while its inputs do not change: the
 * first instant after `from` at which a unit's window plus grace or a period's end plus grace is
 * reached (a unit may turn late, a period close), or null when time alone changes nothing. For
 * every t in [from, result) evaluateAlerts gives what it gives at `from`, so a reader may keep the
 * answer until then instead of judging every unit again.
 */
export function alertsSteadyUntil(d: AlertDatasetInput, from: Instant): Instant | null {
  let next = Number.POSITIVE_INFINITY;
  const consider = (at: Instant) => {
    if (at > from && at < next) next = at;
  };
  for (const u of d.units) if (u.windowEndMs !== null) consider(u.windowEndMs + d.graceMs);
  for (const { endMs } of d.periods?.values() ?? []) consider(endMs + d.graceMs);
  return next === Number.POSITIVE_INFINITY ? null : next;
}

/** One alert per dataset for its failing checks: a data problem the test found, named by the test. */
function checkRule(d: AlertDatasetInput): Alert[] {
  const failed = d.failedChecks ?? [];
  if (failed.length === 0) return [];
  const checks = [...failed].sort((a, b) => a.check.localeCompare(b.check));
  return [
    {
      id: alertId(
        "check_failed",
        d.datasetNodeId,
        checks.map((c) => `${c.check}@${c.at}`),
      ),
      rule: "check_failed",
      source: "data",
      severity: "critical",
      datasetNodeId: d.datasetNodeId,
      taskNodeId: d.taskNodeId,
      units: [],
      title: `${checks.length} check(s) of this dataset failed`,
      details: checks.map((c) => `${c.check}: ${c.message}`),
    },
  ];
}

function isLate(u: AlertUnitInput, d: AlertDatasetInput, now: Instant): boolean {
  return UNPUBLISHED.has(u.state) && (u.windowEndMs === null || u.windowEndMs + d.graceMs <= now);
}

function outOfBand(u: AlertUnitInput, tolerance: number): boolean {
  if (u.publishCount === 0 || u.sourceCount === null || u.rowCount === null) return false;
  return u.deviation === null ? u.rowCount !== u.sourceCount : Math.abs(u.deviation) > tolerance;
}

function unitRule(
  d: AlertDatasetInput,
  rule: AlertRule,
  source: Alert["source"],
  severity: Alert["severity"],
  test: (u: AlertUnitInput) => boolean,
  title: (n: number) => string,
  detail: (u: AlertUnitInput) => string,
): Alert[] {
  const hits = d.units.filter(test);
  if (hits.length === 0) return [];
  const units = hits.map((u) => u.unitKey);
  return [
    {
      id: alertId(rule, d.datasetNodeId, units),
      rule,
      source,
      severity,
      datasetNodeId: d.datasetNodeId,
      taskNodeId: d.taskNodeId,
      units,
      title: title(hits.length),
      details: hits.map(detail),
    },
  ];
}

/** One alert per closed period with a hole: the set-level promise, not the unit-level one. */
function periodRule(d: AlertDatasetInput, now: Instant): Alert[] {
  const periods = new Map<string, AlertUnitInput[]>();
  for (const u of d.units) {
    if (u.period === null) continue;
    const held = periods.get(u.period);
    if (held) held.push(u);
    else periods.set(u.period, [u]);
  }
  return [...periods].flatMap(([period, units]) => {
    const known = d.periods?.get(period);
    const closed = known ? known.endMs + d.graceMs <= now : units.every((u) => u.windowEndMs !== null && u.windowEndMs + d.graceMs <= now);
    const holes = units.filter((u) => UNPUBLISHED.has(u.state) || WITHHELD.has(u.state));
    const size = known ? known.units : units.length;
    if (!closed || holes.length === 0) return [];
    const keys = holes.map((u) => u.unitKey);
    return [
      {
        id: alertId("period_incomplete", d.datasetNodeId, [period, ...keys]),
        rule: "period_incomplete" as const,
        source: "data" as const,
        severity: "critical" as const,
        datasetNodeId: d.datasetNodeId,
        taskNodeId: d.taskNodeId,
        units: keys,
        title: `period ${period} incomplete: ${holes.length} of ${counted(size, "unit")} not published`,
        details: holes.map((u) => `${u.unitKey}: ${u.state}`),
      },
    ];
  });
}

/** Up to this many keys an id lists them; past it, the first and last, the count and a hash of all. */
const ID_KEYS = 20;

function alertId(rule: AlertRule, dataset: string, keys: readonly string[]): string {
  const all = keys.join(",");
  // An alert's id is stored with its deliveries and acknowledgements: it keeps the form they hold.
  // eslint-disable-next-line no-restricted-syntax -- a stored id, not a Map key
  if (keys.length <= ID_KEYS) return `${rule}|${dataset}|${all}`;
  // eslint-disable-next-line no-restricted-syntax -- a stored id, not a Map key
  return `${rule}|${dataset}|${keys[0]}..${keys.at(-1)}|${keys.length}|${fnv1a64(all)}`;
}

function pct(f: number): string {
  return `${Math.round(f * 10000) / 100}%`;
}

function signedPct(f: number): string {
  return `${f > 0 ? "+" : f < 0 ? "−" : ""}${pct(Math.abs(f))}`;
}
