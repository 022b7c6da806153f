/**
 * Producer instants Reparo believes: not before 1970, not more than a day ahead of the server's
 * clock (clock skew between hosts is minutes, not days). An event dated 9999 would be the newest
 * of everything forever — every edge it opens, every publish it makes, would outrank the truth —
 * and nothing could undo it, so it is refused at the boundary, naming the field.
 */
export const EARLIEST_INSTANT_MS = Date.UTC(1970, 0, 1);
export const MAX_AHEAD_MS = 24 * 3_600_000;

export function implausibleInstant(iso: string, now: Date): string | null {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "is not an instant";
  if (at < EARLIEST_INSTANT_MS) return `is before 1970-01-01T00:00:00Z (${iso})`;
  const latest = now.getTime() + MAX_AHEAD_MS;
  if (at > latest) return `is more than a day ahead of the server clock (${iso}; the latest accepted now is ${new Date(latest).toISOString()})`;
  return null;
}
