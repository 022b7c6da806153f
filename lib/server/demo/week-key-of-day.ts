import { resolvePartitions } from "@/lib/domain/partitions";

// Every ISO week since 1970: the domain's own week arithmetic names the week of a day.
const WEEKS = resolvePartitions({ kind: "time", grain: "week", start: "1970-W01", end: "2199-W01", timezone: "UTC" });

/** The ISO week key (e.g. 2026-W34) of a day key, spelled by lib/domain's time partitions. */
export function weekKeyOfDay(day: string): string {
  const ordinal = WEEKS.time!.ordinalAtMs(Date.parse(`${day}T00:00:00Z`));
  return WEEKS.keyAt(ordinal);
}
