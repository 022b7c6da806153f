import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postLineage } from "@/app/api/v1/lineage/route";
import { POST as postBatch } from "@/app/api/v1/lineage/batch/route";
import { POST as postPublishes } from "@/app/api/v1/publishes/route";
import { POST as postSourceCounts } from "@/app/api/v1/source-counts/route";
import { POST as postWarehouseCounts } from "@/app/api/v1/warehouse-counts/route";
import { POST as postDbt } from "@/app/api/v1/import/dbt/route";
import { POST as postNote } from "@/app/api/v1/incidents/[id]/notes/route";
import { POST as postIncident } from "@/app/api/v1/incidents/route";
import { GET as verify } from "@/app/api/v1/audit/verify/route";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { REJECTIONS_PER_REQUEST } from "../repositories/ingestion/ingested-events";
import { isDatabaseBusy } from "./busy";
import { errorResponse } from "./route";

/**
 * Issue 13's fuzz corpus at the ingestion and mutation routes: deep JSON, huge arrays, NDJSON
 * junk, lone surrogates, far-future times. Every answer is a 4xx naming the body (never a 5xx),
 * and one junk request adds at most REJECTIONS_PER_REQUEST + 1 rows to the rejection log.
 */
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let t: TestDatabase;
const saved = process.env.DATABASE_URL;

const send = (h: Handler, body: string, params: Record<string, string> = {}) =>
  h(new Request("http://console.test/api/v1/x", { method: "POST", body, headers: { "content-type": "application/json", "x-reparo-user": "demo-commander" } }), {
    params: Promise.resolve(params),
  });

const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
const CORPUS: [string, string][] = [
  ["10,000 levels of nesting (20 KB)", deep(10_000)],
  ["an object nested 300 levels", '{"a":'.repeat(300) + "1" + "}".repeat(300)],
  ["100,000 integers (200 KB)", `[${Array(100_000).fill("1").join(",")}]`],
  ["50,000 NDJSON lines of x (100 KB)", "x\n".repeat(50_000)],
  ["9,000 NDJSON lines of junk", "{nope\n".repeat(9_000)],
  ["a lone surrogate in a string", '{"eventType":"COMPLETE","job":{"namespace":"\\ud800","name":"x"}}'],
  [
    "a far-future event",
    JSON.stringify({
      eventType: "COMPLETE",
      eventTime: "9999-12-31T00:00:00Z",
      producer: "https://x",
      schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
      run: { runId: "0190a8f3-1c2d-7e4f-8a9b-0c1d2e3f4a5b" },
      job: { namespace: "a", name: "b" },
    }),
  ],
  ["a NUL character", '{"x":"\\u0000"}'],
  ["an empty body", ""],
  ["a JSON string", '"hello"'],
];

describe("the edge: what a hostile or broken client sends", () => {
  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
    process.env.DATABASE_URL = t.target.url;
    await t.db.user.create({ data: { id: "demo-commander", displayName: "Dana", role: "commander" } });
  });
  afterAll(async () => {
    process.env.DATABASE_URL = saved;
    await t.drop();
  });

  const routes: [string, Handler][] = [
    ["lineage", postLineage],
    ["lineage/batch", postBatch],
    ["publishes", postPublishes],
    ["source-counts", postSourceCounts],
    ["warehouse-counts", postWarehouseCounts],
    ["import/dbt", postDbt],
    ["incidents", postIncident],
  ];
  for (const [route, handler] of routes) {
    it(`${route}: every item of the corpus is a 4xx, never a 5xx, and the rejection log grows by at most ${REJECTIONS_PER_REQUEST + 1} rows a request`, async () => {
      for (const [name, body] of CORPUS) {
        const before = await t.db.rejectedEvent.count();
        const res = await send(handler, body);
        expect(res.status, `${route} ← ${name}: ${(await res.clone().text()).slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${route} ← ${name}`).toBeLessThan(500);
        const text = await res.text();
        expect(text.length, `${route} ← ${name}: answer size`).toBeLessThan(64_000);
        expect((await t.db.rejectedEvent.count()) - before, `${route} ← ${name}: rejection rows`).toBeLessThanOrEqual(REJECTIONS_PER_REQUEST + 1);
      }
    });
  }

  it("the limits are named: nesting and the number of events", async () => {
    expect((await (await send(postLineage, deep(10_000))).json()).message).toBe("body: nested deeper than 256 levels");
    expect((await (await send(postLineage, "x\n".repeat(50_000))).json()).message).toBe("body: at most 10000 events per request (50000 lines)");
    expect((await (await send(postBatch, `[${Array(100_000).fill("1").join(",")}]`)).json()).message).toBe("body: an array longer than 10000 elements");
  });

  it("a note with a lone surrogate is refused with a 400 naming the field; the chain stays verified", async () => {
    const res = await send(postNote, JSON.stringify({ note: "x" }).replace('"x"', '"\\ud800 x"'), { id: "nope" });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/^body\.note/);
    expect((await (await verify(new Request("http://console.test/api/v1/audit/verify"), { params: Promise.resolve({}) })).json()).ok).toBe(true);
  });

  it("a busy database is a 503 with Retry-After, not a 500", async () => {
    for (const e of [
      Object.assign(new Error("Operation has timed out"), { code: "P1008" }),
      { code: "P2034", message: "write conflict" },
      new Error("could not serialize access due to concurrent update"),
    ]) {
      expect(isDatabaseBusy(e)).toBe(true);
      const res = errorResponse(e);
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("2");
    }
    expect(isDatabaseBusy(new Error("no such table"))).toBe(false);
  });
});
