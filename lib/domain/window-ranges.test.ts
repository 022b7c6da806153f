import { describe, expect, it } from "vitest";
import { resolvePartitions } from "./partitions";
import { windowRanges } from "./window-ranges";

const at = (iso: string) => Date.parse(iso);
const daily = resolvePartitions({ kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-31", timezone: "UTC" });
const monthlyParis = resolvePartitions({ kind: "time", grain: "month", start: "2026-01", end: "2026-12", timezone: "Europe/Paris" });
const hourly = resolvePartitions({ kind: "time", grain: "hour", start: "2026-08-17T00", end: "2026-08-18T00", timezone: "UTC" });
const regions = resolvePartitions({ kind: "static", keys: ["eu", "us"] });

describe("windowRanges: units of a time partitioning as ranges of consecutive windows", () => {
  it.each([
    ["no unit", daily, [], []],
    [
      "one day",
      daily,
      ["2026-08-17"],
      [{ first: "2026-08-17", last: "2026-08-17", startMs: at("2026-08-17T00:00Z"), lastStartMs: at("2026-08-17T00:00Z"), endMs: at("2026-08-18T00:00Z") }],
    ],
    [
      // 08-17 ─ 08-18 adjacent: one range; 08-23 alone; order and repeats do not matter
      "days out of order, repeated, with a gap",
      daily,
      ["2026-08-23", "2026-08-18", "2026-08-17", "2026-08-18"],
      [
        { first: "2026-08-17", last: "2026-08-18", startMs: at("2026-08-17T00:00Z"), lastStartMs: at("2026-08-18T00:00Z"), endMs: at("2026-08-19T00:00Z") },
        { first: "2026-08-23", last: "2026-08-23", startMs: at("2026-08-23T00:00Z"), lastStartMs: at("2026-08-23T00:00Z"), endMs: at("2026-08-24T00:00Z") },
      ],
    ],
    [
      // Paris months open at local midnight: 03 spans the change to summer time
      "months in a zone with summer time",
      monthlyParis,
      ["2026-02", "2026-03"],
      [{ first: "2026-02", last: "2026-03", startMs: at("2026-01-31T23:00Z"), lastStartMs: at("2026-02-28T23:00Z"), endMs: at("2026-03-31T22:00Z") }],
    ],
    [
      "hours across midnight",
      hourly,
      ["2026-08-17T22", "2026-08-17T23", "2026-08-18T00"],
      [
        {
          first: "2026-08-17T22",
          last: "2026-08-18T00",
          startMs: at("2026-08-17T22:00Z"),
          lastStartMs: at("2026-08-18T00:00Z"),
          endMs: at("2026-08-18T01:00Z"),
        },
      ],
    ],
  ] as const)("%s", (_name, space, keys, expected) => {
    expect(windowRanges(space, keys)).toEqual(expected);
  });

  it("is null for units that are not time windows: a static partitioning, a key outside the space", () => {
    expect(windowRanges(regions, ["eu", "us"])).toBeNull();
    expect(windowRanges(daily, ["2026-08-17", "2026-09-02"])).toBeNull();
    expect(windowRanges(daily, ["yesterday"])).toBeNull();
  });
});
