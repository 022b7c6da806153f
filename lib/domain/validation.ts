/**
 * Seed 000's ledger queries and the checks the guided repair's Validate step runs. A green run
 * is evidence that code ran; these are the evidence that the data is right: present, published
 * once, reconciled with the source, not stale, and built from a visible input version.
 *
 * Example: after repairing 2026-08-17 of fct_orders (replace), the unit is in the ledger twice
 * (original + repair) — one copy, so it passes "published once" — and 2,390 rows against a
 * source count of 2,400 reconcile within ±5 %: the unit passes.
 */
import { compositeKey } from "./composite-key";
import { inputVersionDiffers } from "./input-versions";
import { summariseUnit } from "./unit-facts";
import {
  formatDeviation,
  rowCountDeviation,
  unitState,
  type Instant,
  type LedgerEntry,
  type UnitFacts,
  type UnitKey,
  type UnitState,
  type UpstreamPublish,
} from "./unit-state";

export interface LedgerRow extends LedgerEntry {
  unitKey: UnitKey;
}

/** Query 1: expected units with no publish. This is the completeness definition. */
export function missingUnits(expected: Iterable<UnitKey>, ledger: readonly LedgerRow[]): UnitKey[] {
  const published = new Set(ledger.map((r) => r.unitKey));
  const out: UnitKey[] = [];
  for (const key of expected) if (!published.has(key)) out.push(key);
  return out;
}

export interface RepublishedUnit {
  unitKey: UnitKey;
  publishes: number;
  firstRunId: string;
  lastRunId: string;
  runIds: string[];
}

/** Query 2: a non-idempotent repair shows up here before it shows up in anyone's revenue number. */
export function publishedMoreThanOnce(ledger: readonly LedgerRow[]): RepublishedUnit[] {
  const out: RepublishedUnit[] = [];
  for (const [unitKey, rows] of groupByUnit(ledger)) {
    if (rows.length < 2) continue;
    const runIds = [...rows].sort((a, b) => a.publishedAt - b.publishedAt).map((r) => r.runId);
    out.push({ unitKey, publishes: rows.length, firstRunId: runIds[0]!, lastRunId: runIds[runIds.length - 1]!, runIds });
  }
  return out;
}

/**
 * The input version most units (by their latest publish) were built from; at a tie the greatest.
 * Seed 000's SQL compares with MAX(input_version): after a repair against a newer snapshot that
 * would flag the ninety-eight neighbours instead of the one repaired unit, so the mode is used.
 */
export function prevailingInputVersion(ledger: readonly LedgerRow[]): string | null {
  return mostCommon([...latestByUnit(ledger).values()].map((row) => row.inputVersion));
}

/** The most frequent version (nulls aside), at a tie the greatest. */
export function mostCommon(versions: readonly (string | null)[]): string | null {
  const counts = new Map<string, number>();
  for (const v of versions) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  let bestCount = 0;
  for (const [version, n] of counts) {
    if (n > bestCount || (n === bestCount && best !== null && version > best)) [best, bestCount] = [version, n];
  }
  return best;
}

export interface EmptyOrMismatchedUnit {
  unitKey: UnitKey;
  rowCount: number | null;
  inputVersion: string | null;
  prevailingInputVersion: string | null;
  empty: boolean;
  inputMismatch: boolean;
  repaired: boolean;
  note: string;
}

/**
 * Query 3: present but empty, or built from another input version than the neighbours. A
 * repaired unit legitimately carries a different version: the result makes it visible and says
 * so, it does not call it wrong.
 */
export function emptyOrInputMismatch(ledger: readonly LedgerRow[]): EmptyOrMismatchedUnit[] {
  const prevailing = prevailingInputVersion(ledger);
  const out: EmptyOrMismatchedUnit[] = [];
  for (const [unitKey, row] of latestByUnit(ledger)) {
    const empty = row.rowCount === 0;
    const inputMismatch = prevailing !== null && inputVersionDiffers(row.inputVersion, prevailing);
    if (!empty && !inputMismatch) continue;
    const repaired = row.runKind === "repair";
    const note = empty
      ? "present in the ledger with 0 rows: presence is not completeness"
      : repaired
        ? "repaired against a different input version than its neighbours: visible, decide whether it matters here"
        : "built from a different input version than its neighbours";
    out.push({ unitKey, rowCount: row.rowCount, inputVersion: row.inputVersion, prevailingInputVersion: prevailing, empty, inputMismatch, repaired, note });
  }
  return out;
}

export interface Reconciliation {
  verdict: "within_band" | "divergent" | "no_source";
  /** (rowCount − sourceCount) / sourceCount; null without a source count or with 0 of a source 0. */
  deviation: number | null;
  reason: string;
}

/**
 * Seed 003's row-count check: |rows − source| / source > tolerance fires; equal to it passes.
 * Example: 2,320 of 2,400 at 0.05 → within_band, −3.33 %; 2,200 → divergent, −8.33 %.
 */
export function reconcile(rowCount: number | null, sourceCount: number | null | undefined, tolerance: number): Reconciliation {
  if (rowCount === null) return { verdict: "no_source", deviation: null, reason: "published without a row count: nothing to reconcile" };
  if (sourceCount == null) return { verdict: "no_source", deviation: null, reason: "no source count: row count not reconciled" };
  const deviation = rowCountDeviation(rowCount, sourceCount);
  const outside = deviation === null || Math.abs(deviation) > tolerance;
  const pct = deviation === null ? "source reports 0 rows" : formatDeviation(deviation);
  return {
    verdict: outside ? "divergent" : "within_band",
    deviation,
    reason: `${rowCount} rows for a source count of ${sourceCount} (${pct}) ${outside ? "outside" : "within"} ±${tolerance * 100}%`,
  };
}

export interface GroupPeriod {
  group: string;
  period: string;
}

/**
 * Seed 003's period-aware completeness: every (group, period) pair exists in the data. It sees
 * a period that is absent, not one that is half there: a partition written up to row 120 of
 * 200 still carries every region, so it passes.
 */
export function periodAwareCompleteness(
  observed: Iterable<GroupPeriod>,
  groups: readonly string[],
  periods: readonly string[],
): { complete: boolean; missing: GroupPeriod[] } {
  const seen = new Set<string>();
  for (const o of observed) seen.add(compositeKey(o.group, o.period));
  const missing: GroupPeriod[] = [];
  for (const period of periods) for (const group of groups) if (!seen.has(compositeKey(group, period))) missing.push({ group, period });
  return { complete: missing.length === 0, missing };
}

/** Upstream units republished after this unit was built, newest first. */
export function staleness(builtAt: Instant, upstream: readonly UpstreamPublish[]): { stale: boolean; newerUpstream: UpstreamPublish[] } {
  const newerUpstream = upstream.filter((u) => u.publishedAt > builtAt).sort((a, b) => b.publishedAt - a.publishedAt);
  return { stale: newerUpstream.length > 0, newerUpstream };
}

function groupByUnit(ledger: readonly LedgerRow[]): Map<UnitKey, LedgerRow[]> {
  const out = new Map<UnitKey, LedgerRow[]>();
  for (const row of ledger) {
    const rows = out.get(row.unitKey);
    if (rows) rows.push(row);
    else out.set(row.unitKey, [row]);
  }
  return out;
}

export function latestByUnit(ledger: readonly LedgerRow[]): Map<UnitKey, LedgerRow> {
  const out = new Map<UnitKey, LedgerRow>();
  for (const row of ledger) {
    const seen = out.get(row.unitKey);
    if (seen === undefined || row.publishedAt >= seen.publishedAt) out.set(row.unitKey, row);
  }
  return out;
}

export interface UnitValidation {
  unitKey: UnitKey;
  passed: boolean;
  state: UnitState;
  /** `reconciles` is null when there was nothing to compare (no source count): neither passed nor failed. */
  checks: { inLedger: boolean; publishedOnce: boolean; nonEmpty: boolean | null; reconciles: boolean | null; notStale: boolean };
  /** Reported, never a failure: a repair may legitimately differ from its neighbours. */
  inputVersion: string | null;
  failures: string[];
  notes: string[];
}

export interface SetValidation {
  passed: boolean;
  units: UnitValidation[];
  failedUnits: UnitKey[];
}

/**
 * The Validate step: a verdict per unit and for the set, which passes only if every unit does.
 * It is the unit-state model itself: a unit passes only in a state the matrix would paint as
 * sound — published, repaired, published with rows unknown (shown unreconciled), or built from
 * another input version *by the repair* (explained). Suspect, stale, divergent, duplicate, empty,
 * missing, failed, blocked or an unexplained input mismatch fail, each with the reason the matrix
 * gives (naming the upstream unit that makes it so) and the action that would clear it. The
 * checks (in the ledger, one copy, non-empty, reconciled, fresh) are shown beside it.
 *
 * Example: running_balance 2026-08-20 republished by the repair but built on the duplicated
 * 2026-08-10 chain is `suspect`: it fails, naming the upstream unit, until that unit is added to
 * the repair or marked known-bad — however green its own checks are.
 */
export function validateUnits(units: readonly { unitKey: UnitKey; facts: UnitFacts }[], now: Instant): SetValidation {
  const results = units.map((u) => validateUnit(u.unitKey, u.facts, now));
  const failedUnits = results.filter((r) => !r.passed).map((r) => r.unitKey);
  return { passed: results.length > 0 && failedUnits.length === 0, units: results, failedUnits };
}

/** The states a validated unit may be in (input_mismatch only when its latest publish came from a repair). */
const SOUND: ReadonlySet<UnitState> = new Set<UnitState>(["published", "repaired", "rows_unknown"]);

/** What clears a unit that fails in each state, in words (the reason names the unit or upstream concerned). */
const CLEARED_BY: Partial<Record<UnitState, string>> = {
  suspect: "add that upstream unit to the repair (Scope: add it), or mark it known-bad with a reason",
  stale: "recompute it after its upstream (repair with its closure)",
  divergent: "check the source count and recompute the unit, or mark it known-bad with a reason",
  duplicate: "clean the unit (remove its rows) and re-run it once",
  empty: "recompute it, or mark it known-bad if the source is empty",
  missing: "run it (it is not in the ledger)",
  failed: "repair it: its latest attempt failed",
  blocked: "repair what it reads: an upstream unit failed",
  input_mismatch: "recompute it from the prevailing input version, or accept the difference with a reason (override)",
  known_bad: "recorded as known-bad",
  skipped: "recorded as skipped",
};

function validateUnit(unitKey: UnitKey, facts: UnitFacts, now: Instant): UnitValidation {
  const { state, reasons } = unitState(facts, now);
  const s = summariseUnit(facts);
  const latest = s.latest;
  const reference = s.sourceCount ?? latest?.rowCount ?? 0;
  const keptPartial = facts.writeMode === "append" && s.partialRows > 0 && s.rowsWrittenTotal > reference * (1 + facts.tolerance);
  const rows = latest?.rowCount ?? null;
  const rec = latest ? reconcile(latest.rowCount, s.sourceCount, facts.tolerance) : null;
  const checks = {
    inLedger: latest !== null,
    publishedOnce: latest !== null && (s.copies === 1 || facts.writeMode !== "append") && !keptPartial,
    // Without a row count nobody knows: shown as unchecked, not failed.
    nonEmpty: latest === null ? false : rows === null ? null : rows > 0,
    reconciles: rec === null ? false : rec.verdict === "no_source" ? null : rec.verdict !== "divergent",
    notStale: latest !== null && s.newerUpstream === null,
  };
  const labels: Record<keyof typeof checks, string> = {
    inLedger: "not in the ledger",
    publishedOnce: "more than one copy published",
    nonEmpty: "0 rows",
    reconciles: rec?.reason ?? "nothing to reconcile",
    notStale: "an upstream unit was republished after it was built",
  };
  const explainedMismatch = state === "input_mismatch" && latest?.runKind === "repair";
  const sound = SOUND.has(state) || explainedMismatch;
  // The state's own reason first (it names the upstream unit when one makes it so), with what clears it.
  const stateFailure = sound ? [] : [`${state.replace(/_/g, "-")}: ${reasons[0] ?? state} — to clear it: ${CLEARED_BY[state] ?? "repair it"}`];
  const checkFailures = (Object.keys(checks) as (keyof typeof checks)[]).filter((k) => checks[k] === false).map((k) => labels[k]);
  // Without a publish the other checks have nothing to look at: one failure, not five.
  const failures = latest === null ? [labels.inLedger] : [...stateFailure, ...checkFailures];
  const notes = [...(sound ? reasons : reasons.slice(1))];
  if (rec?.verdict === "no_source") notes.push(rec.reason);
  return { unitKey, passed: failures.length === 0, state, checks, inputVersion: latest?.inputVersion ?? null, failures, notes };
}
