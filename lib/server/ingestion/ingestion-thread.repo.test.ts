import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isDatabaseBusy, isUniqueViolation } from "../db/db-errors";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { DomainError } from "@/lib/domain/errors";
import { ingestionResponse } from "../http/ingestion-answers";
import { errorResponse, statusOfError } from "../http/route";
import { DatabaseConfigError } from "../db/database-url";
import type { Db } from "../repositories/database";
import { answerIngestion, outcomeOfAnswer, type IngestionAnswer, type IngestionCommand } from "./ingestion-handlers";
import { tableCounts } from "./testing/db-snapshot";
import { validEvent } from "./testing/broken-events";

// The ingestion thread's protocol (ingestion-thread.ts): a batch runs on the thread's database and
// comes back to the route as plain data — the use case's outcome, which the route answers as it
// does in process, the ingestion counters' gains, a refused body as the domain error it was, and
// a busy database or a lost race as the error the route retries.
const DAILY = JSON.stringify({ kind: "time", grain: "day", start: "2026-08-01", timezone: "UTC" });
const NOW = new Date("2026-08-20T00:00:00Z").getTime();
const TOKEN = { id: "token:loader", role: "operator" as const, source: "token" as const, namespaces: [] as string[] };
const publish = (unitKey: string) => ({
  dataset: { namespace: "warehouse", name: "orders" },
  unitKey,
  run: { externalId: `scheduled__${unitKey}`, job: { namespace: "cron", name: "load_orders" } },
  publishedAt: "2026-08-18T02:10:00Z",
  rowCount: 120,
});
let next = 0;
const command = (kind: IngestionCommand["kind"], body: unknown, submitter = TOKEN): IngestionCommand => ({
  id: ++next,
  kind,
  text: typeof body === "string" ? body : JSON.stringify(body),
  now: NOW,
  submitter,
});

describe.each(providersUnderTest())("the ingestion thread's answers on %s", (provider) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(provider);
    await t.db.dataset.create({
      data: { nodeId: "dataset:warehouse:orders", namespace: "warehouse", name: "orders", partitionDef: DAILY, partitionsDeclared: true },
    });
  });
  afterEach(async () => t.drop());

  it("answers a batch as the route does, as plain data, with what the counters gained", async () => {
    const shipped = new Map<string, number>();
    // Whatever the counters held before is shipped with the first answer.
    await answerIngestion(command("publishes", "[]"), t.db, shipped);
    const answer = await answerIngestion(command("publishes", [publish("2026-08-17"), publish("17 August")]), t.db, shipped);
    // What crosses to the main thread is structured-cloned: nothing but data.
    const crossed = structuredClone(answer) as IngestionAnswer;
    expect(crossed).toEqual(answer);
    expect(crossed).toMatchObject({ outcome: { kind: "partly_accepted" } });
    const res = ingestionResponse("publishes", outcomeOfAnswer<"publishes">(crossed));
    expect(res.status).toBe(207);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = (await res.json()) as { accepted: unknown[]; rejected: { index: number; issues: { path: string }[] }[]; written: { publishes: number } };
    expect(body.accepted).toHaveLength(1);
    expect(body.rejected).toEqual([{ index: 1, issues: [expect.objectContaining({ path: "body[1].unitKey" })] }]);
    expect(body.written.publishes).toBe(1);
    expect(crossed.ingested).toEqual(
      expect.arrayContaining([
        { labels: { kind: "publish", outcome: "accepted" }, value: 1 },
        { labels: { kind: "publish", outcome: "refused" }, value: 1 },
      ]),
    );
    expect(crossed.ingested).toHaveLength(2);
    expect(await t.db.publish.count()).toBe(1);
    // Nothing new counted: nothing shipped again.
    expect((await answerIngestion(command("publishes", [publish("2026-08-17")]), t.db, shipped)).ingested).toEqual([
      { labels: { kind: "publish", outcome: "accepted" }, value: 1 },
    ]);
    expect(await t.db.publish.count()).toBe(1);
  });

  it("folds OpenLineage events, one or a batch, as the lineage routes do", async () => {
    const one = ingestionResponse("lineage", outcomeOfAnswer<"lineage">(await answerIngestion(command("lineage", validEvent()), t.db, new Map())));
    expect(one.status).toBe(200);
    expect(((await one.json()) as { written: { events: number }; folding: string }).written.events).toBe(1);
    const crossed = structuredClone(await answerIngestion(command("lineage-batch", [validEvent(), { eventType: "COMPLETE" }]), t.db, new Map()));
    expect(crossed).toMatchObject({ outcome: { kind: "partly_accepted" } });
    const batch = ingestionResponse("lineage-batch", outcomeOfAnswer<"lineage-batch">(crossed));
    // The OpenLineage batch API: 200 with a partial_success status and the refused event by index.
    expect(batch.status).toBe(200);
    expect(await batch.json()).toMatchObject({ status: "partial_success", failed_events: [expect.objectContaining({ index: 1 })] });
    expect(await t.db.run.count()).toBeGreaterThan(0);
  });

  it("hands bad input back as the domain's refusal naming the field, answered 400, and writes nothing", async () => {
    const before = await tableCounts(t.db);
    const refusals: [string, unknown][] = [];
    for (const [kind, text, field] of [
      ["publishes", '{"dataset":', "body"],
      ["warehouse-counts", "", "body"],
    ] as const) {
      const crossed = structuredClone(await answerIngestion(command(kind, text), t.db, new Map()));
      expect(crossed, kind).toMatchObject({ refused: { problem: "invalid", message: expect.stringContaining(`${field}: `) } });
      const thrown = (() => {
        try {
          outcomeOfAnswer(crossed);
        } catch (e) {
          return e;
        }
      })();
      expect(thrown, kind).toBeInstanceOf(DomainError);
      expect(statusOfError(thrown), kind).toBe(400);
      refusals.push([kind, (thrown as Error).message]);
    }
    expect(refusals).toEqual([
      ["publishes", expect.stringMatching(/^body: malformed JSON/)],
      ["warehouse-counts", "body: a JSON body is required"],
    ]);
    // An item refused on its own is an outcome: nothing in, because it was malformed.
    const count = [{ dataset: { namespace: "warehouse", name: "orders" }, unitKey: "2026-08-17", measuredAt: "2026-08-18T00:00:00Z" }];
    const crossed = structuredClone(await answerIngestion(command("source-counts", count), t.db, new Map()));
    expect(crossed).toMatchObject({ outcome: { kind: "none_accepted", why: "malformed" } });
    const res = ingestionResponse("source-counts", outcomeOfAnswer<"source-counts">(crossed));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain("rowCount");
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it("keeps a namespace-limited token to its namespaces", async () => {
    const limited = { ...TOKEN, namespaces: ["elsewhere"] };
    const res = ingestionResponse(
      "publishes",
      outcomeOfAnswer<"publishes">(await answerIngestion(command("publishes", [publish("2026-08-17")], limited), t.db, new Map())),
    );
    expect(res.status).toBe(400);
    expect(await t.db.publish.count()).toBe(0);
  });
});

describe("an error handed back by the thread", () => {
  const answer = (message: string, code: string | null): IngestionAnswer => ({ id: 1, ingested: [], thrown: { message, code } });

  it("is still a busy database to the route's retries, or a lost race to its 409", () => {
    const busy = (() => {
      try {
        return outcomeOfAnswer(answer("SqliteError: database is locked", "SQLITE_BUSY"));
      } catch (e) {
        return e;
      }
    })();
    expect(isDatabaseBusy(busy)).toBe(true);
    expect(isUniqueViolation(busy)).toBe(false);
    let race: unknown;
    try {
      outcomeOfAnswer(answer("Unique constraint failed on the fields: (`id`)", "P2002"));
    } catch (e) {
      race = e;
    }
    expect(isUniqueViolation(race)).toBe(true);
    expect(isDatabaseBusy(race)).toBe(false);
  });

  it("is still a database configuration error to the route: 503, as route() answers it in process", async () => {
    // The thread's connection is opened from DATABASE_URL; a use case that reaches a database the
    // operator misconfigured must be answered as the one in process is, not as an internal error.
    const misconfigured = new Proxy({} as Db, {
      get() {
        throw new DatabaseConfigError("DATABASE_URL: cannot connect to postgresql://db/reparo: connection refused");
      },
    });
    const answered = await answerIngestion(command("publishes", [publish("2026-08-17")]), misconfigured, new Map());
    let thrown: unknown;
    try {
      outcomeOfAnswer(answered);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(DatabaseConfigError);
    const res = errorResponse(thrown);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: "database_unavailable", message: expect.stringContaining("DATABASE_URL") });
  });
});
