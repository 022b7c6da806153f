import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { instantsForWallClock, offsetMinutesAt, wallClockMs } from "./time-zones";

const formats = new Map<string, Intl.DateTimeFormat>();
/** What Intl says, asked every time: the reference the kept hourly offsets must agree with. */
function intlWallClock(ms: number, zone: string): number {
  const f =
    formats.get(zone) ??
    new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
  formats.set(zone, f);
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

// DST both ways, half-hour DST (Lord Howe), a 45-minute offset, local mean times ending at odd
// seconds (Amsterdam until 1937, Monrovia until 1972), a skipped day (Apia, 2011-12-30).
const ZONES = [
  "Europe/Berlin",
  "America/New_York",
  "Australia/Lord_Howe",
  "Asia/Kathmandu",
  "Europe/Amsterdam",
  "Africa/Monrovia",
  "America/St_Johns",
  "Pacific/Apia",
];

describe("wallClockMs", () => {
  it("agrees with Intl at every instant, across DST switches and odd historical offsets (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: Date.UTC(1890, 0, 1), max: Date.UTC(2100, 0, 1) }), (zone, ms) => {
        expect(wallClockMs(ms, zone)).toBe(intlWallClock(ms, zone));
      }),
      { numRuns: 5_000, seed: 20_261_206 },
    );
  });

  it("agrees with Intl second by second around a switch, inside the hour that holds it", () => {
    // Europe/Berlin 2026-10-25 03:00 CEST → 02:00 CET at 01:00 UTC; Amsterdam's LMT (+00:19:32) ended
    // 1937-07-01 00:00 local; Lord Howe goes back 30 minutes at 2026-04-05 02:00 local; Kathmandu
    // moved from +05:30 to +05:45 at 1986-01-01 00:00 local, half-way through a UTC hour.
    const switches: [string, number][] = [
      ["Asia/Kathmandu", Date.UTC(1985, 11, 31, 18, 30)],
      ["Europe/Berlin", Date.UTC(2026, 9, 25, 1)],
      ["Europe/Berlin", Date.UTC(2026, 2, 29, 1)],
      ["Europe/Amsterdam", Date.UTC(1937, 5, 30, 23, 40, 28)],
      ["Australia/Lord_Howe", Date.UTC(2026, 3, 4, 15)],
    ];
    for (const [zone, at] of switches)
      for (let ms = at - 3_700_000; ms <= at + 3_700_000; ms += 997)
        expect(wallClockMs(ms, zone), `${zone} ${new Date(ms).toISOString()}`).toBe(intlWallClock(ms, zone));
  });

  it("keeps what the callers read: offsets, and the two instants of a repeated hour", () => {
    expect(offsetMinutesAt(Date.UTC(2026, 7, 17, 12), "Europe/Berlin")).toBe(120);
    expect(offsetMinutesAt(Date.UTC(2026, 7, 17, 12), "Asia/Kathmandu")).toBe(345);
    expect(instantsForWallClock(Date.UTC(2026, 9, 25, 2, 30), "Europe/Berlin")).toEqual([Date.UTC(2026, 9, 25, 0, 30), Date.UTC(2026, 9, 25, 1, 30)]);
    expect(instantsForWallClock(Date.UTC(2026, 2, 29, 2, 30), "Europe/Berlin")).toEqual([]);
    expect(wallClockMs(Date.UTC(2026, 7, 17, 12, 0, 0, 999), "Europe/Berlin")).toBe(Date.UTC(2026, 7, 17, 14));
  });
});
