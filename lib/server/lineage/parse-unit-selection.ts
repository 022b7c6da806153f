import type { PartitionSpace } from "@/lib/domain/partitions";
import { UnitSet, UnitSetBuilder } from "@/lib/domain/unit-set";
import { InvalidFieldError } from "@/lib/domain/errors";

/**
 * The `units` query parameter (docs/lineage.md): comma-separated keys and inclusive
 * `from..to` ranges, e.g. `2026-08-17,2026-08-20..2026-08-22`. Absent or empty means every
 * expected unit of the node. Each key is checked by the node's partition definition and a bad
 * one is refused with the domain's reason — an invalid key cannot seed a closure (seed 002).
 */
export function parseUnitSelection(space: PartitionSpace, text: string | undefined): UnitSet {
  const parts = (text ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0) return space.expected;
  const ranges: [number, number][] = [];
  for (const part of parts) {
    const [from, to, extra] = part.split("..");
    if (extra !== undefined) throw new InvalidFieldError("units", `"${part}" has more than one ".."`);
    const lo = ordinalOf(space, from!);
    const hi = to === undefined ? lo : ordinalOf(space, to);
    if (hi < lo) throw new InvalidFieldError("units", `"${part}" runs backwards (${to} is before ${from})`);
    ranges.push([lo, hi]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const builder = new UnitSetBuilder();
  for (const [lo, hi] of ranges) builder.add(lo, hi);
  return builder.build().intersect(space.expected.isEmpty ? UnitSet.EMPTY : space.expected);
}

function ordinalOf(space: PartitionSpace, key: string): number {
  const verdict = space.validate(key.trim());
  if (!verdict.valid) throw new InvalidFieldError("units", verdict.reason);
  return verdict.ordinal;
}
