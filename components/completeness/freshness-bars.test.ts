import { describe, expect, it } from "vitest";
import { formatAge, freshnessBars, minBarPx } from "./freshness-bars";

const DAY = 86_400_000;

describe("freshnessBars", () => {
  it("labels the outliers and the bars too short to see, and no other bar", () => {
    const bars = freshnessBars({
      units: [
        { unitKey: "2026-08-08", ageMs: 9 * DAY, outlier: null },
        { unitKey: "2026-08-09", ageMs: 8 * DAY, outlier: null },
        { unitKey: "2026-08-10", ageMs: 0, outlier: "fresher" },
        { unitKey: "2026-08-11", ageMs: 6 * DAY, outlier: null },
        { unitKey: "2026-08-17", ageMs: null, outlier: null },
      ],
      medianAgeMs: 7 * DAY,
      minAgeMs: 0,
      maxAgeMs: 9 * DAY,
      outliers: [],
      unpublished: ["2026-08-17"],
    });
    expect(bars.map((b) => [b.unitKey, b.days, b.label])).toEqual([
      ["2026-08-08", 9, undefined],
      ["2026-08-09", 8, undefined],
      ["2026-08-10", 0, "0\u00a0h"],
      ["2026-08-11", 6, undefined],
      ["2026-08-17", null, undefined],
    ]);
  });

  it("draws age 0 at a visible minimum height and an unpublished unit not at all", () => {
    expect(minBarPx(0)).toBe(3);
    expect(minBarPx(null)).toBe(0);
    expect(formatAge(2 * 3_600_000)).toBe("2.0 h");
    expect(formatAge(3 * DAY)).toBe("3.0 d");
  });
});
