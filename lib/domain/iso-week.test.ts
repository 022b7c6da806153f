import { describe, expect, it } from "vitest";
import { isCalendarDay, isoWeekOfDay, monthOfIsoWeek } from "./time-partitions";

// One ISO-week arithmetic for the matrix's week zoom, the history's weekly trend and the demo's
// weekly export keys (they had three copies of it).
describe("ISO weeks of days, and the month of a week", () => {
  it("names weeks across year boundaries, where the ISO year differs from the calendar year", () => {
    expect(isoWeekOfDay("2026-08-17")).toBe("2026-W34");
    expect(isoWeekOfDay("2027-01-01")).toBe("2026-W53");
    expect(isoWeekOfDay("2024-12-30")).toBe("2025-W01");
    expect(isoWeekOfDay("2021-01-03")).toBe("2020-W53");
    expect(isoWeekOfDay("2026-13-45")).toBeNull();
  });

  it("puts a week in the month of its Thursday", () => {
    expect(monthOfIsoWeek("2026-W35")).toBe("2026-08"); // Mon 24 Aug … Sun 30 Aug
    expect(monthOfIsoWeek("2026-W36")).toBe("2026-09"); // Mon 31 Aug, Thu 3 Sep
    expect(monthOfIsoWeek("2026-W53")).toBe("2026-12"); // Thu 31 Dec 2026
    expect(monthOfIsoWeek("2026-W54")).toBeNull();
  });

  it("agrees with Date's calendar on every day of four years", () => {
    const start = Date.UTC(2024, 0, 1);
    for (let i = 0; i < 4 * 366; i++) {
      const day = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
      expect(isCalendarDay(day)).toBe(true);
      const week = isoWeekOfDay(day)!;
      // The week's Thursday is in the week's ISO year, and the day is within 3 days of it.
      const t = Date.parse(`${day}T00:00:00Z`);
      const thursday = t + (3 - ((new Date(t).getUTCDay() + 6) % 7)) * 86_400_000;
      expect(week.slice(0, 4)).toBe(String(new Date(thursday).getUTCFullYear()));
    }
  });
});
