import type { PartitionDef } from "@/lib/domain/partitions";

const GRAIN_WORD = { hour: "hourly", day: "daily", week: "weekly", month: "monthly" } as const;

/** "daily 2026-05-18 → 2026-08-25", "monthly from 2026-01", "unpartitioned", "3 static keys". */
export function describePartitions(def: PartitionDef): string {
  switch (def.kind) {
    case "time":
      return `${def.end ? `${GRAIN_WORD[def.grain]} ${def.start} → ${def.end}` : `${GRAIN_WORD[def.grain]} from ${def.start}`}${def.lateness ? `, due ${def.lateness.slice(1).replace("T", "").toLowerCase()} after each closes` : ""}`;
    case "static":
      return `${def.keys.length} static keys`;
    case "dynamic":
      return `${def.registered.length} dynamic keys`;
    case "multi":
      return `by ${def.dimensions.map((d) => d.name).join(" × ")}`;
    case "none":
      return "unpartitioned";
  }
}
