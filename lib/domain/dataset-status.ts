/**
 * A dataset's status in one line, for whoever reads its numbers where they are read (a BI tile,
 * a chat, a status page): how far it is complete, which units are not, and whether someone is on
 * them — "revenue_daily · complete through 2026-08-16 · 2026-08-17 missing (being repaired)".
 *
 * Built from the completeness certificate (seed 000) of the dataset's default period, never from
 * anything the certificate does not say: a unit no one has looked at is not called complete.
 *
 * Example: keys 08-15 … 08-18, a problem at 08-17 that an incident is repairing →
 *   state "being_repaired", completeThrough "2026-08-16",
 *   headline "revenue_daily · complete through 2026-08-16 · 2026-08-17 missing (being repaired)".
 */

export type StatusState = "complete" | "incomplete" | "being_repaired";

/** What is wrong with a unit, as the certificate's plain verdict says it. */
export type StatusEffect = "overstated" | "understated" | "absent" | "unknown";

export interface StatusIncident {
  id: string;
  title: string;
  status: string;
}

export interface StatusProblemInput {
  unitKey: string;
  effect: StatusEffect;
  /** Open incidents on the unit (or on what it was built from). */
  onIt: StatusIncident[];
}

export interface DatasetStatusInput {
  name: string;
  /** The period's expected keys of the dataset, in order. */
  keys: readonly string[];
  verdict: "complete" | "incomplete";
  problems: readonly StatusProblemInput[];
}

export interface StatusProblem {
  unitKey: string;
  /** "missing", "overstated", … */
  word: string;
  /** An open incident has a repair of it planned, running or validating. */
  beingRepaired: boolean;
  incidents: StatusIncident[];
}

export interface DatasetStatus {
  state: StatusState;
  /** The last key before the first unit that is not whole; the period's last key when complete; null when its first unit is not whole. */
  completeThrough: string | null;
  problems: StatusProblem[];
  headline: string;
}

const WORD: Record<StatusEffect, string> = {
  overstated: "overstated",
  understated: "understated",
  absent: "missing",
  unknown: "uncertain",
};

/** Incident statuses in which a repair of the unit is decided and under way. */
const REPAIRING = new Set(["planned", "repairing", "validating"]);

/** How many problem units a headline names before "+n more". */
const NAMED = 3;

export function datasetStatus(input: DatasetStatusInput): DatasetStatus {
  const order = new Map(input.keys.map((k, i) => [k, i]));
  const problems = [...input.problems]
    .sort((a, b) => (order.get(a.unitKey) ?? Infinity) - (order.get(b.unitKey) ?? Infinity) || a.unitKey.localeCompare(b.unitKey))
    .map((p) => ({
      unitKey: p.unitKey,
      word: WORD[p.effect],
      beingRepaired: p.onIt.some((i) => REPAIRING.has(i.status)),
      incidents: p.onIt,
    }));
  const complete = input.verdict === "complete" && problems.length === 0;
  const firstBad = problems.reduce((min, p) => Math.min(min, order.get(p.unitKey) ?? Infinity), Infinity);
  // A certificate that says incomplete without naming a unit of this dataset's own keys (an
  // upstream unit under another key space) says nothing about how far this one is whole.
  const completeThrough = complete ? (input.keys.at(-1) ?? null) : firstBad === Infinity ? null : firstBad === 0 ? null : input.keys[firstBad - 1]!;
  const state: StatusState = complete ? "complete" : problems.length > 0 && problems.every((p) => p.beingRepaired) ? "being_repaired" : "incomplete";
  return { state, completeThrough, problems, headline: headline(input.name, input.keys, complete, completeThrough, problems) };
}

/** The one unit of a dataset without partitions (lib/domain/partitions.ts). */
const WHOLE = "*";
const unitWords = (key: string) => (key === WHOLE ? "the whole table" : key);

function headline(name: string, keys: readonly string[], complete: boolean, through: string | null, problems: StatusProblem[]): string {
  const unpartitioned = keys.length === 1 && keys[0] === WHOLE;
  if (complete) return keys.length === 0 ? `${name} · no units expected` : unpartitioned ? `${name} · complete` : `${name} · complete through ${keys.at(-1)!}`;
  const start = through ? `complete through ${through}` : problems.length > 0 && !unpartitioned ? `not complete from ${problems[0]!.unitKey}` : "not complete";
  const named = problems
    .slice(0, NAMED)
    .map((p) => `${unitWords(p.unitKey)} ${p.word}${p.beingRepaired ? " (being repaired)" : p.incidents.length > 0 ? " (incident open)" : ""}`);
  const more = problems.length > NAMED ? ` +${problems.length - NAMED} more` : "";
  return [name, start, ...(named.length > 0 ? [named.join(", ") + more] : [])].join(" · ");
}
