import type { WriteMode } from "./lineage-graph";

/**
 * Continuing a repair run after the process running it stopped (seed 001: "re-running an append
 * converts a gap into a duplicate"). Per (task, unit) pair, from the tries the run recorded:
 *  - the last try succeeded, or was blocked by its upstream → settled as such, not run again;
 *  - the last try failed on its own → settled failed (the run's retries were already spent);
 *  - the last try was interrupted (its process died mid-try) → run again with the next try
 *    number — unless the task appends (an unknown write mode counts as append) and the
 *    interrupted try already wrote rows: a second try would add a second copy, so the pair is
 *    settled failed until the unit is cleaned;
 *  - no try yet → run it from try 1.
 * Example: stg_orders (append) interrupted after 12 of its 40 rows → failed; fct_orders
 * (replace) interrupted after 12 rows → tried again as try 2.
 */
export interface RecordedTry {
  tryNumber: number;
  status: string;
  /** The try's process stopped before it ended (it did not fail on its own). */
  interrupted: boolean;
  rowsWritten: number | null;
}

export type SettledOutcome = "succeeded" | "failed" | "upstream_failed";

export function settlePair(tries: readonly RecordedTry[], writeMode: WriteMode | null): { settled: SettledOutcome | null; nextTry: number } {
  if (tries.length === 0) return { settled: null, nextTry: 1 };
  const last = tries.reduce((a, b) => (b.tryNumber > a.tryNumber ? b : a));
  const nextTry = last.tryNumber + 1;
  if (last.status === "succeeded" || last.status === "upstream_failed") return { settled: last.status, nextTry };
  if (last.status !== "failed") return { settled: null, nextTry };
  if (!last.interrupted) return { settled: "failed", nextTry };
  const appends = writeMode === null || writeMode === "append";
  return { settled: appends && (last.rowsWritten ?? 0) > 0 ? "failed" : null, nextTry };
}
