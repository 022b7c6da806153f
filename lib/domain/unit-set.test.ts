import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toKeyRanges, UnitSet, UnitSetBuilder } from "./unit-set";

// Sets drawn as ordinals on a line:
//   A = ██░░██████░░        {0..1, 4..9}
//   B = ░░░███░░░░██        {3..5, 10..11}
const A = UnitSet.fromRanges([
  [4, 9],
  [0, 1],
]);
const B = UnitSet.fromRanges([
  [10, 11],
  [3, 5],
]);

describe("UnitSet", () => {
  it("canonicalises: sorted, merged when overlapping or adjacent", () => {
    expect(
      UnitSet.fromRanges([
        [5, 6],
        [0, 2],
        [3, 3],
        [8, 9],
        [9, 12],
      ]).ranges(),
    ).toEqual([
      [0, 3],
      [5, 6],
      [8, 12],
    ]);
    expect(UnitSet.fromOrdinals([3, 1, 2, 7, 7]).ranges()).toEqual([
      [1, 3],
      [7, 7],
    ]);
  });

  it("union, intersection and difference of the drawn sets", () => {
    expect(A.union(B).ranges()).toEqual([
      [0, 1],
      [3, 11],
    ]);
    expect(A.intersect(B).ranges()).toEqual([[4, 5]]);
    expect(A.difference(B).ranges()).toEqual([
      [0, 1],
      [6, 9],
    ]);
    expect(B.difference(A).ranges()).toEqual([
      [3, 3],
      [10, 11],
    ]);
  });

  it("a union within one range is that range itself", () => {
    const days = UnitSet.range(0, 11);
    expect(days.union(A)).toBe(days);
    expect(B.union(days)).toBe(days);
    expect(UnitSet.range(4, 9).union(A).ranges()).toEqual([
      [0, 1],
      [4, 9],
    ]);
  });

  it("size, contains, min, max and iteration", () => {
    expect(A.size).toBe(8);
    expect(A.contains(4)).toBe(true);
    expect(A.contains(2)).toBe(false);
    expect([A.min, A.max]).toEqual([0, 9]);
    expect([...B]).toEqual([3, 4, 5, 10, 11]);
    expect(UnitSet.EMPTY.min).toBeUndefined();
  });

  it("full(n) is one range regardless of n — ten years of days is one interval", () => {
    const tenYears = UnitSet.full(3650);
    expect(tenYears.rangeCount).toBe(1);
    expect(tenYears.size).toBe(3650);
    expect(UnitSet.full(0).isEmpty).toBe(true);
  });

  it("shift moves and clips to the space", () => {
    expect(A.shift(1, 10).ranges()).toEqual([
      [1, 2],
      [5, 9],
    ]);
    expect(A.shift(-1, 10).ranges()).toEqual([
      [0, 0],
      [3, 8],
    ]);
  });

  it("builder refuses unsorted input instead of silently producing a wrong set", () => {
    expect(() => new UnitSetBuilder().add(5, 6).add(1, 2)).toThrow(/sorted/);
  });

  it("converts to key ranges through a namer", () => {
    const namer = { keyAt: (o: number) => `k${o}` };
    expect(toKeyRanges(A, namer)).toEqual([
      ["k0", "k1"],
      ["k4", "k9"],
    ]);
  });
});

const arbSet = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 8 })), { maxLength: 8 })
  .map((rs) => UnitSet.fromRanges(rs.map(([lo, len]) => [lo, lo + len] as const)));
const members = (s: UnitSet) => new Set(s);

describe("UnitSet algebra laws (property-based)", () => {
  it("union and intersection are commutative and associative", () => {
    fc.assert(
      fc.property(arbSet, arbSet, arbSet, (a, b, c) => {
        expect(a.union(b).equals(b.union(a))).toBe(true);
        expect(a.intersect(b).equals(b.intersect(a))).toBe(true);
        expect(
          a
            .union(b)
            .union(c)
            .equals(a.union(b.union(c))),
        ).toBe(true);
        expect(
          a
            .intersect(b)
            .intersect(c)
            .equals(a.intersect(b.intersect(c))),
        ).toBe(true);
      }),
    );
  });

  it("intersection distributes over union and union over intersection", () => {
    fc.assert(
      fc.property(arbSet, arbSet, arbSet, (a, b, c) => {
        expect(a.intersect(b.union(c)).equals(a.intersect(b).union(a.intersect(c)))).toBe(true);
        expect(a.union(b.intersect(c)).equals(a.union(b).intersect(a.union(c)))).toBe(true);
      }),
    );
  });

  it("difference identities: A∖A = ∅, A∖∅ = A, (A∖B) ∩ B = ∅, (A∖B) ∪ (A∩B) = A", () => {
    fc.assert(
      fc.property(arbSet, arbSet, (a, b) => {
        expect(a.difference(a).isEmpty).toBe(true);
        expect(a.difference(UnitSet.EMPTY).equals(a)).toBe(true);
        expect(a.difference(b).intersect(b).isEmpty).toBe(true);
        expect(a.difference(b).union(a.intersect(b)).equals(a)).toBe(true);
      }),
    );
  });

  it("|A ∪ B| = |A| + |B| − |A ∩ B|", () => {
    fc.assert(fc.property(arbSet, arbSet, (a, b) => a.union(b).size === a.size + b.size - a.intersect(b).size));
  });

  it("agrees with a plain Set<number> model on every operation", () => {
    fc.assert(
      fc.property(arbSet, arbSet, fc.integer({ min: -2, max: 75 }), (a, b, x) => {
        const [ma, mb] = [members(a), members(b)];
        expect([...a.union(b)]).toEqual([...new Set([...ma, ...mb])].sort((p, q) => p - q));
        expect([...a.intersect(b)]).toEqual([...ma].filter((v) => mb.has(v)));
        expect([...a.difference(b)]).toEqual([...ma].filter((v) => !mb.has(v)));
        expect(a.contains(x)).toBe(ma.has(x));
        expect(a.size).toBe(ma.size);
      }),
    );
  });
});
