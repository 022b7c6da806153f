/**
 * What makes a published unit *suspect* (seed 001: "B is green, its table is wrong"): it was
 * built from an upstream unit whose content is known to be wrong or doubtful — a duplicate, a
 * divergent or empty unit, one an operator marked known-bad, a stale one, a partial write (a
 * failed unit whose tries left rows a downstream could read), or one that is itself suspect.
 * Through the lineage's partition mappings, so transitively: revenue_daily 2026-08-10 is suspect
 * because fct_orders 2026-08-10 is, because stg_orders 2026-08-10 holds one and a half copies.
 */
import type { UnitState } from "./unit-state";

const MAKING: Readonly<Partial<Record<UnitState, string>>> = {
  duplicate: "duplicate (more than one copy)",
  divergent: "divergent from its source count",
  empty: "empty",
  known_bad: "marked known-bad",
  stale: "stale",
  suspect: "itself suspect",
};

/**
 * The state an upstreamProblemOf text was made from, so another sentence can word it its own way
 * (plain-verdict.ts): "partial_write" for a failed unit's kept rows, null for a text it did not make.
 */
export function stateOfProblem(problem: string): UnitState | "partial_write" | null {
  if (problem.startsWith("a partial write")) return "partial_write";
  const found = Object.entries(MAKING).find(([, text]) => text === problem);
  return found ? (found[0] as UnitState) : null;
}

/** The problem an upstream unit in this state passes on to what reads it, in words; null when none. */
export function upstreamProblemOf(state: UnitState, partialRows: number | null): string | null {
  // Rows unknown (a producer without row counts) makes no claim: what reads it is blocked, not suspect.
  if (state === "failed" && partialRows !== null && partialRows > 0) return `a partial write (${partialRows} rows left by failed tries)`;
  return MAKING[state] ?? null;
}
