/**
 * When a unit's rows were last known to be gone — the instant from which the unit-state rules
 * (`UnitFacts.cleanedAt`) stop counting earlier attempts' rows and earlier publishes' copies.
 *
 * Seed 001's incident fix for an appended unit is "deduplicate the interval now". Reparo believes
 * a cleaning only when it was measured:
 *  - cleaned by Reparo through the dataset's warehouse connection: the delete and its before/after
 *    counts ran in one transaction, so the cleaning's own time holds;
 *  - declared cleaned outside Reparo (no connection): the declaration alone proves nothing; it
 *    holds from the instant a count of the unit's rows in its warehouse showed 0 (`evidencedAt`,
 *    kept on the declaration) — everything written before that count is provably gone. A later
 *    count of the repaired rows does not undo it: the unit was empty then.
 * Whether that instant is late enough (after the unit's latest attempt started) is the planner's
 * question, not this one: a cleaning older than a later partial write no longer lifts a blocker.
 *
 * Example: declared at 10:05, the team's count says 0 rows at 10:02 → cleaned at 10:02;
 * declared, no count of 0 yet → not cleaned (null).
 */
import type { Instant } from "./unit-facts";

export type Cleaning =
  { readonly kind: "measured"; readonly at: Instant } | { readonly kind: "declared"; readonly at: Instant; readonly evidencedAt: Instant | null };

export interface WarehouseCount {
  readonly rows: number;
  readonly measuredAt: Instant;
}

export function cleanedAt(cleanings: readonly Cleaning[]): Instant | null {
  let at: Instant | null = null;
  for (const c of cleanings) {
    const t = c.kind === "measured" ? c.at : c.evidencedAt;
    if (t !== null && (at === null || t > at)) at = t;
  }
  return at;
}

/** The instant a count of 0 rows evidences a declared cleaning from (null: it does not). */
export function evidenceOf(count: WarehouseCount | null): Instant | null {
  return count !== null && count.rows === 0 ? count.measuredAt : null;
}

/**
 * What a declared cleaning still waits for, for the operator (null when it is believed and late
 * enough): the evidence it has (`evidencedAt`), the team's latest count, the latest attempt's start.
 */
export function awaitedEvidence(evidencedAt: Instant | null, latest: WarehouseCount | null, latestAttemptStart: Instant | null): string | null {
  if (evidencedAt !== null && (latestAttemptStart === null || evidencedAt > latestAttemptStart)) return null;
  if (latest !== null && latest.rows > 0) return `the latest count found ${latest.rows} ${latest.rows === 1 ? "row" : "rows"} still in the unit`;
  if (evidencedAt !== null) return "the count of 0 rows was taken before the unit's latest attempt started, which may have written rows since";
  return "no count of the unit's rows has arrived yet";
}

/**
 * Whether an append unit provably holds nothing to remove: never published, and it has attempts,
 * every one settled having reported 0 rows written (a try that failed before writing). An attempt
 * still running, one whose rows are unknown (null), or no attempt at all (rows written before
 * Reparo saw the pipeline, or by a producer that reports none) may mean rows: not provably empty.
 * Example: stg_orders 2026-08-23, whose one try failed before writing → true.
 */
export function holdsNothing(attempts: readonly { readonly status: string; readonly rowsWritten: number | null }[], publishCount: number): boolean {
  return publishCount === 0 && attempts.length > 0 && attempts.every((a) => a.status !== "running" && a.status !== "queued" && a.rowsWritten === 0);
}
