import { describe, expect, it } from "vitest";
import { advanceWatermark, changesBehind, ROLLED_BACK_AFTER_MS, unappliedChanges, watermarkAt, type ChangeWatermark } from "./change-watermark";

const T = 1_000_000;
const seqs = (...n: number[]) => n.map((seq) => ({ seq }));
const plain = (w: ChangeWatermark) => ({ seq: w.seq, above: [...w.above].sort((a, b) => a - b), gaps: Object.fromEntries(w.gaps) });

describe("the change watermark", () => {
  it("advances over contiguous changes and forgets nothing it needs", () => {
    const w = advanceWatermark(watermarkAt(6), [7, 8, 9], [7, 8, 9], T);
    expect(plain(w)).toEqual({ seq: 9, above: [], gaps: {} });
    expect(advanceWatermark(w, [], [], T + 1)).toEqual(w);
  });

  // 6 applied; 7 took its number first but has not committed; 8 and 9 committed and are read.
  //   ... 5 6 | 7? | 8 9
  it("stops below a gap, remembers what it applied past it, and applies it once", () => {
    const w = advanceWatermark(watermarkAt(6), [8, 9], [8, 9], T);
    expect(plain(w)).toEqual({ seq: 6, above: [8, 9], gaps: { 7: T } });
    // The next read after 6 sees 8 and 9 again: nothing to apply twice.
    expect(unappliedChanges(w, seqs(8, 9))).toEqual([]);
    // 7 commits late (out of order): applying it closes the gap and carries the watermark to 9.
    const read = seqs(7, 8, 9);
    expect(unappliedChanges(w, read)).toEqual(seqs(7));
    expect(plain(advanceWatermark(w, [7], [7, 8, 9], T + 1_000))).toEqual({ seq: 9, above: [], gaps: {} });
  });

  it("keeps the instant a gap was first seen, and moves past it once it is a rolled-back transaction", () => {
    let w = advanceWatermark(watermarkAt(6), [8], [8], T);
    w = advanceWatermark(w, [], [8], T + ROLLED_BACK_AFTER_MS - 1);
    expect(plain(w)).toEqual({ seq: 6, above: [8], gaps: { 7: T } });
    w = advanceWatermark(w, [], [8], T + ROLLED_BACK_AFTER_MS);
    expect(plain(w)).toEqual({ seq: 8, above: [], gaps: {} });
  });

  it("times each gap from when the watermark reaches it: an old gap is passed, the next one then starts its wait", () => {
    // 7 missing since T; 9 missing too, but timed only once the watermark stands below it.
    let w = advanceWatermark(watermarkAt(6), [8], [8], T);
    w = advanceWatermark(w, [10], [8, 10], T + 20_000);
    expect(plain(w)).toEqual({ seq: 6, above: [8, 10], gaps: { 7: T } });
    w = advanceWatermark(w, [], [8, 10], T + ROLLED_BACK_AFTER_MS);
    expect(plain(w)).toEqual({ seq: 8, above: [10], gaps: { 9: T + ROLLED_BACK_AFTER_MS } });
    w = advanceWatermark(w, [11], [10, 11], T + 2 * ROLLED_BACK_AFTER_MS);
    expect(plain(w)).toEqual({ seq: 11, above: [], gaps: {} });
  });

  it("takes a gap's age as an argument", () => {
    expect(plain(advanceWatermark(watermarkAt(0), [2], [2], T, 0))).toEqual({ seq: 2, above: [], gaps: {} });
  });

  it("does not change the watermark it is given", () => {
    const w = watermarkAt(6, [8]);
    advanceWatermark(w, [9], [8, 9], T);
    expect(plain(w)).toEqual({ seq: 6, above: [8], gaps: {} });
  });

  it("reads changes at or below the watermark as applied, and counts how far the log is ahead", () => {
    const w = watermarkAt(6, [8]);
    expect(unappliedChanges(w, seqs(5, 6, 7, 8, 9))).toEqual(seqs(7, 9));
    expect(changesBehind(w, 9)).toBe(3);
    expect(changesBehind(w, 6)).toBe(0);
    expect(changesBehind(w, 2)).toBe(0);
  });
});
