import type { PartitionSpace } from "./partitions";
import { UnitSet } from "./unit-set";

/**
 * A run of consecutive time windows: its first and last unit, when the first window opens
 * (`startMs`), when the last one opens (`lastStartMs`: an orchestrator's inclusive logical dates
 * end there) and when it closes (`endMs`: a half-open event-time range ends there).
 */
export interface WindowRange {
  readonly first: string;
  readonly last: string;
  readonly startMs: number;
  readonly lastStartMs: number;
  readonly endMs: number;
}

/**
 * Units of a time partitioning as ranges of consecutive windows, in time order: the units' set
 * (UnitSet, so consecutive ordinals are one range) read back as windows. An orchestrator is asked
 * once per range, never once per unit. Null when the space is not a time partitioning or a key
 * is not one of its units: such units cannot be addressed by time.
 *
 * Example, daily in UTC: ["2026-08-18", "2026-08-17", "2026-08-23"] →
 *   [{ first: "2026-08-17", last: "2026-08-18", startMs: 08-17T00:00Z, lastStartMs: 08-18T00:00Z, endMs: 08-19T00:00Z },
 *    { first: "2026-08-23", last: "2026-08-23", startMs: 08-23T00:00Z, lastStartMs: 08-23T00:00Z, endMs: 08-24T00:00Z }]
 */
export function windowRanges(space: PartitionSpace, keys: readonly string[]): WindowRange[] | null {
  const time = space.time;
  if (!time) return null;
  const ordinals: number[] = [];
  for (const key of keys) {
    const verdict = space.validate(key);
    if (!verdict.valid) return null;
    ordinals.push(verdict.ordinal);
  }
  return UnitSet.fromOrdinals(ordinals)
    .ranges()
    .map(([lo, hi]) => ({
      first: space.keyAt(lo),
      last: space.keyAt(hi),
      startMs: time.windowStartMs(lo),
      lastStartMs: time.windowStartMs(hi),
      endMs: time.windowStartMs(hi + 1),
    }));
}
