import { STATE_LABELS, stateOfCode, type MatrixState } from "@/lib/contracts/units";

/** What a cell says in words, for its tooltip and its accessible name. */
export function describeCell(dataset: string, label: string, code: string, units: number): string {
  const state = stateOfCode(code);
  if (!state) return `${dataset} · ${label}: no unit expected`;
  const inside = units > 1 ? ` (worst of ${units} units)` : "";
  return `${dataset} · ${label}: ${STATE_LABELS[state]}${inside}${NOTE[state] ? ` — ${NOTE[state]}` : ""}`;
}

const NOTE: Partial<Record<MatrixState, string>> = {
  missing: "no publish in the ledger",
  failed: "no publish: the latest attempt failed",
  blocked: "no publish: an upstream unit failed, so this never ran",
  duplicate: "more than one copy of its rows",
  empty: "published with 0 rows",
  divergent: "row count outside the source count's tolerance",
  stale: "an upstream unit was republished after it was built",
  input_mismatch: "built from another input version than its neighbours",
  known_bad: "marked known-bad: consumers must see a gap",
  skipped: "skipped on purpose",
};
