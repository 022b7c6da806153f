import type { PartitionSpace } from "@/lib/domain/partitions";
import type { UnitSet } from "@/lib/domain/unit-set";

const DAY_MS = 86_400_000;
const MAX_RANGES_SPELLED = 4;

/**
 * A unit set in words, the way an incident channel reads it:
 *   "2026-08-17" · "2026-08-17 → 2026-08-25 (9 units)" · "all of 2026-08" · "2026-W34" ·
 *   "the whole dataset (unpartitioned)".
 */
export function describeUnitSet(units: UnitSet, space: PartitionSpace): string {
  if (space.def.kind === "none") return "the whole dataset (unpartitioned)";
  if (units.isEmpty) return "no units";
  const ranges = units.ranges();
  const spelled = ranges.slice(0, MAX_RANGES_SPELLED).map(([lo, hi]) => describeRange(lo, hi, space));
  if (ranges.length > MAX_RANGES_SPELLED) spelled.push(`and ${ranges.length - MAX_RANGES_SPELLED} more ranges (${units.size} units in all)`);
  return spelled.join(", ");
}

function describeRange(lo: number, hi: number, space: PartitionSpace): string {
  const from = space.keyAt(lo);
  if (lo === hi) return from;
  const to = space.keyAt(hi);
  const count = hi - lo + 1;
  if (space.time?.grain === "day" && isWholeMonths(from, to)) {
    const [fromMonth, toMonth] = [from.slice(0, 7), to.slice(0, 7)];
    return fromMonth === toMonth ? `all of ${fromMonth}` : `all of ${fromMonth} → ${toMonth} (${count} units)`;
  }
  return `${from} → ${to} (${count} units)`;
}

/** A day range from the first of a month to the last day of a month. */
function isWholeMonths(from: string, to: string): boolean {
  if (!from.endsWith("-01")) return false;
  const next = new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS);
  return next.getUTCDate() === 1;
}
