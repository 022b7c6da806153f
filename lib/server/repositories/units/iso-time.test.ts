import { describe, expect, it } from "vitest";
import { isoTimeMs } from "./unit-matrix-reads";

// The ledger's instants are read from their digits (unit-matrix-reads.ts); Date.parse is what
// they were read with before, so every text must give exactly what it gives.
const legacy = (s: string) => (/^\d+$/.test(s) ? Number(s) : Date.parse(s));
const same = (s: string) => expect(Object.is(isoTimeMs(s), legacy(s)), s).toBe(true);

describe("isoTimeMs", () => {
  it("reads the adapter's stored form as Date.parse does, over four centuries of random instants", () => {
    let seed = 20261206;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      const iso = new Date(Math.floor(-5e12 + next() * 1.5e13)).toISOString();
      same(iso);
      same(iso.replace("Z", "+00:00"));
    }
  });

  it("leap days and month ends, in and out of range", () => {
    for (const day of [
      "2024-02-29",
      "2023-02-29",
      "2023-02-28",
      "2000-02-29",
      "1900-02-29",
      "2026-04-31",
      "2026-12-31",
      "2026-13-01",
      "2026-00-10",
      "2026-01-00",
    ])
      for (const time of ["T00:00:00.000+00:00", "T23:59:59.999Z", "T24:00:00.000Z", "T12:60:00.000Z", "T12:00:60.000+00:00"]) same(day + time);
  });

  it("other texts go the way they always went", () => {
    for (const s of [
      "1764400000000",
      "2026-11-29T10:00:00.000+01:00",
      "2026-11-29T10:00:00Z",
      "2026-11-29",
      "2026-11-29 10:00:00",
      "0999-01-01T00:00:00.000Z",
      "x026-11-29T10:00:00.000Z",
      "2026-11-29T10:00:00.0a0Z",
      "2026-11-29T10:00:00.000+00:01",
      "not a date",
      "+002026-11-29T10:00:00.000Z",
    ])
      same(s);
  });
});
