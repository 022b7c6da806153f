import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client";
import { errorResponse } from "../http/route";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { receiveLineageRequest } from "./receive-lineage-request";
import { receivePublishesRequest } from "./receive-publishes-request";
import { receiveSourceCountsRequest } from "./receive-counts-request";
import { validEvent } from "./testing/broken-events";

// Two console instances = two clients with their own connection pools on one database. Producers
// retry, so one identical payload sent 40 times at once, spread over both, is ordinary traffic:
// it must be stored once and every answer must be 200 (issue 15: 19 of 40 answered 500).
const SENDS = 40;
const request = (path: string, body: string) =>
  new Request(`http://console.test${path}`, { method: "POST", body, headers: { "content-type": "application/json" } });
const answer = (p: Promise<Response>) => p.catch((e: unknown) => errorResponse(e));

describe.each(providersUnderTest())("%s: two consoles, one database, the same write 40 times at once", (provider) => {
  let t: TestDatabase;
  let second: Db;
  beforeEach(async () => {
    t = await createTestDatabase(provider);
    second = createDb(t.target);
  });
  afterEach(async () => {
    await second.$disconnect();
    await t.drop();
  });
  // SQLite is the single-console database (one process holds its writer lock at a time; two
  // clients in one test process would wait on each other synchronously): one client, 40 at once.
  const consoles = () => (provider === "postgresql" ? [t.db, second] : [t.db, t.db]);

  it("one OpenLineage event: stored once, every answer 200, exactly one of them not a duplicate", async () => {
    const body = JSON.stringify(validEvent());
    const answers = await Promise.all(
      Array.from({ length: SENDS }, (_, i) => answer(receiveLineageRequest(request("/api/v1/lineage", body), consoles()[i % 2]!))),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(SENDS).fill(200));
    const results = await Promise.all(answers.map((r) => r.json() as Promise<{ accepted: { duplicate: boolean }[] }>));
    expect(results.filter((r) => !r.accepted[0]!.duplicate)).toHaveLength(1);
    expect(await t.db.ingestedEvent.count()).toBe(1);
    expect(await t.db.publish.count()).toBe(1);
    expect(await t.db.task.count()).toBe(1);
  });

  it("one publish and one source count: stored once each, every answer 200", async () => {
    await t.db.dataset.create({
      data: {
        nodeId: "dataset:warehouse:orders",
        namespace: "warehouse",
        name: "orders",
        partitionDef: JSON.stringify({ kind: "time", grain: "day", start: "2026-08-01", timezone: "UTC" }),
        partitionsDeclared: true,
      },
    });
    const publish = JSON.stringify({
      dataset: { namespace: "warehouse", name: "orders" },
      unitKey: "2026-08-17",
      run: { externalId: "scheduled__2026-08-17", job: { namespace: "cron", name: "load_orders" } },
      publishedAt: "2026-08-18T02:10:00Z",
      inputVersion: "snap-0817",
      codeVersion: "v41",
      rowCount: 120,
    });
    const count = JSON.stringify({
      dataset: { namespace: "warehouse", name: "orders" },
      unitKey: "2026-08-17",
      rowCount: 120,
      measuredAt: "2026-08-18T02:00:00Z",
      source: "orders-db",
    });
    const answers = await Promise.all(
      Array.from({ length: SENDS }, (_, i) =>
        answer(
          i % 4 < 2
            ? receivePublishesRequest(request("/api/v1/publishes", publish), consoles()[i % 2]!)
            : receiveSourceCountsRequest(request("/api/v1/source-counts", count), consoles()[i % 2]!),
        ),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(SENDS).fill(200));
    expect(await t.db.publish.count()).toBe(1);
    expect(await t.db.run.count()).toBe(1);
    expect(await t.db.sourceCount.count()).toBe(1);
    expect(await t.db.dataset.count()).toBe(1);
  });
});
