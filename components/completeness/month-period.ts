import type { DatasetOption } from "@/lib/contracts/completeness";

/**
 * A calendar month as a period of the dataset's own keys, clipped to its expected range so
 * "August 2026" on a dataset that ends 2026-08-25 asks about 08-01 … 08-25, not an invalid key.
 * Null when the grain has no month reading (hourly, weekly, static keys: type the keys).
 */
export function monthPeriod(d: DatasetOption, month: string): { from: string; to: string } | null {
  if (!/^\d{4}-\d{2}$/.test(month)) return null;
  let from: string;
  let to: string;
  if (d.grain === "day") {
    const [y, m] = month.split("-").map(Number) as [number, number];
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    [from, to] = [`${month}-01`, `${month}-${String(last).padStart(2, "0")}`];
  } else if (d.grain === "month") {
    [from, to] = [month, month];
  } else {
    return null;
  }
  if (d.firstKey && from < d.firstKey) from = d.firstKey;
  if (d.lastKey && to > d.lastKey) to = d.lastKey;
  return from <= to ? { from, to } : null;
}

/**
 * The month a period is, when it is exactly one month of the dataset's keys (as monthPeriod
 * would give it): so the month field keeps "2026-08" after checking 08-01 … 08-25, and stays
 * blank for a period that is not a month.
 */
export function monthOfPeriod(d: DatasetOption, from: string | undefined, to: string | undefined): string {
  if (!from || !to) return "";
  const month = from.slice(0, 7);
  const p = monthPeriod(d, month);
  return p && p.from === from && p.to === to ? month : "";
}
