import type { Completeness } from "@/lib/contracts/completeness";

const DAY = 86_400_000;

/** 3 days → "3.0 d", 2 hours → "2.0 h", 0 → "0 h": an age as the chart's labels write it. */
export function formatAge(ms: number): string {
  if (ms === 0) return "0 h";
  return ms >= 2 * DAY ? `${(ms / DAY).toFixed(1)} d` : `${(ms / 3_600_000).toFixed(1)} h`;
}

export interface FreshnessBar {
  unitKey: string;
  days: number | null;
  outlier: "fresher" | "older" | null;
  /**
   * Printed over the bar: every outlier, and any bar too short to see against the tallest. Its
   * space is a no-break space: recharts wraps a label to its bar's width, "0.0" over "h".
   */
  label: string | undefined;
}

/**
 * The chart's bars: a unit repaired minutes ago among days-old neighbours is the signal, yet its
 * bar is a sliver or nothing at all — so outliers and near-zero bars carry their age as a label
 * (and the chart draws them at a minimum height, FRESHNESS_MIN_BAR_PX).
 */
export function freshnessBars(freshness: Completeness["freshness"]): FreshnessBar[] {
  const max = freshness.maxAgeMs ?? 0;
  return freshness.units.map((u) => {
    const tiny = u.ageMs !== null && u.ageMs <= max * 0.02;
    return {
      unitKey: u.unitKey,
      days: u.ageMs === null ? null : u.ageMs / DAY,
      outlier: u.outlier,
      label: u.ageMs !== null && (u.outlier || tiny) ? formatAge(u.ageMs).replace(" ", "\u00a0") : undefined,
    };
  });
}

/** A published unit's bar is never shorter than this, so age 0 is still a visible mark; unpublished units draw none. */
export function minBarPx(days: number | null | undefined): number {
  return days === null || days === undefined ? 0 : 3;
}
