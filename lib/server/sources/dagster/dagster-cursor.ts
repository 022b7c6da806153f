import type { DagsterCursor } from "../../repositories/sources/source-cursors";

/** What one poll read of Dagster's runs, for the cursor it leaves. */
export interface RunsRead {
  /** Update times (Dagster's seconds) of every run read, the pipeline's or not. */
  readonly updateTimes: readonly number[];
  /** The last run id read (the oldest-created of the last page), or null when none was. */
  readonly lastRunId: string | null;
  /** Read through to a short page; false: stopped at the page limit, a backlog to read on. */
  readonly exhausted: boolean;
  /** Reparo's milliseconds when the poll's first page was asked, and its last one answered. */
  readonly startedAt: number;
  readonly endedAt: number;
}

const max = (...xs: (number | null)[]): number | null => xs.reduce<number | null>((m, x) => (x === null ? m : m === null ? x : Math.max(m, x)), null);

/**
 * The cursor a poll leaves. Dagster pages the runs changed after `after` newest-CREATED first,
 * not by update time, so a run already paged past may change again while later pages (or later
 * polls of a backlog) are read — with an update time below the newest one read. Hence, read
 * through, `after` becomes the newest update time read MINUS the time the reading took (since
 * the backlog's first page): every run that changed meanwhile is read again (a re-read stores
 * nothing new), none is skipped. Stopped at the page limit, the next poll reads on after the
 * last run id, with the same `after`.
 *
 *   after 100, read 130 and 120 through in 2 s        → after 128
 *   after 100, read 130 and 120, page limit, run "r9" → after 100, page "r9", high 130, since t0
 *   then 110 read through, 60 s after t0              → after 70 → kept at 100 (never backwards)
 */
export function nextCursor(cursor: DagsterCursor, read: RunsRead): DagsterCursor {
  const newest = max(cursor.high, ...read.updateTimes);
  const since = cursor.since ?? read.startedAt;
  if (!read.exhausted && read.lastRunId !== null) return { after: cursor.after, page: read.lastRunId, high: newest, since };
  const took = Math.max(0, read.endedAt - since) / 1000;
  return { after: max(cursor.after, newest === null ? null : newest - took), page: null, high: null, since: null };
}
