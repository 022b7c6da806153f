import { describe, expect, it } from "vitest";
import { expectedUnits, keysOf, resolvePartitions, sameDefinition, validateKey, type PartitionDef } from "./partitions";
import { toKeyRanges } from "./unit-set";

const daily = resolvePartitions({ kind: "time", grain: "day", start: "2026-05-18", end: "2026-08-25", timezone: "UTC" });

describe("time partitions", () => {
  it("seed 000: the demo's 100 daily units, 2026-05-18 … 2026-08-25", () => {
    expect(daily.size).toBe(100);
    expect(daily.keyAt(0)).toBe("2026-05-18");
    expect(daily.keyAt(91)).toBe("2026-08-17");
    expect(daily.keyAt(99)).toBe("2026-08-25");
    expect(validateKey(daily, "2026-08-17")).toEqual({ valid: true, key: "2026-08-17", ordinal: 91 });
  });

  it("seed 002: a key in the wrong format is invalid (bad_format), not failed", () => {
    for (const key of ["2026-8-17", "20260817", "2026-02-30", "2026-08-17T00", "tenant=42/2026-08-17"]) {
      const v = validateKey(daily, key);
      expect(v.valid).toBe(false);
      if (!v.valid) expect(v.code).toBe("bad_format");
    }
  });

  it("seed 002: keys outside the definition's time range are out_of_range, with which side", () => {
    const before = validateKey(daily, "2026-05-17");
    const after = validateKey(daily, "2026-08-26");
    expect(before).toMatchObject({ valid: false, code: "out_of_range" });
    expect(after).toMatchObject({ valid: false, code: "out_of_range" });
    if (!before.valid && !after.valid) {
      expect(before.reason).toContain("before the first unit 2026-05-18");
      expect(after.reason).toContain("after the last unit 2026-08-25");
    }
  });

  it("open-ended definitions expect only windows closed by asOf", () => {
    const open = resolvePartitions({ kind: "time", grain: "day", start: "2026-05-18", timezone: "UTC" }, { asOf: "2026-08-26T00:30:00Z" });
    expect(open.size).toBe(100);
    expect(validateKey(open, "2026-08-26")).toMatchObject({ valid: false, code: "out_of_range" });
    expect(() => resolvePartitions({ kind: "time", grain: "day", start: "2026-05-18", timezone: "UTC" })).toThrow(/asOf/);
  });

  it("asOf is read in the definition's zone: 23:30Z on the 25th is already the 26th in Berlin", () => {
    const berlin = resolvePartitions({ kind: "time", grain: "day", start: "2026-05-18", timezone: "Europe/Berlin" }, { asOf: "2026-08-25T23:30:00Z" });
    expect(berlin.keyAt(berlin.size - 1)).toBe("2026-08-25");
  });

  it("ISO weeks: 2026-08-17 is a Monday in 2026-W34; 2025-W53 does not exist, 2020-W53 does", () => {
    const weekly = resolvePartitions({ kind: "time", grain: "week", start: "2026-W21", end: "2026-W35", timezone: "UTC" });
    expect(weekly.size).toBe(15);
    expect(validateKey(weekly, "2026-W34")).toMatchObject({ valid: true, ordinal: 13 });
    expect(validateKey(weekly, "2025-W53")).toMatchObject({ valid: false, code: "bad_format" });
    expect(validateKey(weekly, "2026-W53")).toMatchObject({ valid: false, code: "out_of_range" });
    const y2020 = resolvePartitions({ kind: "time", grain: "week", start: "2020-W52", end: "2021-W01", timezone: "UTC" });
    expect([...keysOf(y2020, y2020.expected)]).toEqual(["2020-W52", "2020-W53", "2021-W01"]);
  });

  it("monthly keys yyyy-MM", () => {
    const monthly = resolvePartitions({ kind: "time", grain: "month", start: "2025-11", end: "2026-02", timezone: "UTC" });
    expect([...keysOf(monthly, monthly.expected)]).toEqual(["2025-11", "2025-12", "2026-01", "2026-02"]);
    expect(validateKey(monthly, "2026-13")).toMatchObject({ valid: false, code: "bad_format" });
  });

  describe("hourly keys in Europe/Berlin", () => {
    const hourly = resolvePartitions({ kind: "time", grain: "hour", start: "2026-10-25T00", end: "2026-10-25T05", timezone: "Europe/Berlin" });

    it("the fall-back day has 7 hours between 00 and 05, the repeated 02 spelled with its offset", () => {
      expect([...keysOf(hourly, hourly.expected)]).toEqual([
        "2026-10-25T00",
        "2026-10-25T01",
        "2026-10-25T02",
        "2026-10-25T02+01:00",
        "2026-10-25T03",
        "2026-10-25T04",
        "2026-10-25T05",
      ]);
      expect(validateKey(hourly, "2026-10-25T02+01:00")).toMatchObject({ valid: true, ordinal: 3 });
      expect(validateKey(hourly, "2026-10-25T02+02:00")).toMatchObject({ valid: true, ordinal: 2, key: "2026-10-25T02" });
    });

    it("seed 002: an hourly key whose offset disagrees with the zone is wrong_offset", () => {
      const v = validateKey(hourly, "2026-10-25T04+02:00");
      expect(v).toMatchObject({ valid: false, code: "wrong_offset" });
      if (!v.valid) expect(v.reason).toContain("+01:00");
      expect(validateKey(hourly, "2026-10-25T01Z")).toMatchObject({ valid: false, code: "wrong_offset" });
      expect(validateKey(hourly, "2026-10-25T01:00+02:00")).toMatchObject({ valid: true, ordinal: 1, key: "2026-10-25T01" });
    });

    it("an hour skipped by the spring-forward jump is nonexistent_time", () => {
      const spring = resolvePartitions({ kind: "time", grain: "hour", start: "2026-03-29T00", end: "2026-03-29T05", timezone: "Europe/Berlin" });
      expect(spring.size).toBe(5);
      expect(validateKey(spring, "2026-03-29T02")).toMatchObject({ valid: false, code: "nonexistent_time" });
    });
  });

  it("an unknown IANA zone is rejected when the definition is resolved", () => {
    expect(() => resolvePartitions({ kind: "time", grain: "day", start: "2026-01-01", end: "2026-01-02", timezone: "Mars/Olympus" })).toThrow(/time zone/);
  });
});

describe("static, dynamic, multi-dimensional and unpartitioned", () => {
  it("seed 002: a key outside a static list is unknown_key", () => {
    const regions = resolvePartitions({ kind: "static", keys: ["eu", "us", "apac"] });
    expect(validateKey(regions, "us")).toEqual({ valid: true, key: "us", ordinal: 1 });
    expect(validateKey(regions, "latam")).toMatchObject({ valid: false, code: "unknown_key" });
  });

  it("seed 002: a deleted dynamic partition is deleted_key and leaves the expected set, keeping ordinals stable", () => {
    const tenants = resolvePartitions({ kind: "dynamic", registered: ["t1", "t2", "t3", "t4"], deleted: ["t2"] });
    expect(validateKey(tenants, "t2")).toMatchObject({ valid: false, code: "deleted_key" });
    expect(validateKey(tenants, "t3")).toMatchObject({ valid: true, ordinal: 2 });
    expect(validateKey(tenants, "t9")).toMatchObject({ valid: false, code: "unknown_key" });
    expect(tenants.expected.ranges()).toEqual([
      [0, 0],
      [2, 3],
    ]);
  });

  const multiDef: PartitionDef = {
    kind: "multi",
    dimensions: [
      { name: "tenant", def: { kind: "static", keys: ["41", "42"] } },
      { name: "day", def: { kind: "time", grain: "day", start: "2026-08-16", end: "2026-08-18", timezone: "UTC" } },
    ],
  };

  it("seed 000: multi-dimensional keys like tenant=42/2026-08-17, one tenant's days contiguous", () => {
    const multi = resolvePartitions(multiDef);
    expect(multi.size).toBe(6);
    expect(validateKey(multi, "tenant=42/2026-08-17")).toEqual({ valid: true, key: "tenant=42/2026-08-17", ordinal: 4 });
    expect(toKeyRanges(expectedUnits(multi, "tenant=42/2026-08-16", "tenant=42/2026-08-18"), multi)).toEqual([
      ["tenant=42/2026-08-16", "tenant=42/2026-08-18"],
    ]);
  });

  it("multi-dimensional validation names the dimension that rejected the key", () => {
    const multi = resolvePartitions(multiDef);
    const v = validateKey(multi, "tenant=43/2026-08-17");
    expect(v).toMatchObject({ valid: false, code: "unknown_key" });
    if (!v.valid) expect(v.reason).toMatch(/^dimension tenant:/);
    expect(validateKey(multi, "42/2026-08-17")).toMatchObject({ valid: false, code: "bad_format" });
    expect(validateKey(multi, "tenant=42/2026-08-19")).toMatchObject({ valid: false, code: "out_of_range" });
  });

  it("an unpartitioned dataset has exactly one unit, '*'", () => {
    const none = resolvePartitions({ kind: "none" });
    expect(none.size).toBe(1);
    expect(validateKey(none, "*")).toMatchObject({ valid: true, ordinal: 0 });
    expect(validateKey(none, "2026-08-17")).toMatchObject({ valid: false, code: "unknown_key" });
  });

  it("expectedUnits of a range, and a range bound that is itself invalid throws its reason", () => {
    expect(expectedUnits(daily, "2026-08-01", "2026-08-25").size).toBe(25);
    expect(() => expectedUnits(daily, "2026-08-01", "2026-09-01")).toThrow(/after the last unit/);
  });
});

describe("due units: closed for the definition's lateness", () => {
  const at = (iso: string) => Date.parse(iso);
  const daily = { kind: "time", grain: "day", start: "2026-08-01", timezone: "UTC" } as const;

  it("by default a unit is due one grain after its window closes: tomorrow, and today, are never missing", () => {
    const s = resolvePartitions(daily, { asOf: at("2026-08-26T00:30:00Z") });
    expect(s.size).toBe(25);
    expect(s.keyAt(s.due.max!)).toBe("2026-08-24");
    expect(s.due.size).toBe(24);
  });

  it("a lateness of hours makes a daily unit due that long after midnight", () => {
    const s = resolvePartitions({ ...daily, lateness: "PT6H" }, { asOf: at("2026-08-26T05:59:00Z") });
    expect(s.keyAt(s.due.max!)).toBe("2026-08-24");
    const later = resolvePartitions({ ...daily, lateness: "PT6H" }, { asOf: at("2026-08-26T06:00:00Z") });
    expect(later.keyAt(later.due.max!)).toBe("2026-08-25");
    expect(resolvePartitions({ ...daily, lateness: "P0D" }, { asOf: at("2026-08-26T00:00:00Z") }).due.size).toBe(25);
  });

  it("a bounded definition long past its end is due whole; a monthly one waits a month", () => {
    const bounded = resolvePartitions({ ...daily, end: "2026-08-25" }, { asOf: at("2026-12-01T00:00:00Z") });
    expect(bounded.due.size).toBe(25);
    const monthly = resolvePartitions({ kind: "time", grain: "month", start: "2026-01", timezone: "UTC" }, { asOf: at("2026-12-01T10:00:00Z") });
    expect([monthly.size, monthly.keyAt(monthly.due.max!)]).toEqual([11, "2026-10"]);
  });

  it("lateness does not change which units exist: two definitions differing only in lateness share ordinals", () => {
    expect(sameDefinition(daily, { ...daily, lateness: "PT2H" })).toBe(true);
    expect(() => resolvePartitions({ ...daily, lateness: "1 day" }, { asOf: at("2026-08-26T00:00:00Z") })).toThrow(/ISO-8601/);
  });
});
