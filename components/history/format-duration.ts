/** 95 minutes → "1 h 35 min"; null → "—". */
export function formatDuration(ms: number | null): string {
  if (ms === null) return "—";
  const minutes = Math.round(ms / 60_000);
  if (Math.abs(minutes) < 60) return `${minutes} min`;
  const hours = Math.floor(Math.abs(minutes) / 60) * Math.sign(minutes);
  const rest = Math.abs(minutes) % 60;
  if (Math.abs(hours) < 48) return rest ? `${hours} h ${rest} min` : `${hours} h`;
  return `${(minutes / 1440).toFixed(1)} d`;
}
