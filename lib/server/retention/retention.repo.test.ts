import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { receiveLineageRequest } from "../http/ingestion-requests";
import { validEvent } from "../ingestion/testing/broken-events";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { applyRetention, readRetentionPolicy } from "./apply-retention";

const send = (t: TestDatabase, event: unknown, now: Date) =>
  receiveLineageRequest(new Request("http://console.test/api/v1/lineage", { method: "POST", body: JSON.stringify(event) }), t.db, now);

describe.each(providersUnderTest())("retention of raw events and rejections (%s)", (provider) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(provider);
  });
  afterEach(async () => t.drop());

  it("drops old bodies only: a re-sent copy is still a duplicate, and a late event does not undo the run it recorded", async () => {
    const received = new Date("2026-08-18T03:00:00Z");
    const complete = validEvent();
    expect((await send(t, complete, received)).status).toBe(200);
    await t.db.rejectedEvent.create({ data: { receivedAt: received, endpoint: "/api/v1/lineage", fieldPath: "body", reason: "x", body: "" } });
    const later = new Date(received.getTime() + 100 * 86_400_000);
    expect(await applyRetention(t.db, later, { eventsDays: 90, rejectionsDays: 30 })).toEqual({ events: 1, rejections: 1 });
    expect((await t.db.ingestedEvent.findFirstOrThrow()).body).toBe("");
    // A producer's retry of the same event: a duplicate, nothing changes.
    const again = await send(t, complete, later);
    expect(((await again.json()) as { accepted: { duplicate: boolean }[] }).accepted[0]!.duplicate).toBe(true);
    // A late START of the same run is stored, but the run stays as its pruned COMPLETE said.
    const late = { ...complete, eventType: "START", eventTime: "2026-08-18T02:00:00.000Z", outputs: [] };
    expect((await send(t, late, later)).status).toBe(200);
    expect(await t.db.run.findFirstOrThrow()).toMatchObject({ status: "succeeded" });
    expect(await t.db.publish.count()).toBe(1);
    expect(await t.db.ingestedEvent.count()).toBe(2);
  });

  it("reads its policy from the environment and refuses a bad value naming the variable", () => {
    expect(readRetentionPolicy({})).toEqual({ eventsDays: 90, rejectionsDays: 30 });
    expect(readRetentionPolicy({ REPARO_RETAIN_EVENTS_DAYS: "0", REPARO_RETAIN_REJECTIONS_DAYS: "7" })).toEqual({ eventsDays: 0, rejectionsDays: 7 });
    expect(() => readRetentionPolicy({ REPARO_RETAIN_EVENTS_DAYS: "ten" })).toThrow(/REPARO_RETAIN_EVENTS_DAYS/);
  });
});
