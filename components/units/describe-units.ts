import type { KeyRange } from "@/lib/contracts/overview";

/** "2026-08-17", or "2026-08-17 → 2026-08-25" for a run of consecutive units. */
export function describeRange([from, to]: KeyRange): string {
  return from === to ? from : `${from} → ${to}`;
}

export function describeRanges(ranges: KeyRange[]): string {
  return ranges.map(describeRange).join(", ");
}
