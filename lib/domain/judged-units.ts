/**
 * Which units of a dataset get a state at all. A due unit always does: expected to be complete by
 * now, its absence is a hole ("missing"). Any other unit — one not yet due (inside its
 * definition's lateness), or any unit of a dataset whose expected units nobody declared — gets a
 * state only when its records say something: a publish, an operator's mark, or a latest attempt
 * that did not simply succeed (it failed, was blocked, is running). So tomorrow is never
 * "missing", and a dbt view that was built but reports no rows is built, not missing.
 *
 * Example: an undeclared dataset `raw.orders` that only appears as an input has no record and no
 * state; its writer-less sibling `dim` with one failed attempt on `*` is `failed`.
 */
import { summariseUnit, type UnitFacts } from "./unit-facts";

export function isJudged(due: boolean, facts: UnitFacts): boolean {
  if (due) return true;
  if (facts.ledger.length > 0 || (facts.marks?.length ?? 0) > 0) return true;
  const status = summariseUnit(facts).latestAttempt?.status;
  return status !== undefined && status !== "succeeded";
}
