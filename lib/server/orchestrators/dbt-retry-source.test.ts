import { describe, expect, it } from "vitest";
import { compositeKey } from "@/lib/domain/composite-key";
import { retrySourceOf } from "./dbt-retry-source";

describe("retrySourceOf", () => {
  it("takes the invocation's failed and skipped pairs, once each", () => {
    const attempts = [
      { taskNodeId: "model.shop.stg_orders", unitKey: "2024-03-01", status: "succeeded" },
      { taskNodeId: "model.shop.fct_orders", unitKey: "2024-03-01", status: "failed" },
      { taskNodeId: "model.shop.fct_orders", unitKey: "2024-03-01", status: "failed" },
      { taskNodeId: "model.shop.revenue", unitKey: "2024-03-01", status: "skipped" },
    ];
    expect(retrySourceOf("inv-1", attempts)).toEqual({
      invocation: "inv-1",
      pairs: [compositeKey("model.shop.fct_orders", "2024-03-01"), compositeKey("model.shop.revenue", "2024-03-01")],
    });
  });

  it("is null when everything succeeded: dbt retry would have nothing to do", () => {
    expect(retrySourceOf("inv-1", [{ taskNodeId: "model.shop.stg_orders", unitKey: "2024-03-01", status: "succeeded" }])).toBeNull();
  });
});
