import { isoWeekOfDay, monthOfIsoWeek } from "@/lib/domain/time-partitions";
import { worseState } from "@/lib/domain/unit-state";
import { NO_UNIT, codeOfState, stateOfCode, type MatrixSection } from "@/lib/contracts/units";

export type Zoom = "unit" | "week" | "month";

/** One column on screen: a unit, or a run of units (a week, a month) shown as its worst state. */
export interface Bucket {
  label: string;
  /** Column indices [from, to] of the section this bucket covers. */
  from: number;
  to: number;
}

function groupOf(grain: MatrixSection["grain"], zoom: Zoom, key: string): string {
  if (zoom === "unit") return key;
  if (grain === "day" || grain === "hour") return zoom === "week" ? (isoWeekOfDay(key.slice(0, 10)) ?? key) : key.slice(0, 7);
  if (grain === "week" && zoom === "month") return monthOfIsoWeek(key) ?? key;
  return key;
}

/** Zoom levels that change something for a section: days and hours roll up, weeks to months. */
export function zoomsFor(grain: MatrixSection["grain"]): Zoom[] {
  return grain === "day" || grain === "hour" ? ["unit", "week", "month"] : grain === "week" ? ["unit", "month"] : ["unit"];
}

export function bucketsOf(section: Pick<MatrixSection, "grain" | "columns">, zoom: Zoom): Bucket[] {
  const effective = zoomsFor(section.grain).includes(zoom) ? zoom : "unit";
  const out: Bucket[] = [];
  section.columns.forEach((key, i) => {
    const label = groupOf(section.grain, effective, key);
    const last = out[out.length - 1];
    if (last && last.label === label) last.to = i;
    else out.push({ label, from: i, to: i });
  });
  return out;
}

/**
 * A row at a zoom level: one character per bucket, the worst state inside (lib/domain's
 * precedence), or NO_UNIT when the bucket holds no unit of this dataset.
 */
export function aggregateRow(cells: string, buckets: Bucket[]): string {
  if (buckets.length === cells.length) return cells;
  let out = "";
  for (const b of buckets) {
    let worst = null as ReturnType<typeof stateOfCode>;
    for (let i = b.from; i <= b.to; i++) {
      const s = stateOfCode(cells[i]!);
      if (s) worst = worst === null ? s : worseState(worst, s);
    }
    out += worst === null ? NO_UNIT : codeOfState(worst);
  }
  return out;
}
