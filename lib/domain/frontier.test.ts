import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  admitPartition,
  advanceCheckpoint,
  compareBounds,
  mergedFrontier,
  promotePage,
  publishFrontier,
  retirePartition,
  type Certificate,
  type Membership,
  type ScalarFrontier,
} from "./frontier";

const D = "event_time";
function cert(partition: string, coordinate: number | null, inclusive: boolean | null = true, over: Partial<Certificate> = {}): Certificate {
  return { partition, coordinate, inclusive, domain: D, generation: 1, epoch: 1, ...over };
}
/** A test certificate always carries a coordinate and a known endpoint. */
const bound = (c: Certificate) => ({ coordinate: c.coordinate!, inclusive: c.inclusive! });
const AB: Membership = { epoch: 1, partitions: ["A", "B"] };

describe("mergedFrontier — seed 002", () => {
  it("seed 002: A complete through 120, B through 90 → the frontier is 90, never the maximum 120", () => {
    expect(mergedFrontier([cert("A", 120), cert("B", 90)], AB)).toEqual({ kind: "scalar", coordinate: 90, inclusive: true, epoch: 1, domain: D });
  });

  it("seed 002: a late retry of an older A page loses its CAS, the frontier stays 90; B proves 110 → 110", () => {
    const a = cert("A", 120, true, { generation: 5 });
    const retry = advanceCheckpoint(a, { partition: "A", expectedGeneration: 3, coordinate: 100, inclusive: true, domain: D, epoch: 1 });
    expect(retry.outcome).toBe("stale-generation");
    expect(retry.checkpoint).toBe(a);
    const b = cert("B", 90);
    expect(mergedFrontier([retry.checkpoint!, b], AB)).toMatchObject({ kind: "scalar", coordinate: 90 });
    const proved = advanceCheckpoint(b, { partition: "B", expectedGeneration: 1, coordinate: 110, inclusive: true, domain: D, epoch: 1 });
    expect(proved).toMatchObject({ outcome: "advanced", checkpoint: { coordinate: 110, generation: 2 } });
    expect(mergedFrontier([a, proved.checkpoint!], AB)).toMatchObject({ kind: "scalar", coordinate: 110, inclusive: true });
  });

  it("seed 002: '< 100' with '≤ 100' → '< 100'; the exclusive bound wins the tie", () => {
    const f = mergedFrontier([cert("A", 100, false), cert("B", 100, true)], AB);
    expect(f).toEqual({ kind: "scalar", coordinate: 100, inclusive: false, epoch: 1, domain: D });
  });

  it("seed 002: an exclusive bound is never turned into an inclusive predecessor ('< 100' is not '≤ 99')", () => {
    const f = mergedFrontier([cert("A", 100, false), cert("B", 150, true)], AB);
    expect(f).toMatchObject({ coordinate: 100, inclusive: false });
    expect(compareBounds({ coordinate: 99, inclusive: true }, { coordinate: 100, inclusive: false })).toBe(-1);
  });

  it("seed 002: retry example — event 110 fails, boundary stays 100; 130 certified → aggregate 120", () => {
    // A ≤ 120 ─┐
    //          ├─ min → frontier
    // B ≤ 100 ─┘   B's retry fetches a page through 140 with a failed event at 110
    const a = cert("A", 120);
    const b = cert("B", 100, true, { generation: 2 });
    const failedPage = promotePage(b, {
      expectedGeneration: 2,
      certifiedThrough: { coordinate: 140, inclusive: true },
      events: [
        { coordinate: 105, outcome: "done" },
        { coordinate: 110, outcome: "failed" },
        { coordinate: 140, outcome: "done" },
      ],
    });
    expect(failedPage).toMatchObject({ outcome: "unchanged", reason: "event at 110 is failed: the partition's boundary is held" });
    expect(mergedFrontier([a, failedPage.checkpoint!], AB)).toMatchObject({ kind: "scalar", coordinate: 100 });
    const donePage = promotePage(b, {
      expectedGeneration: 2,
      certifiedThrough: { coordinate: 130, inclusive: true },
      events: [
        { coordinate: 105, outcome: "done" },
        { coordinate: 110, outcome: "done" },
        { coordinate: 130, outcome: "done" },
      ],
    });
    expect(donePage.checkpoint).toMatchObject({ coordinate: 130, generation: 3 });
    expect(mergedFrontier([a, donePage.checkpoint!], AB)).toMatchObject({ kind: "scalar", coordinate: 120 });
  });

  it("seed 002: a member with no certificate gives the vector, not a scalar from the others", () => {
    const f = mergedFrontier([cert("A", 120)], AB);
    expect(f).toMatchObject({ kind: "vector", reason: "B has no certificate" });
    expect(f.kind === "vector" && f.certificates.map((c) => c.partition)).toEqual(["A"]);
  });

  it("seed 002: a resume token is not a watermark — a token-only checkpoint gives the vector", () => {
    const f = mergedFrontier([cert("A", 120), cert("B", null, null, { token: "eyJwYWdlIjo5fQ" })], AB);
    expect(f).toMatchObject({ kind: "vector", reason: "B has a resume token but no certified complete-through coordinate" });
  });

  it("seed 002: coordinates in different domains are incomparable → vector", () => {
    const f = mergedFrontier([cert("A", 120), cert("B", 7, true, { domain: "offset" })], AB);
    expect(f).toMatchObject({ kind: "vector", reason: "coordinates are incomparable (domains event_time, offset)" });
  });

  it("seed 002: unknown endpoint semantics keep the vector", () => {
    expect(mergedFrontier([cert("A", 120), cert("B", 100, null)], AB)).toMatchObject({ kind: "vector" });
  });

  it("seed 002: certificates from another membership epoch are not combined", () => {
    const f = mergedFrontier([cert("A", 120, true, { epoch: 2 }), cert("B", 100)], { epoch: 2, partitions: ["A", "B"] });
    expect(f).toMatchObject({ kind: "vector", reason: "B is certified in epoch 1, not 2" });
  });

  it("of two certificates for one partition, the higher generation is the durable one", () => {
    const f = mergedFrontier([cert("A", 120), cert("B", 80, true, { generation: 1 }), cert("B", 95, true, { generation: 2 })], AB);
    expect(f).toMatchObject({ kind: "scalar", coordinate: 95 });
  });
});

describe("checkpoints and membership — seed 002", () => {
  it("seed 002: a valid CAS that would lower the watermark is refused", () => {
    const r = advanceCheckpoint(cert("B", 100), { partition: "B", expectedGeneration: 1, coordinate: 100, inclusive: false, domain: D, epoch: 1 });
    expect(r.outcome).toBe("would-lower");
    expect(r.checkpoint).toMatchObject({ coordinate: 100, inclusive: true, generation: 1 });
  });

  it("seed 002: a quiet page without a certificate does not advance the partition", () => {
    const r = promotePage(cert("B", 100), { expectedGeneration: 1, certifiedThrough: null, events: [] });
    expect(r).toMatchObject({ outcome: "unchanged", checkpoint: { coordinate: 100 } });
  });

  it("seed 002: the published frontier only moves up; a stale aggregator's lower candidate is refused", () => {
    const published: ScalarFrontier = { kind: "scalar", coordinate: 110, inclusive: true, epoch: 1, domain: D };
    const stale = mergedFrontier([cert("A", 120), cert("B", 90)], AB);
    expect(publishFrontier(published, stale)).toMatchObject({ changed: false, published });
    const newer = mergedFrontier([cert("A", 120), cert("B", 115)], AB);
    expect(publishFrontier(published, newer)).toMatchObject({ changed: true, published: { coordinate: 115 } });
  });

  it("seed 002: a new partition joins only with a proof of coverage from the published frontier, else vector", () => {
    const published: ScalarFrontier = { kind: "scalar", coordinate: 100, inclusive: true, epoch: 1, domain: D };
    const state = { membership: AB, certificates: [cert("A", 120), cert("B", 100)], published };
    const late = admitPartition(state, cert("C", 80)); // first page empty, first event later: not a proof
    expect(late.accepted).toBe(false);
    expect(late.membership).toEqual({ epoch: 2, partitions: ["A", "B", "C"], unproven: ["C"] });
    expect(mergedFrontier(late.certificates, late.membership)).toMatchObject({ kind: "vector" });
    const proven = admitPartition(state, cert("C", 105));
    expect(proven.accepted).toBe(true);
    expect(mergedFrontier(proven.certificates, proven.membership)).toEqual({ kind: "scalar", coordinate: 100, inclusive: true, epoch: 2, domain: D });
  });

  it("seed 002: a partition is removed only once sealed through the published frontier", () => {
    const published: ScalarFrontier = { kind: "scalar", coordinate: 100, inclusive: true, epoch: 1, domain: D };
    const lagging = { membership: AB, certificates: [cert("A", 120), cert("B", 100, false)], published };
    expect(retirePartition(lagging, "B").accepted).toBe(false);
    const sealed = retirePartition({ ...lagging, certificates: [cert("A", 120), cert("B", 100)] }, "B");
    expect(sealed.membership).toEqual({ epoch: 2, partitions: ["A"], unproven: [] });
    expect(mergedFrontier(sealed.certificates, sealed.membership)).toMatchObject({ kind: "scalar", coordinate: 120, epoch: 2 });
  });
});

describe("frontier properties", () => {
  const P = ["A", "B", "C"] as const;
  const op = fc.record({
    partition: fc.constantFrom(...P),
    coordinate: fc.integer({ min: 0, max: 300 }),
    inclusive: fc.boolean(),
    staleBy: fc.nat({ max: 3 }), // 0 = a valid CAS, otherwise a late retry holding an old generation
  });

  it("never decreases under valid CAS updates and stale retries, and never exceeds a member's certificate", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const members: Membership = { epoch: 1, partitions: [...P] };
        const certs = new Map(P.map((p) => [p, cert(p, 10, true)]));
        let published: ScalarFrontier | null = null;
        let previous = mergedFrontier([...certs.values()], members) as ScalarFrontier;
        for (const o of ops) {
          const current = certs.get(o.partition)!;
          const r = advanceCheckpoint(current, { ...o, expectedGeneration: current.generation - o.staleBy, domain: D, epoch: 1 });
          const next = r.checkpoint!;
          expect(compareBounds(bound(next), bound(current))).toBeGreaterThanOrEqual(0);
          if (o.staleBy > 0) expect(next).toBe(current);
          certs.set(o.partition, next);
          const merged = mergedFrontier([...certs.values()], members);
          expect(merged.kind).toBe("scalar");
          const scalar = merged as ScalarFrontier;
          expect(compareBounds(scalar, previous)).toBeGreaterThanOrEqual(0);
          for (const c of certs.values()) expect(compareBounds(scalar, bound(c))).toBeLessThanOrEqual(0);
          const before: ScalarFrontier | null = published;
          published = publishFrontier(published, merged).published;
          if (before !== null) expect(compareBounds(published!, before)).toBeGreaterThanOrEqual(0);
          previous = scalar;
        }
      }),
      { numRuns: 300 },
    );
  });

  it("the merged frontier is the minimum whatever the order of the certificates", () => {
    const certArb = fc.tuple(fc.integer({ min: 0, max: 50 }), fc.boolean());
    fc.assert(
      fc.property(certArb, certArb, certArb, (a, b, c) => {
        const cs = [cert("A", a[0], a[1]), cert("B", b[0], b[1]), cert("C", c[0], c[1])];
        const m: Membership = { epoch: 1, partitions: ["A", "B", "C"] };
        expect(mergedFrontier([...cs].reverse(), m)).toEqual(mergedFrontier(cs, m));
      }),
    );
  });
});
