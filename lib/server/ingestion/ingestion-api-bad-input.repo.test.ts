import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as putPartitions } from "@/app/api/v1/datasets/[id]/partitions/route";
import { POST as postDbt } from "@/app/api/v1/import/dbt/route";
import { POST as postPublishes } from "@/app/api/v1/publishes/route";
import { POST as postSourceCounts } from "@/app/api/v1/source-counts/route";
import { PUT as putTask } from "@/app/api/v1/tasks/[id]/route";
import { POST as postLineage } from "@/app/api/v1/lineage/route";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { LEDGER_MAX_BODY_BYTES } from "./read-ingestion-batch";
import { ingestionState } from "./testing/db-snapshot";
import { fixtureText } from "./testing/fixtures";

let t: TestDatabase;
const saved = process.env.DATABASE_URL;
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

const call = (handler: Handler, method: string, body: string, params: Record<string, string> = {}, user = "ingest-bot") =>
  handler(new Request("http://console.test/api/v1/x", { method, body, headers: { "content-type": "application/json", "x-reparo-user": user } }), {
    params: Promise.resolve(params),
  });

const publish = {
  dataset: { namespace: "warehouse", name: "orders" },
  unitKey: "2026-08-17",
  run: { externalId: "r1", job: { namespace: "cron", name: "load" } },
  publishedAt: "2026-08-18T02:10:00Z",
  rowCount: 120,
};
const count = { dataset: { nodeId: "dataset:warehouse:orders" }, unitKey: "2026-08-17", rowCount: 118, measuredAt: "2026-08-18T01:00:00Z", source: "oltp" };
const daily = { partitionDef: { kind: "time", grain: "day", start: "2026-08-01", timezone: "UTC" }, reason: "daily" };
const manifest = JSON.parse(fixtureText("dbt/ol_fixture_fail/manifest.json"));
const ORDERS = { id: "dataset:warehouse:orders" };
const STG = { id: "job:airflow:orders.stg_orders" };

const j = (v: unknown) => JSON.stringify(v);
const without = (o: Record<string, unknown>, k: string) => Object.fromEntries(Object.entries(o).filter(([key]) => key !== k));

/** [name, handler, method, body, params, status, the field path the message starts with] */
const FAULTS: [string, Handler, string, string, Record<string, string>, number, string][] = [
  ["publishes: malformed JSON", postPublishes, "POST", "{nope", {}, 400, "body"],
  ["publishes: empty batch", postPublishes, "POST", "[]", {}, 400, "body"],
  ["publishes: missing unitKey", postPublishes, "POST", j(without(publish, "unitKey")), {}, 400, "body.unitKey"],
  ["publishes: negative rowCount", postPublishes, "POST", j({ ...publish, rowCount: -1 }), {}, 400, "body.rowCount"],
  ["publishes: rowCount as text", postPublishes, "POST", j({ ...publish, rowCount: "120" }), {}, 400, "body.rowCount"],
  ["publishes: publishedAt without a zone", postPublishes, "POST", j({ ...publish, publishedAt: "2026-08-18T02:10:00" }), {}, 400, "body.publishedAt"],
  ["publishes: dataset as a string", postPublishes, "POST", j({ ...publish, dataset: "orders" }), {}, 400, "body.dataset"],
  ["publishes: run without a job", postPublishes, "POST", j({ ...publish, run: { externalId: "r1" } }), {}, 400, "body.run.job"],
  ["publishes: unknown run kind", postPublishes, "POST", j({ ...publish, run: { ...publish.run, kind: "adhoc" } }), {}, 400, "body.run.kind"],
  ["publishes: an unknown field", postPublishes, "POST", j({ ...publish, rows: 5 }), {}, 400, "body"],
  [
    "publishes: a right-to-left override in a name",
    postPublishes,
    "POST",
    j({ ...publish, dataset: { namespace: "warehouse", name: "orders\u202etxt.exe" } }),
    {},
    400,
    "body.dataset.name",
  ],
  [
    "publishes: a 100,000-character name",
    postPublishes,
    "POST",
    j({ ...publish, dataset: { namespace: "warehouse", name: "x".repeat(100_000) } }),
    {},
    400,
    "body.dataset.name",
  ],
  ["publishes: a bad batch element", postPublishes, "POST", j([{ ...publish, unitKey: "" }]), {}, 400, "body[0].unitKey"],
  ["source-counts: missing measuredAt", postSourceCounts, "POST", j(without(count, "measuredAt")), {}, 400, "body.measuredAt"],
  ["source-counts: fractional rowCount", postSourceCounts, "POST", j({ ...count, rowCount: 1.5 }), {}, 400, "body.rowCount"],
  ["source-counts: a JSON number", postSourceCounts, "POST", "42", {}, 400, "body"],
  [
    "partitions: unknown grain",
    putPartitions,
    "PUT",
    j({ ...daily, partitionDef: { ...daily.partitionDef, grain: "fortnight" } }),
    ORDERS,
    400,
    "body.partitionDef.grain",
  ],
  ["partitions: unknown kind", putPartitions, "PUT", j({ ...daily, partitionDef: { kind: "hourly" } }), ORDERS, 400, "body.partitionDef.kind"],
  ["partitions: no reason", putPartitions, "PUT", j(without(daily, "reason")), ORDERS, 400, "body.reason"],
  [
    "partitions: does not resolve",
    putPartitions,
    "PUT",
    j({ ...daily, partitionDef: { ...daily.partitionDef, start: "01/08/2026" } }),
    ORDERS,
    400,
    "body.partitionDef",
  ],
  [
    "partitions: unknown dataset by <namespace>/<name> (only a node id declares one)",
    putPartitions,
    "PUT",
    j(daily),
    { id: "warehouse/nope" },
    404,
    "params.id",
  ],
  ["partitions: a job node id where a dataset is meant", putPartitions, "PUT", j(daily), { id: "job:warehouse:nope" }, 404, "params.id"],
  ["tasks: unknown write mode", putTask, "PUT", j({ writeMode: "upsert", reason: "re-declared" }), STG, 400, "body.writeMode"],
  ["tasks: dependsOnOwnPast as text", putTask, "PUT", j({ dependsOnOwnPast: "yes", reason: "re-declared" }), STG, 400, "body.dependsOnOwnPast"],
  ["tasks: nothing to set", putTask, "PUT", j({ reason: "re-declared" }), STG, 400, "body"],
  ["tasks: blank reason", putTask, "PUT", j({ writeMode: "replace", reason: "  " }), STG, 400, "body.reason"],
  ["tasks: unknown task", putTask, "PUT", j({ writeMode: "replace", reason: "re-declared" }), { id: "airflow/orders.nope" }, 404, "params.id"],
  ["dbt: no manifest", postDbt, "POST", j({ run_results: null }), {}, 400, "body.manifest"],
  [
    "dbt: not a manifest schema",
    postDbt,
    "POST",
    j({ manifest: { ...manifest, metadata: { ...manifest.metadata, dbt_schema_version: "https://schemas.getdbt.com/dbt/catalog/v1.json" } } }),
    {},
    400,
    "body.manifest.metadata.dbt_schema_version",
  ],
  ["dbt: nodes as a list", postDbt, "POST", j({ manifest: { ...manifest, nodes: [] } }), {}, 400, "body.manifest.nodes"],
  [
    "dbt: run results without results",
    postDbt,
    "POST",
    j({
      manifest,
      run_results: { metadata: { dbt_schema_version: "https://schemas.getdbt.com/dbt/run-results/v4.json", generated_at: "2022-12-14T21:28:17Z" } },
    }),
    {},
    400,
    "body.run_results.results",
  ],
  ["dbt: malformed JSON", postDbt, "POST", '{"manifest":', {}, 400, "body"],
  ...(["__proto__", "constructor", "valueOf", "toString", "post gres", "x://y"] as const).map(
    (adapter) =>
      [
        `dbt: adapter_type ${adapter}`,
        postDbt,
        "POST",
        j({ manifest: { ...manifest, metadata: { ...manifest.metadata, adapter_type: adapter } } }),
        {},
        400,
        "body.manifest.metadata.adapter_type",
      ] as (typeof FAULTS)[number],
  ),
];

beforeAll(async () => {
  t = await createTestDatabase("sqlite");
  process.env.DATABASE_URL = t.target.url;
  await t.db.user.createMany({
    data: [
      { id: "ingest-bot", displayName: "Ingestion", role: "operator" },
      { id: "vic", displayName: "Vic", role: "viewer" },
    ],
  });
  await t.db.dataset.create({ data: { nodeId: "dataset:warehouse:orders", namespace: "warehouse", name: "orders" } });
  await t.db.task.create({ data: { nodeId: "job:airflow:orders.stg_orders", namespace: "airflow", name: "orders.stg_orders" } });
});
afterAll(async () => {
  process.env.DATABASE_URL = saved;
  await t.drop();
});

const escape = (s: string) => s.replace(/[.[\]]/g, "\\$&");

const event = {
  eventType: "COMPLETE",
  eventTime: "2026-08-18T02:10:00Z",
  producer: "https://example.com/producer",
  schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
  run: { runId: "0190a8f3-1c2d-7e4f-8a9b-0c1d2e3f4a5b" },
  job: { namespace: "orders", name: "load" },
  inputs: [],
  outputs: [{ namespace: "warehouse", name: "orders" }],
};

describe("what a producer's body holds beyond its fields: its type, its encoding, names' length and direction", () => {
  const send = (body: BodyInit, type: string | null, handler: Handler = postLineage) =>
    handler(
      new Request("http://console.test/api/v1/lineage", {
        method: "POST",
        body,
        headers: { ...(type ? { "content-type": type } : {}), "x-reparo-user": "ingest-bot" },
      }),
      { params: Promise.resolve({}) },
    );

  it.each([
    ["a form", "application/x-www-form-urlencoded"],
    ["text/plain", "text/plain;charset=UTF-8"],
    ["no content type", null],
  ])("%s → 415 naming headers.content-type, nothing written", async (_name, type) => {
    const before = await ingestionState(t.db);
    const res = await send(j(event), type);
    expect(res.status).toBe(415);
    expect((await res.json()).message).toMatch(/^headers\.content-type: .*; send the body as application\/json or application\/x-ndjson$/);
    expect((await send(j(publish), type, postPublishes)).status).toBe(415);
    expect(await ingestionState(t.db)).toBe(before);
  });

  it("NDJSON may say so (application/x-ndjson)", async () => {
    const lines = [0, 1].map((i) => j({ ...event, run: { runId: `0190a8f3-1c2d-7e4f-8a9b-0c1d2e3f4a7${i}` } })).join("\n");
    expect((await send(lines, "application/x-ndjson")).status).toBe(200);
  });

  it("invalid UTF-8 → 400, never folded to U+FFFD", async () => {
    const before = await ingestionState(t.db);
    const text = Buffer.from(j({ ...event, job: { namespace: "orders", name: "load_XX" } }));
    const at = text.indexOf("XX");
    text[at] = 0xc3; // a lead byte
    text[at + 1] = 0x28; // not a continuation byte
    const res = await send(text, "application/json");
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("body: is not valid UTF-8 (send text encoded as UTF-8); nothing was stored");
    expect(await ingestionState(t.db)).toBe(before);
  });

  it.each([
    ["a right-to-left override in a job name", { ...event, job: { namespace: "orders", name: "load\u202ecod.exe" } }, "body.job.name"],
    ["an isolate in a dataset namespace", { ...event, outputs: [{ namespace: "ware\u2067house", name: "orders" }] }, "body.outputs.0.namespace"],
    ["a 100,000-character job name", { ...event, job: { namespace: "orders", name: "n".repeat(100_000) } }, "body.job.name"],
    ["a 300-character run id", { ...event, run: { runId: "r".repeat(300) } }, "body.run.runId"],
  ])("%s → 400 naming %s", async (_name, body, path) => {
    const before = await ingestionState(t.db);
    const res = await send(j(body), "application/json");
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(path);
    expect(await ingestionState(t.db)).toBe(before);
  });
});

describe("the ledger, catalog and dbt endpoints refuse bad input, naming the field, and write nothing", () => {
  it.each(FAULTS)("%s → %i naming %s", async (_name, handler, method, body, params, status, path) => {
    const before = [await ingestionState(t.db), await t.db.auditEntry.count()];
    const res = await call(handler, method, body, params);
    expect(res.status).toBe(status);
    expect((await res.json()).message).toMatch(new RegExp(`^${escape(path)}: `));
    expect([await ingestionState(t.db), await t.db.auditEntry.count()]).toEqual(before);
  });

  it("an oversized ledger body → 413, nothing written", async () => {
    const before = await ingestionState(t.db);
    const res = await call(postPublishes, "POST", "x".repeat(LEDGER_MAX_BODY_BYTES + 1));
    expect(res.status).toBe(413);
    expect((await res.json()).message).toMatch(/^body: larger than this route.s limit/);
    expect(await ingestionState(t.db)).toBe(before);
  });

  it.each([
    ["publishes", postPublishes, "POST", j({ ...publish, unitKey: "*" }), {}],
    ["source-counts", postSourceCounts, "POST", j({ ...count, unitKey: "*" }), {}],
    ["partitions", putPartitions, "PUT", j(daily), ORDERS],
    ["tasks", putTask, "PUT", j({ writeMode: "append", reason: "re-declared" }), STG],
    ["dbt import", postDbt, "POST", j({ manifest }), {}],
  ] as [string, Handler, string, string, Record<string, string>][])("a viewer → 403 on %s, nothing written", async (_name, handler, method, body, params) => {
    const before = [await ingestionState(t.db), await t.db.auditEntry.count()];
    const res = await call(handler, method, body, params, "vic");
    expect(res.status).toBe(403);
    expect((await res.json()).message).toBe("vic is a viewer; this needs the operator role");
    expect([await ingestionState(t.db), await t.db.auditEntry.count()]).toEqual(before);
    // The same request from an operator is accepted, so the 403 is the role and nothing else.
    expect((await call(handler, method, body, params)).status).toBe(200);
  });
});
