/**
 * A duration in the two largest units that matter, each floored once from the same milliseconds:
 * 95 min → "1 h 35 min", 100 s → "1 min 40 s", 40 s → "40 s", 2.3 days → "2 d 7 h"; null → "—".
 * One function for every screen (history, the Close step), so the same span reads the same, and
 * parts shown side by side add up to the whole instead of each rounding its own way.
 */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  const sign = ms < 0 ? "−" : "";
  const s = Math.floor(Math.abs(ms) / 1000);
  const [d, h, m, sec] = [Math.floor(s / 86_400), Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60), s % 60];
  const two = (a: number, ua: string, b: number, ub: string) => (b > 0 ? `${a} ${ua} ${b} ${ub}` : `${a} ${ua}`);
  return sign + (d > 0 ? two(d, "d", h, "h") : h > 0 ? two(h, "h", m, "min") : m > 0 ? two(m, "min", sec, "s") : `${sec} s`);
}

/** The span between two instants (ISO strings), or "—" while it has not ended. */
export function formatSpan(from: string, to: string | null): string {
  return to === null ? "—" : formatDuration(Math.max(0, Date.parse(to) - Date.parse(from)));
}
