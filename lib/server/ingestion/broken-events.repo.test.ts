import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/v1/lineage/route";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { LINEAGE_MAX_BODY_BYTES } from "./receive-lineage";
import { BROKEN_EVENTS, validEvent } from "./testing/broken-events";
import { ingestionState } from "./testing/db-snapshot";
import { fixtureText } from "./testing/fixtures";

let t: TestDatabase;
const saved = process.env.DATABASE_URL;
const ctx = { params: Promise.resolve({}) };
const post = (body: string, user = "ingest-bot") =>
  POST(
    new Request("http://console.test/api/v1/lineage", { method: "POST", body, headers: { "content-type": "application/json", "x-reparo-user": user } }),
    ctx,
  );

beforeAll(async () => {
  t = await createTestDatabase("sqlite");
  process.env.DATABASE_URL = t.target.url;
  await t.db.user.createMany({
    data: [
      { id: "ingest-bot", displayName: "Ingestion", role: "operator" },
      { id: "vic", displayName: "Vic", role: "viewer" },
    ],
  });
  // A populated database, so "unchanged" means something.
  expect((await post(fixtureText("openlineage/compat_spark_dataproc_hive_t1_t2.ndjson"))).status).toBe(200);
});
afterAll(async () => {
  process.env.DATABASE_URL = saved;
  await t.drop();
});

describe("POST /api/v1/lineage refuses broken input and writes nothing", () => {
  it("has at least 30 distinct faults", () => {
    expect(new Set(BROKEN_EVENTS.map((f) => f.name)).size).toBe(BROKEN_EVENTS.length);
    expect(BROKEN_EVENTS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(BROKEN_EVENTS)("$name → $status naming $path", async (fault) => {
    const before = await ingestionState(t.db);
    const rejectionsBefore = await t.db.rejectedEvent.count();
    const res = await post(fault.body);
    expect(res.status).toBe(fault.status);
    const json = await res.json();
    expect(json.message).toMatch(new RegExp(`^${fault.path.replace(/[.[\]]/g, "\\$&")}[:.]`));
    expect(await ingestionState(t.db)).toBe(before);
    expect(await t.db.rejectedEvent.count()).toBe(rejectionsBefore + (fault.refused ?? 1));
  });

  it("an oversized body → 413, nothing written", async () => {
    const before = await ingestionState(t.db);
    const res = await post("x".repeat(LINEAGE_MAX_BODY_BYTES + 1));
    expect(res.status).toBe(413);
    expect((await res.json()).message).toMatch(/^body: larger than this route.s limit/);
    expect(await ingestionState(t.db)).toBe(before);
  });

  it("a viewer → 403, nothing written", async () => {
    const before = await ingestionState(t.db);
    expect((await post(JSON.stringify(validEvent()), "vic")).status).toBe(403);
    expect(await ingestionState(t.db)).toBe(before);
  });

  it("a batch says which events were accepted and which refused; refused ones write nothing", async () => {
    const good = [validEvent("run-a"), validEvent("run-b")];
    const bad = { ...validEvent("run-c"), job: { namespace: "airflow", name: "" } };
    const res = await post([good[0], bad, good[1]].map((e) => JSON.stringify(e)).join("\n"));
    expect(res.status).toBe(207);
    const json = await res.json();
    expect(json.accepted).toEqual([
      { index: 0, duplicate: false },
      { index: 2, duplicate: false },
    ]);
    expect(json.rejected).toEqual([{ index: 1, issues: [{ path: "body[1].job.name", message: "must be a non-empty string" }] }]);
    expect(await t.db.run.count({ where: { externalId: "run-c" } })).toBe(0);
    expect(await t.db.run.count({ where: { externalId: { in: ["run-a", "run-b"] } } })).toBe(2);
  });
});
