import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../../testing/test-database";
import { deliveredAlertIds, recordDelivery, type DeliveryRecord } from "./alert-deliveries";

const at = new Date("2026-09-01T00:00:00Z");
const delivery = (alertId: string, status: DeliveryRecord["status"], tryNumber = 1): DeliveryRecord => ({
  alertId,
  rule: "empty",
  url: "https://hooks.example.com/reparo",
  tryNumber,
  status,
  httpStatus: status === "delivered" ? 204 : 503,
  error: status === "delivered" ? null : "503",
  body: "{}",
  at,
});

describe.each(providersUnderTest())("alerts already delivered (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
    for (const d of [delivery("a", "delivered"), delivery("b", "failed"), delivery("b", "delivered", 2), delivery("c", "delivered"), delivery("d", "failed")]) {
      await recordDelivery(t.db, d);
    }
  }, 120_000);
  afterAll(async () => t?.drop());

  it("names the asked alerts with a delivered try, whether fewer or more deliveries exist than alerts asked about", async () => {
    // More ids than delivered rows: every delivered row is read and matched.
    expect([...(await deliveredAlertIds(t.db, ["a", "b", "d", "x", "y"]))].sort()).toEqual(["a", "b"]);
    // Fewer: the ids are looked up.
    expect([...(await deliveredAlertIds(t.db, ["c"]))]).toEqual(["c"]);
    expect([...(await deliveredAlertIds(t.db, ["d", "x"]))]).toEqual([]);
    expect(await deliveredAlertIds(t.db, [])).toEqual(new Set());
  });
});
