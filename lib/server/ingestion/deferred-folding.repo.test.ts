import { ledgerState } from "./testing/db-snapshot";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDb, type Db } from "../db/client";
import { pendingFoldLag } from "../repositories/ingestion/pending-folds";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { configuredFolding, foldAllPending, foldingInFlight } from "./fold-pending";
import { foldPendingEvents, ingestOpenLineageEvents, type Folding } from "./ingest-openlineage-events";
import { parseLineageBody } from "./parse-lineage-body";
import { receiveLineageRequest } from "../http/ingestion-requests";
import { fixtureEvents, lineageRequest } from "./testing/fixtures";
import { validEvent } from "./testing/broken-events";

// Deferred folding (REPARO_INGEST_FOLD=deferred) acknowledges events once stored and writes what
// they imply in the fold job. Whatever the order and grouping of the requests, and however many
// consoles fold at once, the result must be exactly what inline folding writes.
const NOW = new Date("2026-12-01T00:00:00Z");
const EVENTS = [
  ...fixtureEvents("openlineage/compat_airflow_3dags.ndjson"),
  ...fixtureEvents("marquez/apples.ndjson"),
  ...fixtureEvents("openlineage/dbt_ol_postgres_build_events.json"),
];
/** Requests of 7 events: a run's START and COMPLETE often land in different requests, as in production. */
const REQUESTS = Array.from({ length: Math.ceil(EVENTS.length / 7) }, (_, i) => EVENTS.slice(i * 7, i * 7 + 7));
const TOKEN = { id: "token:airflow", role: "operator" as const, source: "token" as const, namespaces: [] };

async function send(db: Db, folding: Folding): Promise<void> {
  for (const events of REQUESTS) {
    const parsed = parseLineageBody(events.map((e) => JSON.stringify(e)).join("\n"), NOW);
    expect(parsed.refused).toEqual([]);
    const outcome = await ingestOpenLineageEvents(db, parsed.events, NOW, TOKEN, folding);
    expect(outcome.folding).toBe(folding);
  }
}

describe.each(providersUnderTest())("%s: deferred folding", (provider) => {
  let inline: TestDatabase;
  let deferred: TestDatabase;
  beforeEach(async () => {
    [inline, deferred] = await Promise.all([createTestDatabase(provider), createTestDatabase(provider)]);
  });
  afterEach(async () => {
    await Promise.all([inline.drop(), deferred.drop()]);
  });

  it("stores and queues the events at once, writes nothing else until the fold; the fold writes exactly what inline folding does", async () => {
    await send(inline.db, "inline");
    await send(deferred.db, "deferred");
    const stored = await deferred.db.ingestedEvent.count();
    expect(stored).toBe(await inline.db.ingestedEvent.count());
    expect((await pendingFoldLag(deferred.db)).events).toBe(stored);
    expect(await deferred.db.run.count()).toBe(0);
    expect(await deferred.db.publish.count()).toBe(0);

    // Small steps: a run's events are taken by different steps, as by different consoles.
    while ((await foldPendingEvents(deferred.db, 5)).events > 0);
    expect(await pendingFoldLag(deferred.db)).toEqual({ events: 0, oldestAcceptedAt: null });
    expect(await deferred.db.run.count()).toBe(await inline.db.run.count());
    expect(await ledgerState(deferred.db)).toEqual(await ledgerState(inline.db));
    // Folding again finds nothing queued and changes nothing.
    expect(await foldAllPending(deferred.db)).toBe(0);
  });

  it("one step folds a whole batch set-based — a run's events together, a changed re-send of one event, job and dataset events — as inline folding does", async () => {
    // The same run id sent twice with different bodies (a producer's retry with another producer
    // string): two stored events of one run, folded in one step as inline folds them.
    const retried = { ...validEvent("01936893-9751-7150-bbde-0000000000c1"), producer: "retry-of-the-same-event" };
    const jobEvent = {
      eventTime: "2026-08-18T03:00:00.000Z",
      producer: "hand-written",
      job: { namespace: "loaders", name: "declared_job" },
      inputs: [{ namespace: "postgres://db:5432", name: "raw.customers" }],
      outputs: [{ namespace: "postgres://db:5432", name: "public.customers" }],
    };
    const datasetEvent = { eventTime: "2026-08-18T03:00:00.000Z", producer: "hand-written", dataset: { namespace: "s3://lake", name: "landing/orders" } };
    const extra = [validEvent("01936893-9751-7150-bbde-0000000000c1"), retried, jobEvent, datasetEvent].map((e) => JSON.stringify(e)).join("\n");
    for (const [db, folding] of [
      [inline.db, "inline"],
      [deferred.db, "deferred"],
    ] as const) {
      await send(db, folding);
      const parsed = parseLineageBody(extra, NOW);
      expect(parsed.refused).toEqual([]);
      await ingestOpenLineageEvents(db, parsed.events, NOW, TOKEN, folding);
    }
    const queued = (await pendingFoldLag(deferred.db)).events;
    expect(queued).toBe(EVENTS.length + 4);
    expect(await foldPendingEvents(deferred.db, 100_000)).toMatchObject({ events: queued });
    expect(await pendingFoldLag(deferred.db)).toEqual({ events: 0, oldestAcceptedAt: null });
    expect(await deferred.db.dataset.count({ where: { nodeId: "dataset:s3://lake:landing/orders" } })).toBe(1);
    expect(await deferred.db.lineageEdge.count({ where: { task: { nodeId: "job:loaders:declared_job" } } })).toBe(2);
    expect(await ledgerState(deferred.db)).toEqual(await ledgerState(inline.db));
  });

  it("a step failing midway rolls back whole: its events stay queued, nothing of theirs is written, and the next step folds them", async () => {
    await send(inline.db, "inline");
    await send(deferred.db, "deferred");
    const queued = (await pendingFoldLag(deferred.db)).events;
    // The step writes runs and attempts, then fails on the publishes' table.
    await deferred.db.$executeRawUnsafe(`ALTER TABLE "Publish" RENAME TO "PublishAway"`);
    try {
      await expect(foldPendingEvents(deferred.db, 100_000)).rejects.toThrow();
    } finally {
      await deferred.db.$executeRawUnsafe(`ALTER TABLE "PublishAway" RENAME TO "Publish"`);
    }
    expect((await pendingFoldLag(deferred.db)).events).toBe(queued);
    expect(await deferred.db.run.count()).toBe(0);
    expect(await deferred.db.attempt.count()).toBe(0);
    expect(await deferred.db.unitChange.count()).toBe(0);
    expect(await foldAllPending(deferred.db)).toBe(queued);
    expect(await ledgerState(deferred.db)).toEqual(await ledgerState(inline.db));
  });

  it("a re-sent event is a duplicate and is not queued again", async () => {
    const body = JSON.stringify(validEvent());
    const parsed = () => parseLineageBody(body, NOW).events;
    const first = await ingestOpenLineageEvents(deferred.db, parsed(), NOW, TOKEN, "deferred");
    const again = await ingestOpenLineageEvents(deferred.db, parsed(), NOW, TOKEN, "deferred");
    expect(first.accepted).toEqual([{ index: 0, duplicate: false }]);
    expect(again.accepted).toEqual([{ index: 0, duplicate: true }]);
    expect((await pendingFoldLag(deferred.db)).events).toBe(1);
    expect(await foldAllPending(deferred.db)).toBe(1);
    expect(await deferred.db.publish.count()).toBe(1);
  });

  it("a console accepting events holds its folds back until the requests pause, or the oldest event reaches the limit", async () => {
    // Accepted now (the pace compares the queue's acceptance times with the clock).
    await ingestOpenLineageEvents(deferred.db, parseLineageBody(JSON.stringify(validEvent()), NOW).events, new Date(), TOKEN, "deferred");
    // Requests keep coming (one every 50 ms), the limit far away: nothing is folded meanwhile.
    // The fold reads the pace each time it decides whether to hold back (twice a decision): six
    // reads are three decisions, the later ones each after a hold, all with requests still coming.
    let acceptedAt = Date.now();
    let reads = 0;
    const busy = {
      get lastAcceptedAt() {
        reads += 1;
        return acceptedAt;
      },
      maxWaitMs: 600_000,
    };
    const requests = setInterval(() => (acceptedAt = Date.now()), 50);
    const folding = foldAllPending(deferred.db, () => undefined, busy);
    try {
      await vi.waitFor(() => expect(reads).toBeGreaterThanOrEqual(6), { timeout: 15_000, interval: 20 });
      expect((await pendingFoldLag(deferred.db)).events).toBe(1);
    } finally {
      clearInterval(requests);
    }
    // The requests pause: the fold goes.
    expect(await folding).toBe(1);
    expect(await deferred.db.publish.count()).toBe(1);

    // However busy the console, an event that has waited the limit is folded.
    await ingestOpenLineageEvents(
      deferred.db,
      parseLineageBody(JSON.stringify(validEvent("01936893-9751-7150-bbde-0000000000b2")), NOW).events,
      new Date(),
      TOKEN,
      "deferred",
    );
    const limited = { lastAcceptedAt: Date.now() + 600_000, maxWaitMs: 1 };
    expect(await foldAllPending(deferred.db, () => undefined, limited)).toBe(1);
  });

  it("a person who may not publish held units is folded inline (each request checked as it comes)", async () => {
    const operator = { id: "ana", role: "operator" as const, source: "session" as const, namespaces: [] };
    const outcome = await ingestOpenLineageEvents(deferred.db, parseLineageBody(JSON.stringify(validEvent()), NOW).events, NOW, operator, "deferred");
    expect(outcome.folding).toBe("inline");
    expect(outcome.written.publishes).toBe(1);
    expect((await pendingFoldLag(deferred.db)).events).toBe(0);
  });

  it("POST /api/v1/lineage with REPARO_INGEST_FOLD=deferred answers `folding: deferred` and the console folds right after", async () => {
    const before = process.env.REPARO_INGEST_FOLD;
    process.env.REPARO_INGEST_FOLD = "deferred";
    try {
      const res = await receiveLineageRequest(lineageRequest(JSON.stringify(validEvent())), deferred.db, NOW, TOKEN);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ folding: "deferred", written: { events: 1, publishes: 0 } });
      await foldingInFlight(deferred.db);
      expect((await pendingFoldLag(deferred.db)).events).toBe(0);
      expect(await deferred.db.publish.count()).toBe(1);
    } finally {
      if (before === undefined) delete process.env.REPARO_INGEST_FOLD;
      else process.env.REPARO_INGEST_FOLD = before;
    }
  });
});

describe.runIf(providersUnderTest().includes("postgresql"))("postgresql: two consoles folding one queue at once", () => {
  let inline: TestDatabase;
  let deferred: TestDatabase;
  let second: Db;
  beforeEach(async () => {
    [inline, deferred] = await Promise.all([createTestDatabase("postgresql"), createTestDatabase("postgresql")]);
    second = createDb(deferred.target);
  });
  afterEach(async () => {
    await second.$disconnect();
    await Promise.all([inline.drop(), deferred.drop()]);
  });

  it("each event is folded once, and the result is inline folding's", async () => {
    await send(inline.db, "inline");
    await send(deferred.db, "deferred");
    // Steps of 3 from both consoles at once: their claims interleave over the same runs.
    const drain = async (db: Db) => {
      let n = 0;
      for (let step; (step = await foldPendingEvents(db, 3)).events > 0;) n += step.events;
      return n;
    };
    const [a, b] = await Promise.all([drain(deferred.db), drain(second)]);
    expect(a + b).toBe(await deferred.db.ingestedEvent.count());
    expect(await ledgerState(deferred.db)).toEqual(await ledgerState(inline.db));
  });
});

describe("REPARO_INGEST_FOLD", () => {
  it("is inline unless set to deferred; anything else names the variable", () => {
    expect(configuredFolding({})).toBe("inline");
    expect(configuredFolding({ REPARO_INGEST_FOLD: "deferred" })).toBe("deferred");
    expect(configuredFolding({ REPARO_INGEST_FOLD: "inline" })).toBe("inline");
    expect(() => configuredFolding({ REPARO_INGEST_FOLD: "later" })).toThrow(/REPARO_INGEST_FOLD/);
  });
});
