import type { SubsetFacet } from "@/lib/contracts/openlineage";

/**
 * Unit keys named by the subset facet of an input or output dataset. Accepts the released spec
 * shape (`subset.outputCondition` / `subset.inputCondition`, type "partition") and the partitioning
 * proposal's shapes (`subset.condition`, or the condition inline in `subset`). A partition's
 * `identifier` is its key when given; otherwise its dimensions spell it: one dimension → its
 * value (`2026-08-17`), several → `name=value` joined by `/` in the order sent
 * (`country=PL/business_date=2024-10-15`). Other condition types (location, compare) name no
 * partition and yield nothing.
 */
export function explicitPartitionKeys(subset: SubsetFacet | undefined): string[] {
  if (!subset) return [];
  const condition = subset.outputCondition ?? subset.inputCondition ?? subset.condition ?? subset;
  if (condition.type !== "partition" || !condition.partitions) return [];
  const keys: string[] = [];
  for (const p of condition.partitions) {
    const key = p.identifier ?? spellDimensions(p.dimensions ?? {});
    if (key) keys.push(key);
  }
  return [...new Set(keys)];
}

function spellDimensions(dimensions: Record<string, string | number | boolean>): string {
  const entries = Object.entries(dimensions);
  if (entries.length === 1) return String(entries[0]![1]);
  return entries.map(([k, v]) => `${k}=${String(v)}`).join("/");
}
