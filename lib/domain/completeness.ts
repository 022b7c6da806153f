/**
 * The analyst's question — "is dataset D complete for period P, can I quote it?" — answered as
 * a certificate over the set, not the rows (seed 000): every expected unit present, published
 * once, non-empty, reconciled, not stale, not known-bad, not skipped, and the same for every
 * upstream unit D was built from. A per-unit publish model promises each unit is consistent in
 * itself and nothing about the set; this is the check that makes the set's promise.
 *
 * Known-bad and skipped units are named as gaps, never silently counted. A unit built from a
 * different input version than its neighbours passes, but the evidence says so.
 *
 * Example: revenue_daily for August with 2026-08-17 never built (stg_orders failed) and
 * 2026-08-10 built on a duplicated stg_orders unit → incomplete, naming revenue_daily
 * 2026-08-17 (missing) and stg_orders 2026-08-10 (duplicate).
 */
import { summariseUnit } from "./unit-facts";
import { counted } from "./words";
import { unitState, type Instant, type UnitFacts, type UnitKey, type UnitState, type UpstreamProblem } from "./unit-state";

export interface DatasetUnits {
  dataset: string;
  unitKeys: readonly UnitKey[];
  /** Facts per unit key; a key without facts has no records at all, so it is missing. */
  facts: ReadonlyMap<UnitKey, UnitFacts>;
}

export interface CompletenessQuery {
  /** The dataset asked about and its expected units in the period (enumerated by partitions.ts). */
  target: DatasetUnits;
  period: { from: string; to: string };
  /** The upstream closure: every upstream dataset's units the target was built from. */
  upstream: readonly DatasetUnits[];
}

export interface CompletenessGap {
  dataset: string;
  unitKey: UnitKey;
  role: "target" | "upstream";
  state: UnitState;
  reason: string;
  /** Rows the unit holds now (rowsHeld) and its source count: what an estimate of the effect needs. */
  rows: number | null;
  sourceCount: number | null;
  /** For a unit built on bad upstream data (suspect): the first such upstream unit, as unitState names it. */
  builtFrom: UpstreamProblem | null;
}

export interface DatasetEvidence {
  dataset: string;
  role: "target" | "upstream";
  /** Units of the period read. */
  units: number;
  /** Of them, the ones that count towards a complete set (published, repaired, rows unknown, input mismatch): the rest are the reasons. */
  healthyUnits: number;
  rows: number;
  /** Units whose row count was checked against a source count (the rest had none). */
  reconciledUnits: number;
  inputVersions: string[];
  oldestPublishAt: Instant | null;
  newestPublishAt: Instant | null;
  notes: string[];
}

interface CertificateBase {
  dataset: string;
  period: { from: string; to: string };
  checkedAt: Instant;
  evidence: DatasetEvidence[];
}
export type CompletenessCertificate = (CertificateBase & { verdict: "complete" }) | (CertificateBase & { verdict: "incomplete"; reasons: CompletenessGap[] });

/**
 * A unit counts towards a complete set only in these states. Published without a row count is
 * present and published once — its rows are neither counted nor reconciled, and the evidence says so.
 */
const COUNTS_AS_COMPLETE: ReadonlySet<UnitState> = new Set<UnitState>(["published", "repaired", "input_mismatch", "rows_unknown"]);
const NO_RECORDS = (tolerance: number): UnitFacts => ({ ledger: [], attempts: [], tolerance, writeMode: "replace" });

export function completenessCertificate(query: CompletenessQuery, now: Instant): CompletenessCertificate {
  const gaps: CompletenessGap[] = [];
  const evidence = [checkDataset(query.target, "target", now, gaps), ...query.upstream.map((u) => checkDataset(u, "upstream", now, gaps))];
  const base = { dataset: query.target.dataset, period: query.period, checkedAt: now, evidence };
  return gaps.length === 0 ? { ...base, verdict: "complete" } : { ...base, verdict: "incomplete", reasons: gaps };
}

function checkDataset(d: DatasetUnits, role: "target" | "upstream", now: Instant, gaps: CompletenessGap[]): DatasetEvidence {
  const ev: DatasetEvidence = {
    dataset: d.dataset,
    role,
    units: 0,
    healthyUnits: 0,
    rows: 0,
    reconciledUnits: 0,
    inputVersions: [],
    oldestPublishAt: null,
    newestPublishAt: null,
    notes: [],
  };
  const versions = new Set<string>();
  let unreconciled = 0;
  let uncounted = 0;
  for (const unitKey of new Set(d.unitKeys)) {
    const facts = d.facts.get(unitKey) ?? NO_RECORDS(0);
    const { state, reasons, facts: f } = unitState(facts, now);
    ev.units += 1;
    if (!COUNTS_AS_COMPLETE.has(state)) {
      gaps.push({
        dataset: d.dataset,
        unitKey,
        role,
        state,
        reason: reasons[0] ?? state,
        rows: rowsHeld(facts),
        sourceCount: f.sourceCount,
        builtFrom: facts.upstreamBad?.[0] ?? null,
      });
      continue;
    }
    ev.healthyUnits += 1;
    const latest = facts.ledger.reduce((a, b) => (b.publishedAt >= a.publishedAt ? b : a));
    if (latest.rowCount === null) uncounted += 1;
    else {
      ev.rows += latest.rowCount;
      if (f.sourceCount !== null) ev.reconciledUnits += 1;
      else unreconciled += 1;
    }
    if (f.inputVersion !== null) versions.add(f.inputVersion);
    ev.oldestPublishAt = Math.min(ev.oldestPublishAt ?? Infinity, latest.publishedAt);
    ev.newestPublishAt = Math.max(ev.newestPublishAt ?? -Infinity, latest.publishedAt);
    if (state === "input_mismatch") ev.notes.push(`${unitKey}: ${reasons[0]}`);
  }
  ev.inputVersions = [...versions].sort();
  if (unreconciled > 0) {
    ev.notes.push(`${counted(unreconciled, "unit")} without a source count: presence and uniqueness checked, row counts not reconciled`);
  }
  if (uncounted > 0) {
    ev.notes.push(
      `${counted(uncounted, "unit")} published without a row count: present and published once, but their rows are neither counted nor reconciled (nor known to be non-empty)`,
    );
  }
  return ev;
}

/**
 * The rows a unit holds now, as far as its records tell: an append task's unit keeps every
 * attempt's rows since it was last cleaned (a failed attempt's 22 partial rows plus the retry's
 * 44 are 66), a replace or merge unit holds its latest publish, an unpublished one what its
 * failed attempts left behind. Null when nothing says (no publish, no attempt with a row count).
 */
export function rowsHeld(facts: UnitFacts): number | null {
  const s = summariseUnit(facts);
  if (s.latest === null) return facts.attempts.some((a) => a.rowsWritten !== null) ? s.partialRows : null;
  if (facts.writeMode !== "append") return s.latest.rowCount;
  const cleanedAt = facts.cleanedAt ?? -Infinity;
  const published = facts.ledger.reduce((n, l) => (l.publishedAt > cleanedAt ? n + (l.rowCount ?? 0) : n), 0);
  return Math.max(s.rowsWrittenTotal, published);
}

export interface FreshnessOptions {
  /** Neighbours on each side a unit is compared with (in key order). */
  window?: number;
  /** Differences below this never count as outliers (clock noise, run duration). */
  minGapMs?: number;
  /** How many typical steps between neighbours a unit may be off before it is an outlier. */
  factor?: number;
}

export interface FreshnessDistribution {
  units: { unitKey: UnitKey; ageMs: number | null }[];
  medianAgeMs: number | null;
  minAgeMs: number | null;
  maxAgeMs: number | null;
  outliers: { unitKey: UnitKey; ageMs: number; neighbourMedianAgeMs: number; direction: "fresher" | "older" }[];
  unpublished: UnitKey[];
}

/**
 * Age per unit, not one number per table (seed 000): after a targeted repair the dataset is
 * unevenly fresh, and a table-level figure averages the signal away. A unit is an outlier when
 * its age differs from the median of its neighbours (in key order) by more than `factor`
 * typical neighbour steps — so daily partitions that naturally age one day apart are not
 * outliers, but a 2-hour-old repaired day among 9-day-old neighbours is.
 * Units must be given in key order.
 */
export function freshnessDistribution(
  units: readonly { unitKey: UnitKey; publishedAt: Instant | null }[],
  now: Instant,
  options: FreshnessOptions = {},
): FreshnessDistribution {
  const { window = 3, minGapMs = 3_600_000, factor = 3 } = options;
  const aged = units.map((u) => ({ unitKey: u.unitKey, ageMs: u.publishedAt === null ? null : now - u.publishedAt }));
  const published = aged.filter((u): u is { unitKey: UnitKey; ageMs: number } => u.ageMs !== null);
  const ages = published.map((u) => u.ageMs);
  const steps = ages.slice(1).map((a, i) => Math.abs(a - ages[i]!));
  const threshold = Math.max(minGapMs, factor * (median(steps) ?? 0));
  const outliers: FreshnessDistribution["outliers"] = [];
  published.forEach((u, i) => {
    const neighbours = [...ages.slice(Math.max(0, i - window), i), ...ages.slice(i + 1, i + 1 + window)];
    const m = median(neighbours);
    if (m === null || Math.abs(u.ageMs - m) <= threshold) return;
    outliers.push({ unitKey: u.unitKey, ageMs: u.ageMs, neighbourMedianAgeMs: m, direction: u.ageMs < m ? "fresher" : "older" });
  });
  return {
    units: aged,
    medianAgeMs: median(ages),
    minAgeMs: ages.length ? ages.reduce((a, b) => Math.min(a, b)) : null,
    maxAgeMs: ages.length ? ages.reduce((a, b) => Math.max(a, b)) : null,
    outliers,
    unpublished: aged.filter((u) => u.ageMs === null).map((u) => u.unitKey),
  };
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
