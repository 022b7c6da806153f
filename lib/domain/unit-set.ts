/**
 * A set of units as sorted, disjoint, non-adjacent inclusive ranges of ordinal positions.
 *
 * Why: a daily dataset over ten years is 3,650 keys, and a closure over 5,000 tasks would be
 * eighteen million strings. As ranges it is one interval per task. Every operation here is a
 * linear merge over the ranges, never over the units, so cost follows the shape of the set
 * and not its size.
 *
 * Example: days 16..18 and 20 of a daily space, minus day 17:
 *   UnitSet.fromRanges([[16, 18], [20, 20]]).difference(UnitSet.of(17)).ranges()
 *     → [[16, 16], [18, 18], [20, 20]]
 */
export type OrdinalRange = readonly [from: number, to: number];

/** Anything that can name an ordinal (a resolved partition space). */
export interface KeyNamer {
  keyAt(ordinal: number): string;
}

export class UnitSet implements Iterable<number> {
  /** Flat [lo0, hi0, lo1, hi1, ...]; canonical (sorted, disjoint, gaps ≥ 1). */
  private readonly bounds: readonly number[];

  private constructor(bounds: readonly number[]) {
    this.bounds = bounds;
  }

  static readonly EMPTY = new UnitSet([]);

  static empty(): UnitSet {
    return UnitSet.EMPTY;
  }

  /** The whole space of n units, 0..n-1. */
  static full(n: number): UnitSet {
    return n > 0 ? new UnitSet([0, n - 1]) : UnitSet.EMPTY;
  }

  static range(from: number, to: number): UnitSet {
    return from <= to ? new UnitSet([from, to]) : UnitSet.EMPTY;
  }

  static of(...ordinals: number[]): UnitSet {
    return UnitSet.fromOrdinals(ordinals);
  }

  static fromOrdinals(ordinals: Iterable<number>): UnitSet {
    const sorted = Array.from(ordinals).sort((a, b) => a - b);
    const builder = new UnitSetBuilder();
    for (const o of sorted) builder.add(o, o);
    return builder.build();
  }

  /** Any ranges, in any order, overlapping or not. */
  static fromRanges(ranges: Iterable<OrdinalRange>): UnitSet {
    const sorted = Array.from(ranges).sort((a, b) => a[0] - b[0]);
    const builder = new UnitSetBuilder();
    for (const [lo, hi] of sorted) builder.add(lo, hi);
    return builder.build();
  }

  /** @internal used by the builder; bounds must already be canonical. */
  static fromCanonicalBounds(bounds: readonly number[]): UnitSet {
    return bounds.length === 0 ? UnitSet.EMPTY : new UnitSet(bounds);
  }

  get isEmpty(): boolean {
    return this.bounds.length === 0;
  }

  get rangeCount(): number {
    return this.bounds.length / 2;
  }

  get size(): number {
    let total = 0;
    for (let i = 0; i < this.bounds.length; i += 2) total += this.bounds[i + 1]! - this.bounds[i]! + 1;
    return total;
  }

  get min(): number | undefined {
    return this.bounds[0];
  }

  get max(): number | undefined {
    return this.bounds[this.bounds.length - 1];
  }

  ranges(): OrdinalRange[] {
    const out: OrdinalRange[] = [];
    for (let i = 0; i < this.bounds.length; i += 2) out.push([this.bounds[i]!, this.bounds[i + 1]!]);
    return out;
  }

  /** Calls fn for each range without allocating tuples (hot path of the closure). */
  forEachRange(fn: (lo: number, hi: number) => void): void {
    for (let i = 0; i < this.bounds.length; i += 2) fn(this.bounds[i]!, this.bounds[i + 1]!);
  }

  /** Binary search: O(log ranges). */
  contains(ordinal: number): boolean {
    let lo = 0;
    let hi = this.bounds.length / 2 - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ordinal < this.bounds[2 * mid]!) hi = mid - 1;
      else if (ordinal > this.bounds[2 * mid + 1]!) lo = mid + 1;
      else return true;
    }
    return false;
  }

  *[Symbol.iterator](): Iterator<number> {
    for (let i = 0; i < this.bounds.length; i += 2) {
      for (let o = this.bounds[i]!; o <= this.bounds[i + 1]!; o++) yield o;
    }
  }

  equals(other: UnitSet): boolean {
    if (this.bounds.length !== other.bounds.length) return false;
    return this.bounds.every((b, i) => b === other.bounds[i]);
  }

  union(other: UnitSet): UnitSet {
    if (other.isEmpty) return this;
    if (this.isEmpty) return other;
    const a = this.bounds;
    const b = other.bounds;
    // One range holding the other set (common in a closure: two tails of the same days)
    // is the answer as it stands: no merge, nothing allocated.
    if (a.length === 2 && a[0]! <= b[0]! && b[b.length - 1]! <= a[1]!) return this;
    if (b.length === 2 && b[0]! <= a[0]! && a[a.length - 1]! <= b[1]!) return other;
    const builder = new UnitSetBuilder();
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      if (j >= b.length || (i < a.length && a[i]! <= b[j]!)) {
        builder.add(a[i]!, a[i + 1]!);
        i += 2;
      } else {
        builder.add(b[j]!, b[j + 1]!);
        j += 2;
      }
    }
    return builder.build();
  }

  intersect(other: UnitSet): UnitSet {
    const a = this.bounds;
    const b = other.bounds;
    const out: number[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      const lo = Math.max(a[i]!, b[j]!);
      const hi = Math.min(a[i + 1]!, b[j + 1]!);
      if (lo <= hi) out.push(lo, hi);
      if (a[i + 1]! < b[j + 1]!) i += 2;
      else j += 2;
    }
    return UnitSet.fromCanonicalBounds(out);
  }

  intersects(other: UnitSet): boolean {
    return !this.intersect(other).isEmpty;
  }

  difference(other: UnitSet): UnitSet {
    if (this.isEmpty || other.isEmpty) return this;
    const a = this.bounds;
    const b = other.bounds;
    const out: number[] = [];
    let j = 0;
    for (let i = 0; i < a.length; i += 2) {
      let lo = a[i]!;
      const hi = a[i + 1]!;
      while (j < b.length && b[j + 1]! < lo) j += 2;
      let k = j;
      while (k < b.length && b[k]! <= hi && lo <= hi) {
        if (b[k]! > lo) out.push(lo, b[k]! - 1);
        lo = Math.max(lo, b[k + 1]! + 1);
        k += 2;
      }
      if (lo <= hi) out.push(lo, hi);
    }
    return UnitSet.fromCanonicalBounds(out);
  }

  /** Keeps the units inside [0, n-1]: mapping results are clipped to the target space. */
  clip(n: number): UnitSet {
    if (this.isEmpty || (this.bounds[0]! >= 0 && this.bounds[this.bounds.length - 1]! < n)) return this;
    return this.intersect(UnitSet.full(n));
  }

  /** Every unit moved by delta (previous(n) is a shift by -n), clipped to [0, n-1]. */
  shift(delta: number, n: number): UnitSet {
    if (delta === 0) return this.clip(n);
    return UnitSet.fromCanonicalBounds(this.bounds.map((b) => b + delta)).clip(n);
  }

  toString(): string {
    return `{${this.ranges()
      .map(([lo, hi]) => (lo === hi ? `${lo}` : `${lo}..${hi}`))
      .join(", ")}}`;
  }
}

/**
 * Accumulates ranges given in non-decreasing order of their start, merging overlaps and
 * neighbours as it goes. Monotone mappings emit ranges in that order, so mapping a set is one
 * pass with no sort.
 */
export class UnitSetBuilder {
  private bounds: number[] = [];

  add(lo: number, hi: number): this {
    if (lo > hi) return this;
    const n = this.bounds.length;
    if (n > 0 && lo < this.bounds[n - 2]!) throw new Error("UnitSetBuilder: ranges must arrive sorted by start");
    if (n > 0 && lo <= this.bounds[n - 1]! + 1) {
      if (hi > this.bounds[n - 1]!) this.bounds[n - 1] = hi;
    } else {
      this.bounds.push(lo, hi);
    }
    return this;
  }

  /** Hands its array over to the set (no copy); the builder starts empty again. */
  build(): UnitSet {
    const bounds = this.bounds;
    this.bounds = [];
    return UnitSet.fromCanonicalBounds(bounds);
  }
}

/**
 * The set as key ranges, the way a person or an orchestrator reads it:
 *   toKeyRanges(UnitSet.range(91, 99), dailySpace) → [["2026-08-17", "2026-08-25"]]
 */
export function toKeyRanges(set: UnitSet, namer: KeyNamer): [string, string][] {
  return set.ranges().map(([lo, hi]) => [namer.keyAt(lo), namer.keyAt(hi)]);
}
