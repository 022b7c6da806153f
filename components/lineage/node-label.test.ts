import { describe, expect, it } from "vitest";
import { nodeLabel } from "./node-label";

const upTo = (n: number) => (text: string) => text.length <= n;

describe("nodeLabel", () => {
  it("a dbt resource shows its own name, without its project or a test's hash", () => {
    expect(nodeLabel("model.jaffle_shop.stg_orders", upTo(5))).toBe("stg_orders");
    expect(nodeLabel("test.jaffle_shop.accepted_values_stg_payments_payment_method__credit_card.3c3820f278", upTo(10))).toBe(
      "accepted_values_stg_payments_payment_method__credit_card",
    );
    expect(nodeLabel("source.jaffle_shop.raw.orders", upTo(5))).toBe("raw.orders");
    expect(nodeLabel("model.reparo_lab_orders.revenue_daily", upTo(100))).toBe("revenue_daily");
  });

  it("any other long name keeps its end, cut at a separator", () => {
    expect(nodeLabel("postgres.public.stg_orders", upTo(20))).toBe("…public.stg_orders");
    expect(nodeLabel("stg_orders", upTo(100))).toBe("stg_orders");
    // Not a dbt id: an unknown resource type, or no name after the project.
    expect(nodeLabel("table.warehouse.orders", upTo(8))).toBe("…orders");
    expect(nodeLabel("model.jaffle_shop", upTo(100))).toBe("model.jaffle_shop");
  });
});
