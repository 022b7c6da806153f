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

const DAY = 86_400_000;

/** The ISO week of a yyyy-MM-dd key, e.g. "2026-08-17" → "2026-W34". */
export function isoWeekOf(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  const dow = (new Date(t).getUTCDay() + 6) % 7;
  const thursday = new Date(t - dow * DAY + 3 * DAY);
  const y = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(y, 0, 1)) / (7 * DAY)) + 1;
  return `${y}-W${String(week).padStart(2, "0")}`;
}

/** The month a week key belongs to: the month of its Thursday (ISO). */
function monthOfWeek(week: string): string {
  const [y, w] = [Number(week.slice(0, 4)), Number(week.slice(6))];
  const jan4 = Date.UTC(y, 0, 4);
  const monday = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY + (w - 1) * 7 * DAY;
  return new Date(monday + 3 * DAY).toISOString().slice(0, 7);
}

function groupOf(grain: MatrixSection["grain"], zoom: Zoom, key: string): string {
  if (zoom === "unit") return key;
  if (grain === "day" || grain === "hour") return zoom === "week" ? isoWeekOf(key.slice(0, 10)) : key.slice(0, 7);
  if (grain === "week" && zoom === "month") return monthOfWeek(key);
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
