/**
 * Seed 003's fictional meter readings, ported exactly: 200 subscribers A001..A200, each with
 * a region, a type and a starting index; twelve monthly periods of 2026 whose index grows by
 * 4..49 m3 a month. The same seed gives the same 2,400 records in the same order.
 */
import { seededRng } from "../seeded-rng";

export const METER_SEED = 20260218;
export const METER_REGIONS = ["east", "west", "north", "south", "central"] as const;
export const METER_TYPES = ["residential", "commercial"] as const;
export const METER_PERIODS = Array.from({ length: 12 }, (_, i) => `2026-${String(i + 1).padStart(2, "0")}`);

export interface MeterReading {
  subscriber: string;
  period: string;
  region: string;
  type: string;
  index: number;
  unit: "m3";
}

let cached: MeterReading[] | null = null;

/** Every record of the source, subscriber by subscriber, period by period (seed 003's generate_source). */
export function meterSource(): readonly MeterReading[] {
  if (cached) return cached;
  const records: MeterReading[] = [];
  for (let i = 0; i < 200; i++) {
    const r = seededRng(METER_SEED + 37 * i);
    const region = METER_REGIONS[Math.floor(r() * 5)]!;
    const type = METER_TYPES[Math.floor(r() * 2)]!;
    let index = 10000 + Math.floor(r() * 60000);
    const subscriber = `A${String(i + 1).padStart(3, "0")}`;
    METER_PERIODS.forEach((period, p) => {
      const step = seededRng(METER_SEED + 101 * i + 7 * p);
      index += 4 + Math.floor(step() * 46);
      records.push({ subscriber, period, region, type, index, unit: "m3" });
    });
  }
  cached = records;
  return records;
}
