/**
 * The analyst's answer in one sentence per problem: which dataset, which unit (day), what it
 * does to the number where the row counts say so, and who is on it — instead of run ids,
 * state names and tolerance bands (those stay in the engineer's details).
 *
 * The effect is estimated from rows against the source count, on the assumption an analyst
 * makes too: a figure built from 1.5 copies of its rows is about 50 % too high. "Probably"
 * and "about" say it is an estimate; where no source count exists, no number is given.
 *
 * Example (the demo's revenue_daily 2026-08-10, built from stg_orders holding a failed
 * attempt's 22 partial rows plus the retry's full 44):
 *   "revenue_daily for 2026-08-10 is probably overstated by about 50 %: it was built from
 *    stg_orders 2026-08-10, which holds 66 rows where the source has 44 (22 rows extra)."
 */
import { stateOfProblem } from "./suspect";
import { stateRank, type UnitState } from "./unit-state";
import { counted } from "./words";

export interface IncidentOnIt {
  id: string;
  title: string;
  status: string;
}

/** One reason a unit key keeps the set from being complete, as the certificate names it. */
export interface ProblemReason {
  datasetName: string;
  role: "target" | "upstream";
  unitKey: string;
  state: UnitState;
  reason: string;
  /** Rows the unit holds now (kept partial rows and appended copies included); null when unknown. */
  rows: number | null;
  /** What the source reported for the unit; null without a source count. */
  sourceCount: number | null;
  /** The task that writes the dataset: where an incident for this unit is opened. */
  writerNodeId: string | null;
  /** Open incidents whose failed pairs name this unit. */
  incidents: readonly IncidentOnIt[];
  /** For a unit built on bad upstream data: the first such upstream unit, its problem as suspect.ts words it. */
  builtFrom: { datasetName: string; unitKey: string; problem: string } | null;
}

export type Effect = { kind: "overstated" | "understated"; percent: number } | { kind: "absent" } | { kind: "unknown" };

export interface PlainVerdict {
  /** "revenue_daily for 2026-08-10 is probably overstated by about 50 %: it was built from …" */
  sentence: string;
  effect: Effect;
  /** Open incidents on the unit, each with what it is doing in words ("is repairing it"). */
  onIt: (IncidentOnIt & { doing: string })[];
  /** Where to open an incident when no one is on it: the root cause's writing task and unit. */
  openIncident: { node: string; unitKey: string } | null;
}

const UNBUILT: ReadonlySet<UnitState> = new Set<UnitState>(["missing", "failed", "blocked"]);
/** States a unit takes from what it reads rather than from its own write. */
const INHERITED: ReadonlySet<UnitState> = new Set<UnitState>(["suspect", "blocked", "stale", "missing"]);

/** What an upstream unit in this state is, in words an analyst uses. */
const IS: Partial<Record<UnitState | "partial_write", string>> = {
  partial_write: "holds only what a failed write left",
  failed: "failed",
  blocked: "was never built",
  missing: "is missing",
  empty: "is empty",
  duplicate: "holds some of its rows more than once",
  divergent: "does not match its source count",
  suspect: "was itself built on bad data",
  stale: "was republished after it was read",
  known_bad: "is marked known-bad",
  skipped: "was skipped on purpose",
};

/** Why the target's own unit was never built, when no upstream unit at its key says more. */
const NEVER_BUILT: Partial<Record<UnitState, string>> = {
  failed: "its own task failed",
  blocked: "an upstream unit it reads failed",
  missing: "nothing has published it yet",
};

const DOING: Record<string, string> = {
  open: "is open on it",
  scoped: "is scoping its repair",
  planned: "has a repair planned",
  repairing: "is repairing it",
  validating: "is validating its repair",
};

/** What an open incident is doing about a unit, from its status: "is repairing it". */
export function incidentDoing(status: string): string {
  return DOING[status] ?? `is ${status}`;
}

/** The unit's rows against its source count as a signed fraction; null when either is unknown or the source is 0. */
function deviation(r: ProblemReason): number | null {
  if (r.rows === null || r.sourceCount === null || r.sourceCount === 0 || r.rows === r.sourceCount) return null;
  return (r.rows - r.sourceCount) / r.sourceCount;
}

function effectOf(d: number): Effect {
  return { kind: d > 0 ? "overstated" : "understated", percent: Math.abs(d) * 100 };
}

function about(e: Effect): string {
  if (e.kind !== "overstated" && e.kind !== "understated") return "";
  const pct = Math.round(e.percent);
  return `probably ${e.kind} by ${pct < 1 ? "less than 1 %" : `about ${pct} %`}`;
}

/** "holds 66 rows where the source has 44 (22 rows extra)"; "holds every row twice" when it is exactly two copies. */
function rowsAgainstSource(r: ProblemReason): string {
  const rows = r.rows!;
  const source = r.sourceCount!;
  if (rows === 2 * source) return `holds every row twice (${rows.toLocaleString("en-US")} where the source has ${source.toLocaleString("en-US")})`;
  const diff = rows - source;
  return `holds ${counted(rows, "row")} where the source has ${source.toLocaleString("en-US")} (${counted(Math.abs(diff), "row")} ${diff > 0 ? "extra" : "short"})`;
}

function unitOf(r: ProblemReason): string {
  return `${r.datasetName} ${r.unitKey}`;
}

/** The upstream reason that explains the rest: the worst state that is not merely inherited. */
function rootCause(upstream: readonly ProblemReason[]): ProblemReason | null {
  const own = upstream.filter((r) => r.state !== "suspect" && r.state !== "blocked");
  const pool = (own.length > 0 ? own : upstream).slice().sort((a, b) => stateRank(a.state) - stateRank(b.state));
  return pool[0] ?? null;
}

/**
 * One unit key's problem in plain words. `target` is the dataset asked about; `reasons` are the
 * certificate's reasons for this key (the target's own, and the upstream units it was built from).
 */
export function plainVerdict(target: string, unitKey: string, reasons: readonly ProblemReason[]): PlainVerdict {
  const own = reasons.find((r) => r.role === "target") ?? null;
  const upstream = reasons.filter((r) => r.role === "upstream");
  const root = rootCause(upstream);
  const subject = `${target}${forKey(unitKey)}`;
  const { sentence, effect } = describe(subject, target, unitKey, own, root, upstream);
  const seen = new Map<string, IncidentOnIt>();
  for (const r of reasons) for (const i of r.incidents) seen.set(i.id, i);
  const onIt = [...seen.values()].map((i) => ({ ...i, doing: incidentDoing(i.status) }));
  // An incident goes where the problem starts: upstream when the target only inherited it.
  const inherited = !own || INHERITED.has(own.state);
  const opener = inherited && root ? root : (own ?? root);
  const openIncident = onIt.length === 0 && opener?.writerNodeId ? { node: opener.writerNodeId, unitKey: opener.unitKey } : null;
  return { sentence, effect, onIt, openIncident };
}

function describe(
  subject: string,
  target: string,
  unitKey: string,
  own: ProblemReason | null,
  root: ProblemReason | null,
  upstream: readonly ProblemReason[],
): { sentence: string; effect: Effect } {
  if (own?.state === "known_bad")
    return { sentence: `${subject} is marked known-bad: leave it out of any total and do not quote it (${own.reason}).`, effect: { kind: "absent" } };
  if (own?.state === "skipped") return { sentence: `${subject} was skipped on purpose: the period has a gap there, not a number.`, effect: { kind: "absent" } };
  if (own && UNBUILT.has(own.state)) {
    const why = root && UNBUILT.has(root.state) ? `${unitOf(root)} ${IS[root.state]}` : (NEVER_BUILT[own.state] ?? "nothing built it");
    return {
      sentence: `${target} has no figure${forKey(unitKey)}: it was never built, because ${why}. A total over the period leaves that ${unitWord(unitKey)} out.`,
      effect: { kind: "absent" },
    };
  }
  if (own?.state === "empty") {
    const src = own.sourceCount ? ` where the source has ${counted(own.sourceCount, "row")}` : "";
    return {
      sentence: `${subject} is empty: 0 rows${src}, so a total over the period misses it.`,
      effect: own.sourceCount ? { kind: "understated", percent: 100 } : { kind: "absent" },
    };
  }
  const ownDev = own ? deviation(own) : null;
  if (own && ownDev !== null && (own.state === "duplicate" || own.state === "divergent")) {
    const e = effectOf(ownDev);
    return { sentence: `${subject} is ${about(e)}: it ${rowsAgainstSource(own)}.`, effect: e };
  }
  if (!own) {
    // Only upstream units at this key: the target reads them, its own unit is listed under its own
    // key. When none of them was built, nothing downstream read their rows: no estimate.
    if (root && upstream.every((r) => UNBUILT.has(r.state))) {
      return { sentence: `${target} has nothing from ${unitKey}: ${unitOf(root)} ${IS[root.state]}.`, effect: { kind: "absent" } };
    }
    const measured = firstMeasured(root, upstream);
    const subj = `${target}, where it reads ${unitKey},`;
    if (measured) {
      const e = effectOf(deviation(measured)!);
      return { sentence: `${subj} is ${about(e)}: it reads ${unitOf(measured)}, which ${rowsAgainstSource(measured)}.`, effect: e };
    }
    return { sentence: `${subj} may be wrong: it reads ${unitOf(root!)}, which ${IS[root!.state] ?? root!.state}.`, effect: { kind: "unknown" } };
  }
  // The unit is published and healthy itself (suspect, stale, …): its number carries what it was built from.
  const measured = firstMeasured(root, upstream);
  if (measured) {
    const e = effectOf(deviation(measured)!);
    return { sentence: `${subject} is ${about(e)}: it was built from ${unitOf(measured)}, which ${rowsAgainstSource(measured)}.`, effect: e };
  }
  if (root)
    return { sentence: `${subject} may be wrong: it was built from ${unitOf(root)}, which ${IS[root.state] ?? root.state}.`, effect: { kind: "unknown" } };
  if (own.builtFrom) {
    const problem = stateOfProblem(own.builtFrom.problem);
    const is = problem === null ? `is ${own.builtFrom.problem}` : (IS[problem] ?? `is ${own.builtFrom.problem}`);
    return {
      sentence: `${subject} may be wrong: it was built from ${own.builtFrom.datasetName} ${own.builtFrom.unitKey}, which ${is}.`,
      effect: { kind: "unknown" },
    };
  }
  if (own.state === "stale") return { sentence: `${subject} may be out of date: ${own.reason}.`, effect: { kind: "unknown" } };
  return { sentence: `${subject} cannot be quoted yet: ${own.reason}.`, effect: { kind: "unknown" } };
}

/** The root cause when it has rows against a source count, else the first upstream unit that has. */
function firstMeasured(root: ProblemReason | null, upstream: readonly ProblemReason[]): ProblemReason | null {
  return root && deviation(root) !== null ? root : (upstream.find((r) => deviation(r) !== null) ?? null);
}

/** " for 2026-08-10"; nothing for an unpartitioned dataset's one unit ("*"). */
function forKey(key: string): string {
  return key === "*" ? "" : ` for ${key}`;
}

/** "day" for a day key, else "unit": the word a total over the period leaves out. */
function unitWord(key: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(key)) return "day";
  if (/^\d{4}-\d{2}$/.test(key)) return "month";
  return /^\d{4}-W\d{2}$/.test(key) ? "week" : "unit";
}
