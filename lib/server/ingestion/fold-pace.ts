/**
 * How long a console that is accepting events may hold its folds back
 * (REPARO_FOLD_MAX_WAIT_SECONDS, default 0: fold at once): while events keep arriving, the fold
 * waits for a pause in them, and never lets the oldest queued event wait longer than this.
 * Anything but a number from 0 to 3,600 stops the server at start, naming the variable.
 */
export function configuredFoldMaxWaitMs(env: Record<string, string | undefined> = process.env): number {
  const v = (env.REPARO_FOLD_MAX_WAIT_SECONDS ?? "").trim();
  if (v === "") return DEFAULT_FOLD_MAX_WAIT_MS;
  const seconds = Number(v);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3_600)
    throw new Error(`REPARO_FOLD_MAX_WAIT_SECONDS must be a number of seconds from 0 to 3600, not ${JSON.stringify(v)}`);
  return Math.round(seconds * 1000);
}

// Folding at once: measured on a quiet machine (three consoles, 30,000 events; docs/ingestion.md),
// a 10-s hold-back acknowledged 9,800–10,600 events/s but folded 2,800–3,100 with the ledger's lag
// p95 at 6.7–7.5 s; folding at once acknowledged 7,200–8,000, folded 3,400–3,500 and lagged
// 4.8–5.2 s. The truth on the pages comes first; a team that would rather answer bursts faster
// sets a hold-back.
const DEFAULT_FOLD_MAX_WAIT_MS = 0;

/**
 * A pause in accepted requests this long lets the fold go. A burst's requests come closer
 * together, but not always: with 250 ms, one console of three under a 6-s burst on two busy
 * cores saw such a gap and ran a fold step of 2,000 events in the middle of it.
 */
export const FOLD_QUIET_MS = 1_000;

/**
 * Folding's pace on one console. Accepting a burst and folding it compete for the same cores and
 * the same database: measured with three consoles on one 2-core machine, acknowledging 30,000
 * events took 7.5–8.2 s with the folds running beside it and 6.1 s with them held. So while this
 * console is accepting events (the last less than FOLD_QUIET_MS ago) a fold step waits, until the
 * requests pause or the oldest queued event has waited `maxWaitMs`: producers are answered first,
 * and the ledger is at most that far behind a steady stream (the pages say by how much).
 */
export interface FoldPace {
  /** When this console last accepted deferred events (ms since the epoch; 0: never). */
  lastAcceptedAt: number;
  maxWaitMs: number;
}

/** How long the next fold step should wait under `pace` (0: go now). */
export function foldHoldMs(pace: FoldPace, oldestAcceptedAt: Date | null, now: number): number {
  const quietFor = now - pace.lastAcceptedAt;
  if (pace.maxWaitMs <= 0 || quietFor >= FOLD_QUIET_MS || oldestAcceptedAt === null) return 0;
  const waited = now - oldestAcceptedAt.getTime();
  return waited >= pace.maxWaitMs ? 0 : Math.min(FOLD_QUIET_MS - quietFor, pace.maxWaitMs - waited);
}
