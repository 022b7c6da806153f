/**
 * How far the unit states have applied the change log (UnitChange: a sequence number per change,
 * written in the same transaction as the change itself).
 *
 * Sequence numbers are handed out when a transaction inserts its row, not when it commits: on
 * PostgreSQL a transaction that took 7 can commit after the one that took 8. A reader that saw 8
 * and moved its watermark past 7 would never apply 7. So the watermark advances only over
 * contiguous numbers; a change applied past a gap is remembered in `above` (and not applied again)
 * until the gap fills, or until the gap is older than `gapMs`: then it is a rolled-back
 * transaction, which never commits, and the watermark moves past it.
 *
 * Example: watermark 6, changes 8 and 9 read and applied → { seq: 6, above: {8, 9}, gaps: {7: t} }.
 * Change 7 commits and is applied → { seq: 9 }. Had 7 been rolled back, the first read at or after
 * t + gapMs moves to { seq: 9 } all the same.
 */
export interface ChangeWatermark {
  /** Every change up to this sequence number is applied. */
  readonly seq: number;
  /** Changes applied past a gap. */
  readonly above: ReadonlySet<number>;
  /** Sequence numbers missing below changes seen, each with the instant (ms) it was first missed. */
  readonly gaps: ReadonlyMap<number, number>;
}

/** A gap in the sequence older than this is a rolled-back transaction, not a late commit. */
export const ROLLED_BACK_AFTER_MS = 30_000;

/** A watermark with nothing past it: every change up to `seq` applied (a computation read the records after it). */
export function watermarkAt(seq: number, above: Iterable<number> = []): ChangeWatermark {
  return { seq, above: new Set(above), gaps: new Map() };
}

/**
 * Of the changes read after the watermark, the ones still to apply: those not already applied
 * past a gap. Applying a change twice would be harmless (it recomputes the same units), but costs.
 */
export function unappliedChanges<C extends { seq: number }>(watermark: ChangeWatermark, changes: readonly C[]): C[] {
  return changes.filter((c) => c.seq > watermark.seq && !watermark.above.has(c.seq));
}

/**
 * The watermark once `applied` are applied, having read the changes `seen` (applied ones and
 * those applied earlier past a gap): contiguous numbers advance it, a missing one stops it until
 * it is `gapMs` old. `now` is the instant of this read.
 */
export function advanceWatermark(
  watermark: ChangeWatermark,
  applied: Iterable<number>,
  seen: Iterable<number>,
  now: number,
  gapMs: number = ROLLED_BACK_AFTER_MS,
): ChangeWatermark {
  const above = new Set(watermark.above);
  for (const seq of applied) above.add(seq);
  const gaps = new Map(watermark.gaps);
  let seq = watermark.seq;
  let highest = seq;
  for (const s of seen) highest = Math.max(highest, s);
  while (seq < highest) {
    const next = seq + 1;
    if (above.has(next)) {
      above.delete(next);
      gaps.delete(next);
      seq = next;
      continue;
    }
    const since = gaps.get(next) ?? now;
    gaps.set(next, since);
    if (now - since < gapMs) break;
    gaps.delete(next);
    seq = next;
  }
  return { seq, above, gaps };
}

/** How many sequence numbers the log holds past the watermark (0: caught up). */
export function changesBehind(watermark: ChangeWatermark, lastSeq: number): number {
  return Math.max(0, lastSeq - watermark.seq);
}
