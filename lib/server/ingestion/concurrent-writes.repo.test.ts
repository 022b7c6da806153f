import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client";
import { errorResponse } from "../http/route";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { receiveLineageRequest, receivePublishesRequest, receiveSourceCountsRequest } from "../http/ingestion-requests";
import { validEvent } from "./testing/broken-events";

// Two console instances = two clients with their own connection pools on one database. Producers
// retry, so one identical payload sent 40 times at once, spread over both, is ordinary traffic:
// it must be stored once and every answer must be 200 (issue 15: 19 of 40 answered 500).
const SENDS = 40;
const request = (path: string, body: string) =>
  new Request(`http://console.test${path}`, { method: "POST", body, headers: { "content-type": "application/json" } });
const answer = (p: Promise<Response>) => p.catch((e: unknown) => errorResponse(e));

// A run's events often arrive at once on different consoles (an OpenLineage client sends them
// from different threads; a retry overtakes). Each request folds the run from every event stored
// for it, so a fold that cannot see the other request's event yet must not be the one that stays:
// the run ends succeeded with its publish, whichever commits first.
const CODE = {
  _producer: "https://github.com/apache/airflow/tree/providers-openlineage/1.14.0",
  _schemaURL: "https://openlineage.io/spec/facets/1-0-1/SourceCodeLocationJobFacet.json",
  type: "git",
  url: "https://github.com/acme/pipelines",
  version: "4f2a9c1",
};

describe.each(providersUnderTest())("%s: two consoles, one database, writes at once", (provider) => {
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

  it("every run ends as its COMPLETE says, with one attempt and one publish", async () => {
    const RUNS = 12;
    const runIds = Array.from({ length: RUNS }, (_, i) => `01936893-9751-7150-bbde-${String(i + 1).padStart(12, "0")}`);
    const events = runIds.map((runId, i) => {
      const complete = validEvent(runId);
      (complete.run as { facets: { nominalTime: { nominalStartTime: string } } }).facets.nominalTime.nominalStartTime =
        `2026-08-${String(i + 1).padStart(2, "0")}T00:00:00Z`;
      const at = (minute: number) => `2026-08-18T02:0${minute}:00.000Z`;
      return {
        start: { ...complete, eventType: "START", eventTime: at(0), outputs: [] },
        // RUNNING tells the code version, so a fold of START + RUNNING alone changes the run.
        running: {
          ...complete,
          eventType: "RUNNING",
          eventTime: at(5),
          outputs: [],
          job: { ...(complete.job as object), facets: { sourceCodeLocation: CODE } },
        },
        complete,
      };
    });
    const send = (e: object, db: Db) => answer(receiveLineageRequest(request("/api/v1/lineage", JSON.stringify(e)), db));
    // Each run is known (its START stored) before its last two events race.
    for (const e of events) expect((await send(e.start, t.db)).status).toBe(200);
    // Either may be sent, and commit, first: half the pairs each way.
    const answers = await Promise.all(
      events.flatMap((e, i) =>
        i % 2 === 0 ? [send(e.running, consoles()[0]!), send(e.complete, consoles()[1]!)] : [send(e.complete, consoles()[0]!), send(e.running, consoles()[1]!)],
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(RUNS * 2).fill(200));
    const runs = await t.db.run.findMany({ where: { externalId: { in: runIds } }, select: { status: true, codeVersion: true } });
    expect(runs.map((r) => `${r.status} ${r.codeVersion}`)).toEqual(Array(RUNS).fill("succeeded 4f2a9c1"));
    expect(await t.db.attempt.count({ where: { status: "succeeded" } })).toBe(RUNS);
    expect(await t.db.publish.count()).toBe(RUNS);
  });
});
