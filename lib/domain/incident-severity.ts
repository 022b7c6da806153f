import { counted } from "./words";

/**
 * An incident's severity, SEV1 (worst) to SEV4, computed from what its closure reaches — and the
 * reasons in words, so the incident shows *why* and a person who disagrees can say which fact
 * they weigh differently (issue 36: "a severity computed from its closure … changeable with a
 * reason"). Seed 001: "a number that has already been read, quoted in a meeting, or exported into
 * a spreadsheet is not fixed by re-running a DAG": what already left the platform decides first.
 *
 *   SEV1  an affected unit was already delivered outside (an export sent, a file shared): a re-run
 *         recalls nothing, the receiver must be told and the unit re-sent.
 *   SEV2  a dataset read outside the platform is reached but not sent yet (its next delivery is
 *         wrong or late) · a dataset declared critical · 3 or more consumers · 20 or more
 *         datasets or 500 or more (task, unit) pairs.
 *   SEV3  1 or 2 consumers · 5 or more datasets or 50 or more pairs.
 *   SEV4  otherwise: a small closure nobody outside reads.
 *   Age   detected 7 or more days ago raises the level by one (the wrong number has been in a
 *         week's reports), never above SEV2: SEV1 stays the mark of what already left.
 *
 * Unknown facts are not guessed: `critical` or `consumers` null (nothing declares them) adds no
 * reason and raises nothing.
 *
 * Example — the demo's stg_orders 2026-08-17, opened on 2026-12-06:
 *   raw_orders -> stg_orders -> fct_orders -> revenue_daily -> weekly_revenue_export (external, 2026-W34 not sent)
 *                               fct_orders -> running_balance 08-17…08-25, order_features; revenue_daily -> dashboard
 *   incidentSeverity({ delivered: [], external: [{ what: "weekly_revenue_export", units: ["2026-W34"] }], critical: null,
 *     consumers: ["Churn model team", "Finance ledger (export recipient)", "Revenue dashboard"], datasets: 7, units: 15, ageHours: 2640 })
 *   → { level: "SEV2", reasons: [
 *       "read outside the platform, not sent yet: weekly_revenue_export 2026-W34 → SEV2",
 *       "3 consumers reached: Churn model team, Finance ledger (export recipient), Revenue dashboard → SEV2",
 *       "7 datasets, 15 units reached → SEV3",
 *       "detected 110 days ago: read for over a week, but age alone never makes SEV1" ] }
 * Adding stg_orders 2026-08-10 at scope reaches the W33 export, sent on 2026-08-24:
 *   "an export already sent: weekly_revenue_export 2026-W33 → SEV1".
 */

export const SEVERITY_LEVELS = ["SEV1", "SEV2", "SEV3", "SEV4"] as const;
export type SeverityLevel = (typeof SEVERITY_LEVELS)[number];

/** The thresholds above, named so the docs, the tests and the function read the same figures. */
export const SEVERITY_THRESHOLDS = {
  sev2Consumers: 3,
  sev2Datasets: 20,
  sev2Units: 500,
  sev3Datasets: 5,
  sev3Units: 50,
  raiseAfterHours: 7 * 24,
} as const;

/** Units of one dataset (by its short name), as the closure names them. */
export interface ReachedUnits {
  readonly what: string;
  readonly units: readonly string[];
}

export interface SeverityFacts {
  /** Affected units already delivered outside the platform (ExternalDelivery rows). */
  readonly delivered: readonly ReachedUnits[];
  /** Affected units of datasets read outside the platform, not delivered yet. */
  readonly external: readonly ReachedUnits[];
  /** Reached datasets declared critical; null when nothing declares criticality (unknown). */
  readonly critical: readonly string[] | null;
  /** The consumers (dashboards, recipients, teams) the closure reaches, by name; null when unknown. */
  readonly consumers: readonly string[] | null;
  /** Datasets the closure reaches, the failed tasks' own outputs included. */
  readonly datasets: number;
  /** (task, unit) pairs of the closure, as the plan and the history count them. */
  readonly units: number;
  /** Hours since the failure was detected (the incident's detectedAt). */
  readonly ageHours: number;
}

export interface Severity {
  readonly level: SeverityLevel;
  /** The facts that set or raised the level, the deciding one first, each ending "→ SEVn"; then the age, when it is a week or more. */
  readonly reasons: readonly string[];
}

const rank = (l: SeverityLevel) => SEVERITY_LEVELS.indexOf(l);
const worse = (a: SeverityLevel, b: SeverityLevel): SeverityLevel => (rank(a) <= rank(b) ? a : b);

/** "2026-W33", "2026-08-17, 2026-08-18", "2026-08-17 … 2026-08-25 (9 units)". */
function unitsInWords(units: readonly string[]): string {
  if (units.length <= 3) return units.join(", ");
  return `${units[0]} … ${units.at(-1)} (${counted(units.length, "unit")})`;
}

function reached(list: readonly ReachedUnits[]): string {
  return list.map((r) => (r.units.length > 0 ? `${r.what} ${unitsInWords(r.units)}` : r.what)).join("; ");
}

function names(list: readonly string[]): string {
  return list.length <= 3 ? list.join(", ") : `${list.slice(0, 3).join(", ")} and ${list.length - 3} more`;
}

/** The level and its reasons; pure, so the incident page, the list and the tests read one rule. */
export function incidentSeverity(f: SeverityFacts): Severity {
  const T = SEVERITY_THRESHOLDS;
  const found: { level: SeverityLevel; words: string }[] = [];
  const add = (level: SeverityLevel, words: string) => found.push({ level, words: `${words} → ${level}` });

  if (f.delivered.length > 0) add("SEV1", `${f.delivered.length === 1 ? "an export already sent" : "exports already sent"}: ${reached(f.delivered)}`);
  if (f.external.length > 0) add("SEV2", `read outside the platform, not sent yet: ${reached(f.external)}`);
  if (f.critical && f.critical.length > 0) add("SEV2", `${f.critical.length === 1 ? "a critical dataset" : "critical datasets"} reached: ${names(f.critical)}`);
  if (f.consumers && f.consumers.length > 0)
    add(f.consumers.length >= T.sev2Consumers ? "SEV2" : "SEV3", `${counted(f.consumers.length, "consumer")} reached: ${names(f.consumers)}`);
  const size = `${counted(f.datasets, "dataset")}, ${counted(f.units, "unit")} reached`;
  if (f.datasets >= T.sev2Datasets || f.units >= T.sev2Units) add("SEV2", size);
  else if (f.datasets >= T.sev3Datasets || f.units >= T.sev3Units) add("SEV3", size);
  else if (found.length === 0) add("SEV4", `${size}, nothing read outside and no consumer known`);

  let level = found.reduce<SeverityLevel>((l, r) => worse(l, r.level), "SEV4");
  found.sort((a, b) => rank(a.level) - rank(b.level));
  const reasons = found.map((r) => r.words);
  if (f.ageHours >= T.raiseAfterHours) {
    const since = `detected ${counted(Math.floor(f.ageHours / 24), "day")} ago`;
    if (rank(level) > rank("SEV2")) {
      level = SEVERITY_LEVELS[rank(level) - 1]!;
      reasons.push(`${since}: the wrong number has been read for over a week → ${level}`);
    } else if (level === "SEV2") reasons.push(`${since}: read for over a week, but age alone never makes SEV1`);
    else reasons.push(since);
  }
  return { level, reasons };
}
