/**
 * The operational order system the orders pipeline extracts from: a deterministic day of
 * orders per partition-day (an even count, 40..98, so "half the rows" is exact), generated
 * from seed 003's RNG keyed by the day. Immutable: the same day always yields the same rows.
 */
import { seededRng } from "../seeded-rng";

export interface RawOrder {
  order_id: string;
  customer_id: string;
  amount_cents: number;
  ordered_at: string;
}

const ORDERS_SEED = 20260518;
export const CUSTOMER_COUNT = 120;

export function ordersOfDay(day: string): RawOrder[] {
  const epochDay = Date.parse(`${day}T00:00:00Z`) / 86_400_000;
  if (!Number.isInteger(epochDay)) throw new Error(`not a day key: ${day}`);
  const r = seededRng(ORDERS_SEED + 131 * epochDay);
  const count = 40 + 2 * Math.floor(r() * 30);
  const compact = day.replaceAll("-", "");
  return Array.from({ length: count }, (_, i) => {
    const second = Math.floor((i + r()) * (86_400 / count));
    return {
      order_id: `o-${compact}-${String(i + 1).padStart(4, "0")}`,
      customer_id: `c${String(1 + Math.floor(r() * CUSTOMER_COUNT)).padStart(3, "0")}`,
      amount_cents: 500 + Math.floor(r() * 24_500),
      ordered_at: new Date(epochDay * 86_400_000 + second * 1000).toISOString(),
    };
  });
}
