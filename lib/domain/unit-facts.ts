/**
 * One pass over a unit's records, reduced to the handful of facts unitState decides on.
 * Kept separate so unit-state.ts reads as the rules and this file as the bookkeeping, and so
 * the hot path of the matrix (a million cells) is a few loops with no intermediate arrays.
 *
 * Example: attempts [failed 120 rows, failed 120 rows, succeeded 200 rows] of an append task
 * summarise to partialRows 240 and rowsWrittenTotal 440 (seed 003's three tries).
 *
 * The record shapes live here too (unit-state.ts re-exports them), so the dependency runs one
 * way: the rules import the bookkeeping, never the reverse.
 */

import type { InputScope } from "./input-versions";
import type { WriteMode } from "./lineage-graph";

/** A partition key such as "2026-08-17" or "tenant=42/2026-08-17" (same shape as ids.ts's UnitKey). */
export type UnitKey = string;
/** Epoch milliseconds. Time is always passed in; the domain never reads a clock. */
export type Instant = number;

export type RunKind = "scheduled" | "manual" | "backfill" | "repair";
export type { WriteMode };
export type AttemptStatus = "queued" | "running" | "succeeded" | "failed" | "upstream_failed" | "skipped" | "marked_success" | "known_bad";

export interface LedgerEntry {
  runId: string;
  runKind: RunKind;
  publishedAt: Instant;
  inputVersion: string | null;
  codeVersion: string | null;
  /** null: the producer said the run completed the unit without saying how many rows (dbt-ol, Airflow's SQL operators). */
  rowCount: number | null;
}

export interface Attempt {
  runId: string;
  tryNumber: number;
  status: AttemptStatus;
  rowsWritten: number | null;
  error: string | null;
  startedAt: Instant | null;
  endedAt: Instant | null;
}

export interface OperatorMark {
  kind: "known_bad" | "skipped" | "marked_success";
  reason: string;
  at: Instant;
}

/** An upstream unit this unit reads (through its partition mappings) whose content is known to be wrong or doubtful. */
export interface UpstreamProblem {
  dataset: string;
  unitKey: UnitKey;
  /** In words: "duplicate", "a partial write", "suspect", … */
  problem: string;
}

/** The latest publish of an upstream unit this unit reads through its partition mappings. */
export interface UpstreamPublish {
  dataset: string;
  unitKey: UnitKey;
  publishedAt: Instant;
}

export interface UnitFacts {
  ledger: readonly LedgerEntry[];
  attempts: readonly Attempt[];
  sourceCount?: number | null;
  /** Allowed |rowCount − sourceCount| / sourceCount, e.g. 0.05 for seed 003's ±5 % band. */
  tolerance: number;
  /** null: nobody declared it and no source says it — unknown, never taken for append. */
  writeMode: WriteMode | null;
  upstream?: readonly UpstreamPublish[];
  /** Upstream units it was built from that are bad (suspect-making states, suspect-states.ts). */
  upstreamBad?: readonly UpstreamProblem[];
  /** The input version most neighbours were built from (per input: prevailingPerInput). */
  neighbourInputVersion?: string | null;
  /** Which inputs neighbours share (read whole or as of now), so only those are compared (input-versions.ts). */
  inputScope?: InputScope;
  marks?: readonly OperatorMark[];
  /**
   * When an operator last removed the unit's rows (cleaning an appended unit before its repair,
   * seed 001's "deduplicate the interval now"): rows written and copies published before then
   * are no longer in the unit, so they count neither as kept partial rows nor as copies.
   */
  cleanedAt?: Instant | null;
}

export interface UnitSummary {
  publishCount: number;
  /** Publishes since the unit was last cleaned (all of them when it never was): its copies, for append. */
  copies: number;
  latest: LedgerEntry | null;
  latestAttempt: Attempt | null;
  /** Rows left by failed attempts that still sit in the unit (all of them for append), as far as counted. */
  partialRows: number;
  /** A failed attempt that may have left rows reported no row count (dbt-ol, Airflow's provider): how many is unknown. */
  partialRowsUnknown: boolean;
  rowsWrittenTotal: number;
  running: boolean;
  sourceCount: number | null;
  deviation: number | null;
  newerUpstream: UpstreamPublish | null;
  activeMark: { kind: "known_bad" | "skipped"; reason: string } | null;
}

/** (rowCount − sourceCount) / sourceCount; 0 for 0 of 0; null when the source is 0 and rows are not. */
export function rowCountDeviation(rowCount: number, sourceCount: number): number | null {
  if (sourceCount === 0) return rowCount === 0 ? 0 : null;
  return (rowCount - sourceCount) / sourceCount;
}

export function emptySummary(): UnitSummary {
  return {
    publishCount: 0,
    copies: 0,
    latest: null,
    latestAttempt: null,
    partialRows: 0,
    partialRowsUnknown: false,
    rowsWrittenTotal: 0,
    running: false,
    sourceCount: null,
    deviation: null,
    newerUpstream: null,
    activeMark: null,
  };
}

/** Fills `into` (reused by the batch path so a million cells allocate no summaries) and returns it. */
export function summariseUnit(f: UnitFacts, into: UnitSummary = emptySummary()): UnitSummary {
  const latest = latestPublish(f.ledger);
  const latestAttempt = latestOf(f.attempts);
  const source = f.sourceCount ?? null;
  const builtAt = latest ? builtAtOf(latest, f.attempts) : null;
  const cleanedAt = f.cleanedAt ?? -Infinity;
  let partialRows = 0;
  let partialRowsUnknown = false;
  let rowsWrittenTotal = 0;
  for (let i = 0; i < f.attempts.length; i++) {
    const a = f.attempts[i]!;
    // The operator removed what this attempt wrote: it is not in the unit any more.
    if ((a.startedAt ?? a.endedAt ?? Infinity) < cleanedAt) continue;
    const rows = a.rowsWritten ?? 0;
    rowsWrittenTotal += rows;
    // A replace or merge write wipes what an earlier failed attempt left; an append keeps it.
    // Unknown: kept, as for append — a partial write is only known gone once the mode is known.
    const stillThere = f.writeMode === "append" || f.writeMode === null || latest === null || (a.startedAt ?? Infinity) > latest.publishedAt;
    if (a.status === "failed" && stillThere) {
      partialRows += rows;
      if (a.rowsWritten === null || a.rowsWritten === undefined) partialRowsUnknown = true;
    }
  }
  const status = latestAttempt?.status;
  into.publishCount = f.ledger.length;
  into.copies = cleanedAt === -Infinity ? f.ledger.length : countAfter(f.ledger, cleanedAt);
  into.latest = latest;
  into.latestAttempt = latestAttempt;
  into.partialRows = partialRows;
  into.partialRowsUnknown = partialRowsUnknown;
  into.rowsWrittenTotal = rowsWrittenTotal;
  into.running = status === "running" || status === "queued";
  into.sourceCount = source;
  into.deviation = latest && latest.rowCount !== null && source !== null ? rowCountDeviation(latest.rowCount, source) : null;
  into.newerUpstream = builtAt === null ? null : newestAfter(f.upstream, builtAt);
  into.activeMark = activeMark(f, latest);
  return into;
}

function countAfter(ledger: readonly LedgerEntry[], at: Instant): number {
  let n = 0;
  for (let i = 0; i < ledger.length; i++) if (ledger[i]!.publishedAt > at) n++;
  return n;
}

function latestPublish(ledger: readonly LedgerEntry[]): LedgerEntry | null {
  let best: LedgerEntry | null = null;
  for (let i = 0; i < ledger.length; i++) {
    const e = ledger[i]!;
    if (best === null || e.publishedAt >= best.publishedAt) best = e;
  }
  return best;
}

/** Latest by start time; a queued attempt with no start is the newest; ties go to the later one. */
function latestOf(attempts: readonly Attempt[]): Attempt | null {
  let best: Attempt | null = null;
  let bestAt = -Infinity;
  for (let i = 0; i < attempts.length; i++) {
    const a = attempts[i]!;
    const at = a.startedAt ?? a.endedAt ?? Infinity;
    if (at >= bestAt) {
      best = a;
      bestAt = at;
    }
  }
  return best;
}

/**
 * A unit read its inputs when its publishing attempt started, not when it published: an
 * upstream republished in between makes it stale too.
 */
function builtAtOf(latest: LedgerEntry, attempts: readonly Attempt[]): Instant {
  let start = -Infinity;
  for (let i = 0; i < attempts.length; i++) {
    const a = attempts[i]!;
    if (a.runId === latest.runId && a.status === "succeeded" && a.startedAt !== null && a.startedAt > start) {
      start = a.startedAt;
    }
  }
  return start === -Infinity || start > latest.publishedAt ? latest.publishedAt : start;
}

function newestAfter(upstream: readonly UpstreamPublish[] | undefined, builtAt: Instant): UpstreamPublish | null {
  if (!upstream) return null;
  let newest: UpstreamPublish | null = null;
  for (let i = 0; i < upstream.length; i++) {
    const u = upstream[i]!;
    if (u.publishedAt > builtAt && (newest === null || u.publishedAt > newest.publishedAt)) newest = u;
  }
  return newest;
}

/**
 * The latest operator decision (a mark, or an attempt set to known_bad / skipped) stands until
 * a later publish supersedes it; a later marked_success replaces it.
 */
function activeMark(f: UnitFacts, latest: LedgerEntry | null): UnitSummary["activeMark"] {
  let kind: OperatorMark["kind"] | null = null;
  let reason = "";
  let at = -Infinity;
  const marks = f.marks ?? [];
  for (let i = 0; i < marks.length; i++) {
    const m = marks[i]!;
    if (m.at >= at) ({ kind, reason, at } = m);
  }
  for (let i = 0; i < f.attempts.length; i++) {
    const a = f.attempts[i]!;
    if (a.status !== "known_bad" && a.status !== "skipped") continue;
    const t = a.endedAt ?? a.startedAt ?? -Infinity;
    if (t >= at) {
      kind = a.status;
      reason = a.error ?? `set on run ${a.runId}`;
      at = t;
    }
  }
  if (kind === null || kind === "marked_success") return null;
  if (latest !== null && latest.publishedAt > at) return null;
  return { kind, reason };
}
