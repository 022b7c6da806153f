import { describe, expect, it } from "vitest";
import { nameTail } from "./name-tail";

/** Fits up to `n` characters: a monospace header. */
const upTo = (n: number) => (text: string) => text.length <= n;

describe("nameTail", () => {
  it("keeps a name that fits whole", () => {
    expect(nameTail("stg_orders", upTo(10))).toBe("stg_orders");
  });

  it("cuts a long name at its start, only after a separator, keeping the end that tells names apart", () => {
    expect(nameTail("postgres.public.raw_customers", upTo(22))).toBe("…public.raw_customers");
    expect(nameTail("postgres.public.raw_customers", upTo(20))).toBe("…raw_customers");
    expect(nameTail("refresh_executive_dashboard", upTo(20))).toBe("…executive_dashboard");
    expect(nameTail("reparo_lab_warehouse.dbt_lab:revenue_daily", upTo(14))).toBe("…revenue_daily");
    // Whole qualified parts go first: "…raw_customers" before "…customers", which stg_customers also ends with.
    expect(nameTail("postgres.public.raw_customers", upTo(14))).toBe("…raw_customers");
    expect(nameTail("postgres.public.raw_customers", upTo(13))).toBe("…customers");
  });

  it("never cuts inside a word: a last word too long on its own is given whole, for the CSS ellipsis to cut", () => {
    expect(nameTail("model.jaffle_shop.customersandordersandpayments", upTo(12))).toBe("…customersandordersandpayments");
    expect(nameTail("averyveryverylongname", upTo(5))).toBe("averyveryverylongname");
  });
});
