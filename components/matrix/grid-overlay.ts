import { NO_UNIT, codeOfState, type MatrixSection } from "@/lib/contracts/units";
import type { Bucket } from "./aggregate";

const MISSING = codeOfState("missing");

export type ShownRow = MatrixSection["rows"][number] & { shown: string };

/** The keys of the units a bucket of a row holds. */
export function unitsOf(section: MatrixSection, row: ShownRow, b: Bucket): string[] {
  const keys: string[] = [];
  for (let i = b.from; i <= b.to; i++) if (row.cells[i] !== NO_UNIT) keys.push(section.columns[i]!);
  return keys;
}

/**
 * The last column where some row has a unit with records (anything but no-unit and missing): an
 * open-ended feed's axis runs to today, and its right end can be nothing but expected units
 * nobody has written yet, so the grid opens here, on the latest data. -1 when no row has any.
 */
export function lastColumnWithData(rows: readonly { shown: string }[]): number {
  let last = -1;
  for (const r of rows) {
    for (let c = r.shown.length - 1; c > last; c--) {
      const code = r.shown[c];
      if (code !== NO_UNIT && code !== MISSING) {
        last = c;
        break;
      }
    }
  }
  return last;
}

/** Where a unit is on screen: its row and the bucket holding it, or null when not shown. */
export function locate(section: MatrixSection, rows: ShownRow[], buckets: Bucket[], dataset: string, unit: string): { r: number; c: number } | null {
  const r = rows.findIndex((x) => x.nodeId === dataset);
  const i = section.columns.indexOf(unit);
  if (r < 0 || i < 0) return null;
  const c = buckets.findIndex((b) => b.from <= i && i <= b.to);
  return c < 0 ? null : { r, c };
}

/** One flag per bucket of the selection's row: does the bucket hold a selected unit. */
export function selectedBuckets(section: MatrixSection, buckets: Bucket[], keys: readonly string[]): Uint8Array {
  const index = new Map(section.columns.map((k, i) => [k, i]));
  const chosen = new Uint8Array(section.columns.length);
  for (const k of keys) {
    const i = index.get(k);
    if (i !== undefined) chosen[i] = 1;
  }
  const out = new Uint8Array(buckets.length);
  buckets.forEach((b, c) => {
    for (let i = b.from; i <= b.to; i++) if (chosen[i]) out[c] = 1;
  });
  return out;
}
