/**
 * When a unit's rows were last known to be gone — the instant from which the unit-state rules
 * (`UnitFacts.cleanedAt`) stop counting earlier attempts' rows and earlier publishes' copies.
 *
 * Seed 001's incident fix for an appended unit is "deduplicate the interval now". Reparo believes
 * a cleaning only when it was measured:
 *  - cleaned by Reparo through the dataset's warehouse connection: the delete and its before/after
 *    counts ran in one transaction, so the cleaning's own time holds;
 *  - declared cleaned outside Reparo (no connection): the declaration alone proves nothing; it
 *    holds from the instant a count of the unit's rows in its warehouse showed 0 — everything
 *    written before that count is provably gone. A count of more than 0 is not a cleaning.
 * Whether that instant is late enough (after the unit's latest attempt started) is the planner's
 * question, not this one: a cleaning older than a later partial write no longer lifts a blocker.
 *
 * Example: declared at 10:05, the team's count says 0 rows at 10:02 → cleaned at 10:02;
 * declared, count says 20 rows → not cleaned (null).
 */
import type { Instant } from "./unit-facts";

export interface Cleaning {
  readonly kind: "measured" | "declared";
  readonly at: Instant;
}

export interface WarehouseCount {
  readonly rows: number;
  readonly measuredAt: Instant;
}

export function cleanedAt(cleanings: readonly Cleaning[], count: WarehouseCount | null): Instant | null {
  let at: Instant | null = null;
  const later = (t: Instant) => { if (at === null || t > at) at = t; };
  for (const c of cleanings) {
    if (c.kind === "measured") later(c.at);
    else if (count !== null && count.rows === 0) later(count.measuredAt);
  }
  return at;
}

/** What a declared cleaning still waits for, for the operator (null when the evidence is in). */
export function awaitedEvidence(count: WarehouseCount | null, latestAttemptStart: Instant | null): string | null {
  if (count === null) return "no count of the unit's rows has arrived yet";
  if (count.rows > 0) return `the latest count found ${count.rows} ${count.rows === 1 ? "row" : "rows"} still in the unit`;
  if (latestAttemptStart !== null && count.measuredAt <= latestAttemptStart) return "the latest count of 0 rows was taken before the unit's latest attempt started, which may have written rows since";
  return null;
}
