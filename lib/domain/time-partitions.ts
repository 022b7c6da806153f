/**
 * Time-window partitions: hourly, daily, ISO-weekly and monthly units in an IANA zone.
 *
 * Key formats are fixed per grain, so a key names exactly one window and a window exactly
 * one key (two spellings of one day would be two units in the ledger):
 *   hour  `yyyy-MM-dd'T'HH`  wall clock in the zone, e.g. `2026-08-17T05`; input may carry an
 *         offset (`2026-08-17T05+02:00`, `…T05:00Z`) which must agree with the zone. The
 *         repeated hour when clocks go back is spelled with its offset the second time
 *         (`2026-10-25T02+01:00` in Europe/Berlin), so every hour keeps one key.
 *   day   `yyyy-MM-dd`       e.g. `2026-08-17`
 *   week  `YYYY-'W'ww`        ISO-8601 week (Monday start, week-year of the Thursday), e.g. `2026-W34`
 *   month `yyyy-MM`          e.g. `2026-08`
 *
 * A unit exists once its window has closed: with `asOf` = 2026-08-26T00:30Z, a daily UTC
 * definition starting 2026-05-18 has 100 units, the last being `2026-08-25`. It is *due* — expected
 * to be complete, so its absence is "missing" — once it has been closed for the definition's
 * `lateness` (default one grain): at 2026-08-26T00:30Z the last due day is `2026-08-24`, so a daily
 * load that runs at 02:00 is never missing at 00:30, and tomorrow never is.
 */
import { article } from "./words";
import type { KeyVerdict } from "./partitions";
import { formatOffset, instantsForWallClock, isValidTimeZone, offsetMinutesAt, parseOffset, startOfWallClock, wallClockMs } from "./time-zones";

export type TimeGrain = "hour" | "day" | "week" | "month";

export interface TimePartitionDef {
  readonly kind: "time";
  readonly grain: TimeGrain;
  /** Key of the first unit, in the grain's format. */
  readonly start: string;
  /** Key of the last unit (inclusive); open-ended when absent (then `asOf` bounds it). */
  readonly end?: string;
  readonly timezone: string;
  /**
   * How long after its window closes a unit is due: an ISO-8601 duration in days, hours and
   * minutes (`PT6H`, `P2D`, `P0D`). Absent: one grain (a day's unit is due a day after it ends).
   */
  readonly lateness?: string;
}

/** `P2D` → 172,800,000; `PT6H30M` → 23,400,000; null when it is not a duration of days, hours and minutes. */
export function parseLateness(text: string): number | null {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/.exec(text);
  if (!m || text === "P" || text.endsWith("T")) return null;
  const [days, hours, minutes] = [m[1], m[2], m[3]].map((v) => Number(v ?? 0)) as [number, number, number];
  return ((days * 24 + hours) * 60 + minutes) * 60_000;
}

const HOUR = 3_600_000;
const DAY = 86_400_000;
const pad = (n: number, w = 2) => String(n).padStart(w, "0");

const epochDay = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / DAY;

function ymdOfEpochDay(e: number): [number, number, number] {
  const d = new Date(e * DAY);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
}

// Day keys are formatted and parsed for every unit of every daily dataset on each computation
// (~10 % of a million-unit one): both directions are remembered for 1900-01-01 … 2199-12-31.
const FIRST_CACHED_DAY = -25_567;
const CACHED_DAYS = 109_572;
const DAY_KEYS: (string | undefined)[] = [];
const DAYS_OF_KEYS = new Map<string, number>();

const dayKey = (e: number) => {
  const i = e - FIRST_CACHED_DAY;
  const cached = i >= 0 && i < CACHED_DAYS ? DAY_KEYS[i] : undefined;
  if (cached !== undefined) return cached;
  const [y, m, d] = ymdOfEpochDay(e);
  const key = `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
  if (i >= 0 && i < CACHED_DAYS) DAY_KEYS[i] = key;
  return key;
};

/** ISO week index: Monday of week w is epoch day 7w-3 (1970-01-01 was a Thursday). */
const weekOfEpochDay = (e: number) => Math.floor((e + 3) / 7);

function weekKey(w: number): string {
  const thursday = w * 7;
  const [y] = ymdOfEpochDay(thursday);
  return `${pad(y, 4)}-W${pad(Math.floor((thursday - epochDay(y, 1, 1)) / 7) + 1)}`;
}

const monthOfEpochDay = (e: number) => {
  const [y, m] = ymdOfEpochDay(e);
  return y * 12 + m - 1;
};
const monthKey = (a: number) => `${pad(Math.floor(a / 12), 4)}-${pad((a % 12) + 1)}`;

type Parsed = { ok: true; abs: number } | { ok: false; code: "bad_format" | "wrong_offset" | "nonexistent_time"; reason: string };

const FORMAT: Record<TimeGrain, string> = { hour: "yyyy-MM-dd'T'HH", day: "yyyy-MM-dd", week: "YYYY-'W'ww", month: "yyyy-MM" };

function badFormat(key: string, grain: TimeGrain): Parsed {
  return { ok: false, code: "bad_format", reason: `"${key}" is not ${article(grain)} ${grain} key (expected ${FORMAT[grain]})` };
}

/** The ISO week key of a day key: "2026-08-17" → "2026-W34" (null for a key that is not a calendar day). */
export function isoWeekOfDay(day: string): string | null {
  const e = parseDay(day);
  return e === null ? null : weekKey(weekOfEpochDay(e));
}

/** The month an ISO week belongs to — its Thursday's: "2026-W35" → "2026-08" (null for a key that is not a week). */
export function monthOfIsoWeek(week: string): string | null {
  const w = parseWeek(week);
  return w === null ? null : monthKey(monthOfEpochDay(w * 7));
}

/** Whether `key` is a calendar day spelled yyyy-MM-dd ("2026-13-45" and "2026-02-30" are not). The one day check of every contract. */
export function isCalendarDay(key: string): boolean {
  return parseDay(key) !== null;
}

function parseDay(key: string): number | null {
  const cached = DAYS_OF_KEYS.get(key);
  if (cached !== undefined) return cached;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
  if (!m) return null;
  const e = epochDay(Number(m[1]), Number(m[2]), Number(m[3]));
  if (dayKey(e) !== key) return null;
  // Only valid keys are remembered, so what producers send cannot grow the map past the range.
  if (e >= FIRST_CACHED_DAY && e < FIRST_CACHED_DAY + CACHED_DAYS) DAYS_OF_KEYS.set(key, e);
  return e;
}

function parseWeek(key: string): number | null {
  const m = /^(\d{4})-W(\d{2})$/.exec(key);
  if (!m) return null;
  const w = weekOfEpochDay(epochDay(Number(m[1]), 1, 4)) + Number(m[2]) - 1;
  return Number(m[2]) >= 1 && weekKey(w) === key ? w : null;
}

function parseMonth(key: string): number | null {
  const m = /^(\d{4})-(\d{2})$/.exec(key);
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return null;
  return Number(m[1]) * 12 + Number(m[2]) - 1;
}

function parseHour(key: string, zone: string): Parsed {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})(?::00)?(Z|[+-]\d{2}:?\d{2})?$/.exec(key);
  const day = m ? parseDay(m[1]!) : null;
  if (!m || day === null || Number(m[2]) > 23) return badFormat(key, "hour");
  const wall = day * DAY + Number(m[2]) * HOUR;
  const instants = instantsForWallClock(wall, zone);
  if (m[3] !== undefined) {
    const offset = parseOffset(m[3]);
    if (offset === null) return badFormat(key, "hour");
    const ms = wall - offset * 60_000;
    if (offsetMinutesAt(ms, zone) !== offset) {
      const actual = instants.map((i) => formatOffset(offsetMinutesAt(i, zone))).join(" or ") || "none (clocks skip it)";
      return { ok: false, code: "wrong_offset", reason: `"${key}" says ${formatOffset(offset)} but ${zone} is ${actual} at that wall-clock hour` };
    }
    return { ok: true, abs: ms / HOUR };
  }
  if (instants[0] === undefined) {
    return { ok: false, code: "nonexistent_time", reason: `"${key}" does not exist in ${zone}: clocks skip that hour` };
  }
  return { ok: true, abs: instants[0] / HOUR };
}

function parseTimeKey(grain: TimeGrain, key: string, zone: string): Parsed {
  if (grain === "hour") return parseHour(key, zone);
  const abs = grain === "day" ? parseDay(key) : grain === "week" ? parseWeek(key) : parseMonth(key);
  return abs === null ? badFormat(key, grain) : { ok: true, abs };
}

function formatHour(ms: number, zone: string): string {
  const wall = wallClockMs(ms, zone);
  const base = `${dayKey(Math.floor(wall / DAY))}T${pad(new Date(wall).getUTCHours())}`;
  const repeated = wallClockMs(ms - HOUR, zone) === wall;
  return repeated ? `${base}${formatOffset(offsetMinutesAt(ms, zone))}` : base;
}

/** First and one-past-last local epoch day of a calendar unit. */
function localDays(grain: Exclude<TimeGrain, "hour">, abs: number): [number, number] {
  if (grain === "day") return [abs, abs + 1];
  if (grain === "week") return [abs * 7 - 3, abs * 7 + 4];
  const y = Math.floor(abs / 12);
  const m = (abs % 12) + 1;
  return [epochDay(y, m, 1), epochDay(y, m + 1, 1)];
}

function absOfLocalDay(grain: Exclude<TimeGrain, "hour">, e: number): number {
  return grain === "day" ? e : grain === "week" ? weekOfEpochDay(e) : monthOfEpochDay(e);
}

/**
 * A time definition resolved against `asOf`: ordinals 0..size-1 ↔ keys, plus the window
 * geometry that grain-changing mappings (day → week, month → day) are computed from.
 */
export class TimeSpace {
  readonly grain: TimeGrain;
  readonly zone: string;
  /** Absolute index of ordinal 0: epoch day / ISO week index / year*12+month / epoch hours. */
  readonly startAbs: number;
  readonly size: number;
  readonly isOpenEnded: boolean;
  /** Units 0..dueSize-1 are due (closed for at least the lateness); the rest exist but are not yet expected. */
  readonly dueSize: number;
  private readonly endOrdinal: number | undefined;

  constructor(
    readonly def: TimePartitionDef,
    asOfMs?: number,
  ) {
    if (!isValidTimeZone(def.timezone)) throw new Error(`unknown IANA time zone "${def.timezone}"`);
    this.grain = def.grain;
    this.zone = def.timezone;
    const start = parseTimeKey(def.grain, def.start, def.timezone);
    if (!start.ok) throw new Error(`partition start: ${start.reason}`);
    this.startAbs = start.abs;
    let last = Number.POSITIVE_INFINITY;
    if (def.end !== undefined) {
      const end = parseTimeKey(def.grain, def.end, def.timezone);
      if (!end.ok) throw new Error(`partition end: ${end.reason}`);
      last = end.abs - this.startAbs;
    }
    this.endOrdinal = Number.isFinite(last) ? last : undefined;
    if (asOfMs !== undefined) last = Math.min(last, this.lastClosedOrdinal(asOfMs));
    if (!Number.isFinite(last)) throw new Error(`open-ended ${def.grain} partitions need an asOf instant`);
    this.size = Math.max(0, last + 1);
    this.isOpenEnded = def.end === undefined;
    this.dueSize = asOfMs === undefined ? this.size : Math.min(this.size, Math.max(0, this.lastDueOrdinal(asOfMs) + 1));
  }

  private lastDueOrdinal(asOfMs: number): number {
    const end = this.endOrdinal ?? Number.POSITIVE_INFINITY;
    if (this.def.lateness === undefined) return Math.min(end, this.lastClosedOrdinal(asOfMs) - 1);
    const ms = parseLateness(this.def.lateness);
    if (ms === null) throw new Error(`lateness "${this.def.lateness}" is not an ISO-8601 duration of days, hours and minutes (e.g. PT6H, P2D)`);
    return Math.min(end, this.lastClosedOrdinal(asOfMs - ms));
  }

  private lastClosedOrdinal(asOfMs: number): number {
    if (this.grain === "hour") return Math.floor((asOfMs - this.startAbs * HOUR) / HOUR) - 1;
    const today = Math.floor(wallClockMs(asOfMs, this.zone) / DAY);
    return absOfLocalDay(this.grain, today) - 1 - this.startAbs;
  }

  keyAt(ordinal: number): string {
    const abs = this.startAbs + ordinal;
    switch (this.grain) {
      case "hour":
        return formatHour(abs * HOUR, this.zone);
      case "day":
        return dayKey(abs);
      case "week":
        return weekKey(abs);
      case "month":
        return monthKey(abs);
    }
  }

  validate(key: string): KeyVerdict {
    const parsed = parseTimeKey(this.grain, key, this.zone);
    if (!parsed.ok) return { valid: false, key, code: parsed.code, reason: parsed.reason };
    const ordinal = Math.round(parsed.abs - this.startAbs);
    if (ordinal < 0) {
      return { valid: false, key, code: "out_of_range", reason: `"${key}" is before the first unit ${this.def.start}` };
    }
    if (ordinal >= this.size) {
      const why = this.endOrdinal !== undefined && ordinal > this.endOrdinal ? `after the last unit ${this.def.end}` : "a window that has not closed yet";
      return { valid: false, key, code: "out_of_range", reason: `"${key}" is ${why}` };
    }
    return { valid: true, key: this.keyAt(ordinal), ordinal };
  }

  /** Calendar grains in one zone compare on local days; otherwise on instants. */
  isCalendar(): this is TimeSpace & { grain: Exclude<TimeGrain, "hour"> } {
    return this.grain !== "hour";
  }

  /** Local epoch-day span [first, pastLast) of ordinal (calendar grains only). */
  localDaySpan(ordinal: number): [number, number] {
    if (this.grain === "hour") throw new Error("hourly units have no local-day span");
    return localDays(this.grain, this.startAbs + ordinal);
  }

  ordinalAtLocalDay(e: number): number {
    if (this.grain === "hour") throw new Error("hourly units have no local-day span");
    return absOfLocalDay(this.grain, e) - this.startAbs;
  }

  /** Instant at which the unit's window opens. */
  windowStartMs(ordinal: number): number {
    if (this.grain === "hour") return (this.startAbs + ordinal) * HOUR;
    return startOfWallClock(this.localDaySpan(ordinal)[0] * DAY, this.zone);
  }

  /** The ordinal whose window contains the instant (may fall outside 0..size-1). */
  ordinalAtMs(ms: number): number {
    if (this.grain === "hour") return Math.floor(ms / HOUR - this.startAbs);
    return this.ordinalAtLocalDay(Math.floor(wallClockMs(ms, this.zone) / DAY));
  }
}
