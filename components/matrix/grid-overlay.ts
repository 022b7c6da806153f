import { NO_UNIT, type MatrixSection } from "@/lib/contracts/units";
import type { Bucket } from "./aggregate";

export type ShownRow = MatrixSection["rows"][number] & { shown: string };

/** The keys of the units a bucket of a row holds. */
export function unitsOf(section: MatrixSection, row: ShownRow, b: Bucket): string[] {
  const keys: string[] = [];
  for (let i = b.from; i <= b.to; i++) if (row.cells[i] !== NO_UNIT) keys.push(section.columns[i]!);
  return keys;
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
