/**
 * Wall-clock ↔ instant conversion for IANA zones using only Intl (pure, in every runtime).
 *
 * Why: an hourly key `2026-10-25T02` in Europe/Berlin names two different hours (the clock
 * goes back), and `2026-03-29T02` names none (the clock jumps forward). Partition validation
 * has to tell those apart, so the offset of a zone at an instant must be exact.
 *
 * Example: offsetMinutesAt(Date.UTC(2026, 7, 17, 12), "Europe/Berlin") === 120.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(zone, f);
  }
  return f;
}

export function isValidTimeZone(zone: string): boolean {
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `ms` in `zone`, to the second, asked of Intl (exact, and slow: one formatting). */
function formattedWallClockMs(ms: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(zone).formatToParts(new Date(ms))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

/** Per zone, the offset (wall clock − instant) at the start of each hour asked about. */
const hourOffsets = new Map<string, Map<number, number>>();
const KEPT_HOURS_PER_ZONE = 100_000;

function offsetAtHourStart(hour: number, zone: string): number {
  let byHour = hourOffsets.get(zone);
  if (!byHour) hourOffsets.set(zone, (byHour = new Map()));
  let offset = byHour.get(hour);
  if (offset === undefined) {
    offset = formattedWallClockMs(hour * HOUR, zone) - hour * HOUR;
    if (byHour.size >= KEPT_HOURS_PER_ZONE) byHour.clear();
    byHour.set(hour, offset);
  }
  return offset;
}

/**
 * The wall clock of `ms` in `zone`, expressed as if it were UTC milliseconds (to the second, as
 * Intl formats it).
 *
 * Why the hours: formatting with Intl costs microseconds, and the unit states ask this of every
 * event and every unit, so Intl is asked once per zone and hour. A zone changes its offset at
 * most once within an hour, so when the offsets at the hour's two ends agree they hold for the
 * whole hour; an hour holding a change (a DST switch, a historical local mean time ending at an
 * odd second) is asked of Intl at the instant itself.
 */
export function wallClockMs(ms: number, zone: string): number {
  if (zone === "UTC" || zone === "Etc/UTC") return ms;
  const second = Math.floor(ms / 1000) * 1000;
  const hour = Math.floor(second / HOUR);
  const offset = offsetAtHourStart(hour, zone);
  if (offset === offsetAtHourStart(hour + 1, zone)) return second + offset;
  return formattedWallClockMs(second, zone);
}

export function offsetMinutesAt(ms: number, zone: string): number {
  const floored = Math.floor(ms / 1000) * 1000;
  return Math.round((wallClockMs(floored, zone) - floored) / MINUTE);
}

/**
 * Every instant whose wall clock in `zone` is `wallMs`: none in a spring-forward gap, two
 * in a fall-back overlap, one otherwise. Sorted ascending.
 */
export function instantsForWallClock(wallMs: number, zone: string): number[] {
  const candidates = new Set<number>();
  for (const probe of [wallMs - 14 * HOUR, wallMs + 14 * HOUR]) {
    const candidate = wallMs - offsetMinutesAt(probe, zone) * MINUTE;
    if (wallClockMs(candidate, zone) === wallMs) candidates.add(candidate);
  }
  return [...candidates].sort((a, b) => a - b);
}

/** The first instant at or after a wall clock (a midnight inside a DST gap starts later). */
export function startOfWallClock(wallMs: number, zone: string): number {
  const exact = instantsForWallClock(wallMs, zone);
  if (exact[0] !== undefined) return exact[0];
  return wallMs - offsetMinutesAt(wallMs - 14 * HOUR, zone) * MINUTE;
}

/** `+02:00`, `-05:30`, `+00:00`. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** Parses `Z`, `+02:00`, `-0530`; null if malformed. */
export function parseOffset(text: string): number | null {
  if (text === "Z") return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(text);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  if (Number(m[3]) > 59 || minutes > 18 * 60) return null;
  return m[1] === "-" ? -minutes : minutes;
}
