/**
 * The CRM's current customer list, the source of the dim_customers snapshot: country and
 * segment per customer, deterministic. There is no history here — which is exactly why a join
 * against it is as-of-now (seed 000).
 */
import { seededRng } from "../seeded-rng";
import { CUSTOMER_COUNT } from "./orders-source";

export interface Customer {
  customer_id: string;
  country: string;
  segment: string;
}

const COUNTRIES = ["DE", "FR", "NL", "ES", "IT"];
const SEGMENTS = ["consumer", "smb", "enterprise"];

export function currentCustomers(): Customer[] {
  return Array.from({ length: CUSTOMER_COUNT }, (_, i) => {
    const r = seededRng(7_000_003 + 17 * i);
    return {
      customer_id: `c${String(i + 1).padStart(3, "0")}`,
      country: COUNTRIES[Math.floor(r() * COUNTRIES.length)]!,
      segment: SEGMENTS[Math.floor(r() * SEGMENTS.length)]!,
    };
  });
}
