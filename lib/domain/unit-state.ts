/**
 * The primary state of one expected unit (dataset × partition key), computed from durable
 * records — the publish ledger, the attempts, the source count and operator marks — never
 * from run status alone (seed 000: "which ones failed" must be a query, not log archaeology).
 *
 * Precedence, worst first (UNIT_STATE_PRECEDENCE). When several conditions hold for one unit
 * the first one in this list is its primary state; the others stay in `reasons`. The matrix
 * uses the same order to show "the worst state inside" an aggregated cell.
 *
 *   1. known_bad      an operator declared the unit wrong at the source: consumers must see a
 *                     gap, not a number, whatever else is true of it.
 *   2. skipped        a deliberate, recorded omission: the most damaging response (seed 000),
 *                     so it must never be outranked into invisibility.
 *   3. failed         the latest attempt failed and nothing is published: the root cause.
 *   4. blocked        upstream failed, the unit never ran: a consequence of (3) elsewhere.
 *   5. missing        expected, nothing published, no failure recorded: a silent hole.
 *   6. empty          in the ledger with 0 rows: presence is not completeness.
 *   7. duplicate      more than one copy (append republished, or a partial write + retry).
 *   8. divergent      row count outside the tolerance band of the source count.
 *   9. suspect        published, but built from an upstream unit that is duplicate, divergent,
 *                     a partial write, empty, known-bad, stale or itself suspect (through the
 *                     partition mappings, transitively): seed 001's "B is green, its table is
 *                     wrong". The reason names that upstream unit.
 *  10. stale          an upstream unit it reads was (re)published after it was built.
 *  11. input_mismatch built from another input version than its neighbours: visible, not wrong.
 *  12. rows_unknown   published — its producer said the run completed the unit — but without a
 *                     row count: present (never missing), and not reconciled, not known non-empty.
 *  13. repaired       healthy, latest publish came from a repair run.
 *  14. published      healthy.
 *
 * Operator marks (known_bad, skipped) apply until a later publish supersedes them.
 * `invalid` is a separate verdict for keys the partition definition rejects (seed 002): such a
 * key is not an expected unit, so it has no place in this precedence.
 *
 * Example: an append task fails after writing 120 of 200 rows, and its retry writes all 200
 * (seed 003). The ledger holds one publish of 200 rows, but the attempts wrote 320: the unit is
 * `duplicate` ("one and a half copies", seed 001), not `published`.
 *
 * Unknown is a value: a task whose write mode nobody declared that publishes a unit twice has
 * *republished* it — shown, with the evidence, but not a duplicate: duplicate needs evidence (an
 * append task, or more rows than the source count). A routine re-run is not an incident.
 */
import { article } from "./words";
import { mismatchedInputs } from "./input-versions";
import { emptySummary, summariseUnit, type Instant, type UnitFacts, type UnitSummary } from "./unit-facts";
export { rowCountDeviation } from "./unit-facts";
export type {
  Attempt,
  AttemptStatus,
  Instant,
  LedgerEntry,
  OperatorMark,
  RunKind,
  UnitFacts,
  UnitKey,
  UpstreamProblem,
  UpstreamPublish,
  WriteMode,
} from "./unit-facts";

export const UNIT_STATE_PRECEDENCE = [
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
] as const;
export type UnitState = (typeof UNIT_STATE_PRECEDENCE)[number];
/** What the matrix can show for a key: a state, or `invalid` for a key the definition rejects. */
export type UnitVerdict = UnitState | "invalid";

export interface UnitStateFacts {
  publishCount: number;
  ageMs: number | null;
  lastRunId: string | null;
  inputVersion: string | null;
  codeVersion: string | null;
  attempts: number;
  /** Rows left behind by failed attempts (a partial, non-atomic write). */
  /** Rows failed attempts left in the unit; null when none was counted and one reported no count (unknown, not 0). */
  partialRows: number | null;
  sourceCount: number | null;
  /** (rowCount − sourceCount) / sourceCount; null without a usable source count. */
  deviation: number | null;
  running: boolean;
}

export interface UnitStateResult {
  state: UnitState;
  reasons: readonly string[];
  facts: UnitStateFacts;
}

const RANK: Readonly<Record<UnitState, number>> = Object.fromEntries(UNIT_STATE_PRECEDENCE.map((s, i) => [s, i])) as Record<UnitState, number>;

/** 0 is worst. A total order: every state has a distinct rank. */
export function stateRank(state: UnitState): number {
  return RANK[state];
}

/** The worse of two states; commutative and associative, so any fold order gives one answer. */
export function worseState(a: UnitState, b: UnitState): UnitState {
  return RANK[a] <= RANK[b] ? a : b;
}

/** The worst state inside an aggregated cell (e.g. a month of days); null for an empty cell. */
export function worstState(states: Iterable<UnitState>): UnitState | null {
  let worst: UnitState | null = null;
  for (const s of states) worst = worst === null ? s : worseState(worst, s);
  return worst;
}

const NO_REASONS: readonly string[] = Object.freeze([]);

/**
 * Seed 000: the unit's state from its records. See the module comment for the precedence.
 * Example: one publish of 2,320 rows against a source count of 2,400 at tolerance 0.05 is
 * `published` with deviation −0.0333; 2,200 rows would be `divergent`.
 */
export function unitState(facts: UnitFacts, now: Instant): UnitStateResult {
  const s = summariseUnit(facts, SUMMARY);
  const v = VERDICT;
  v.state = "published";
  SCRATCH.length = 0;
  DECIDED.at = -1;
  if (s.publishCount === 0) unpublishedState(s, v);
  else publishedState(s, facts, v);
  // The reason that decided the state comes first (the matrix's headline, validation's failure).
  if (DECIDED.at > 0) SCRATCH.unshift(...SCRATCH.splice(DECIDED.at, 1));
  if (s.activeMark) {
    v.state = s.activeMark.kind;
    SCRATCH.unshift(markReason(s.activeMark));
  }
  // The scratch array keeps the healthy path (most cells) free of a per-cell reasons array.
  const reasons = SCRATCH.length === 0 ? NO_REASONS : SCRATCH.slice();
  return { state: v.state, reasons, facts: toFacts(s, facts, now) };
}

/** The state so far and where its reasons go; a condition can only make the state worse. */
interface Verdict {
  state: UnitState;
  reasons: string[];
}
// Per-call scratch: unitState is synchronous and copies out what it returns, so the hot path
// of the matrix allocates only the result and its facts.
const SCRATCH: string[] = [];
const VERDICT: Verdict = { state: "published", reasons: SCRATCH };
const SUMMARY = emptySummary();

/** Where in the reasons the one that set the state so far is (-1: none yet). */
const DECIDED = { at: -1 };

function flag(v: Verdict, candidate: UnitState | null, reason: string): void {
  v.reasons.push(reason);
  if (candidate === null) return;
  const next = worseState(v.state, candidate);
  if (next === candidate && (next !== v.state || DECIDED.at === -1)) DECIDED.at = v.reasons.length - 1;
  v.state = next;
}

function markReason(mark: { kind: "known_bad" | "skipped"; reason: string }): string {
  return mark.kind === "known_bad"
    ? `marked known-bad by an operator: ${mark.reason} — consumers must see a gap, not a number`
    : `skipped on purpose: ${mark.reason} — the omission stays visible`;
}

function unpublishedState(s: UnitSummary, v: Verdict): void {
  const a = s.latestAttempt;
  if (a?.status === "failed") {
    const partial =
      s.partialRows > 0
        ? `; it left ${s.partialRows} partial rows behind${s.partialRowsUnknown ? " (and a try that reported no row count)" : ""}`
        : s.partialRowsUnknown
          ? "; whether it left rows behind is unknown: its producer reported no row count"
          : "";
    v.state = "failed";
    flag(v, null, `latest attempt (run ${a.runId}, try ${a.tryNumber}) failed${a.error ? `: ${a.error}` : ""}${partial}`);
    return;
  }
  if (a?.status === "upstream_failed") {
    v.state = "blocked";
    flag(v, null, `never ran in run ${a.runId}: an upstream unit failed`);
    return;
  }
  v.state = "missing";
  if (a?.status === "marked_success") {
    flag(v, null, "marked success by an operator, but the ledger has no publish: a claim about the scheduler, not the data");
  } else if (s.running) {
    flag(v, null, `not yet published: attempt ${a?.status ?? "running"} in run ${a?.runId ?? "?"}`);
  } else {
    flag(v, null, "expected, but no publish in the ledger");
  }
}

function publishedState(s: UnitSummary, f: UnitFacts, v: Verdict): void {
  const latest = s.latest!;
  v.state = latest.runKind === "repair" ? "repaired" : "published";
  if (latest.rowCount === null) {
    flag(
      v,
      "rows_unknown",
      `published without a row count (its producer reported the run complete, not how many rows): present, but not reconciled${s.sourceCount !== null ? ` with the source's ${s.sourceCount}` : ""}`,
    );
  }
  if (latest.rowCount === 0) {
    const note = s.sourceCount === 0 ? " (the source also reports 0 rows: maybe legitimately empty)" : "";
    flag(v, "empty", `in the ledger with 0 rows: presence is not completeness${note}`);
  }
  checkCopies(s, f, v);
  checkReconciliation(s, f, v);
  const bad = f.upstreamBad;
  if (bad && bad.length > 0) {
    const u = bad[0]!;
    const more = bad.length > 1 ? ` (and ${bad.length - 1} more upstream unit${bad.length > 2 ? "s" : ""})` : "";
    flag(v, "suspect", `built from upstream ${u.dataset} ${u.unitKey}, which is ${u.problem}${more}: published, but its figures carry that problem`);
  }
  if (s.newerUpstream) {
    const u = s.newerUpstream;
    flag(v, "stale", `upstream ${u.dataset} ${u.unitKey} was republished after this unit was built`);
  }
  const neighbour = f.neighbourInputVersion;
  const differing = neighbour == null ? null : mismatchedInputs(latest.inputVersion, neighbour, f.inputScope);
  if (differing !== null) {
    flag(v, "input_mismatch", `built from input version ${latest.inputVersion}, neighbours from ${neighbour} — not always wrong, but visible`);
  } else if (neighbour != null && latest.inputVersion === null) {
    flag(v, null, `its producer recorded no input version: not compared with the neighbours' ${neighbour}`);
  }
  if (latest.runKind === "repair") flag(v, null, `latest publish came from repair run ${latest.runId}`);
  if (s.latestAttempt && s.latestAttempt.status === "failed") {
    flag(v, null, `latest attempt (run ${s.latestAttempt.runId}) failed; the published data is from run ${latest.runId}`);
  }
}

function checkCopies(s: UnitSummary, f: UnitFacts, v: Verdict): void {
  if (f.writeMode === null) {
    // No evidence of a second copy: a republish, shown with what is known. Rows above the source
    // count are evidence, and checkReconciliation calls that a duplicate.
    if (s.publishCount > 1)
      flag(
        v,
        null,
        `republished ${s.publishCount} times by a task whose write mode nobody declared: a republish, not a duplicate — declare the write mode (append makes it one copy per publish)`,
      );
    return;
  }
  if (f.writeMode !== "append") {
    if (s.publishCount > 1) flag(v, null, `republished ${s.publishCount} times by ${article(f.writeMode)} ${f.writeMode} write: still one copy`);
    return;
  }
  if (s.copies === 0) {
    flag(
      v,
      "empty",
      `an operator removed the unit's rows after its last publish: the ledger's ${s.latest!.rowCount ?? "unknown number of"} rows are no longer there`,
    );
    return;
  }
  if (s.copies > 1) {
    flag(v, "duplicate", `published ${s.copies} times by an append task: each publish added its rows again`);
    return;
  }
  const reference = s.sourceCount ?? s.latest!.rowCount;
  if (reference !== null && s.partialRows > 0 && s.rowsWrittenTotal > reference * (1 + f.tolerance)) {
    flag(
      v,
      "duplicate",
      `append attempts wrote ${s.rowsWrittenTotal} rows for ${reference} expected: a failed attempt's ${s.partialRows} partial rows were kept and the retry appended a full copy`,
    );
  }
}

function checkReconciliation(s: UnitSummary, f: UnitFacts, v: Verdict): void {
  const source = s.sourceCount;
  const rows = s.latest!.rowCount;
  if (source === null || rows === null || (rows === 0 && source > 0)) return;
  const outside = s.deviation === null ? rows !== source : Math.abs(s.deviation) > f.tolerance;
  if (!outside) return;
  const pct = s.deviation === null ? "" : ` (${formatDeviation(s.deviation)})`;
  // More rows than the source holds is a second copy's evidence, unless the task is known to replace or merge.
  if (rows > source && (f.writeMode === "append" || f.writeMode === null)) {
    flag(v, "duplicate", `${rows} rows for a source count of ${source}${pct}: a retry that appended`);
  } else {
    flag(v, "divergent", `${rows} rows for a source count of ${source}${pct}, outside the ±${formatPct(f.tolerance)} band`);
  }
}

/** −0.03333 → "−3.33%". */
export function formatDeviation(deviation: number): string {
  const sign = deviation > 0 ? "+" : deviation < 0 ? "−" : "";
  return `${sign}${formatPct(Math.abs(deviation))}`;
}

function formatPct(fraction: number): string {
  return `${(Math.round(fraction * 10000) / 100).toString()}%`;
}

function toFacts(s: UnitSummary, f: UnitFacts, now: Instant): UnitStateFacts {
  const latest = s.latest;
  return {
    publishCount: s.publishCount,
    ageMs: latest ? now - latest.publishedAt : null,
    lastRunId: latest ? latest.runId : (s.latestAttempt?.runId ?? null),
    inputVersion: latest ? latest.inputVersion : null,
    codeVersion: latest ? latest.codeVersion : null,
    attempts: f.attempts.length,
    partialRows: s.partialRows === 0 && s.partialRowsUnknown ? null : s.partialRows,
    sourceCount: s.sourceCount,
    deviation: s.deviation,
    running: s.running,
  };
}

/** Batch form for the matrix: one result per cell, in order. */
export function computeUnitStates(cells: readonly UnitFacts[], now: Instant): UnitStateResult[] {
  const out = new Array<UnitStateResult>(cells.length);
  for (let i = 0; i < cells.length; i++) out[i] = unitState(cells[i]!, now);
  return out;
}
