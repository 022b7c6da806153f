import { isoWeekOfDay } from "@/lib/domain/time-partitions";

/** Nearest-rank percentile (p in 0..100) of the values; null for none. p50 is the median. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  if (p === 50) {
    const mid = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  }
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** The ISO week of an instant (UTC), e.g. 2026-W34 — lib/domain's week arithmetic, as every screen names weeks. */
export function isoWeekOf(at: Date): string {
  return isoWeekOfDay(at.toISOString().slice(0, 10))!;
}

export function diffMs(later: Date | null, earlier: Date | null): number | null {
  return later && earlier ? later.getTime() - earlier.getTime() : null;
}
