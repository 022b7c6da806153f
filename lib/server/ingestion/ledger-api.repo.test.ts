import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { loadUnitStates } from "../units/load-unit-states";
import { receiveLineageRequest, receivePublishesRequest, receiveSourceCountsRequest, receiveWarehouseCountsRequest } from "../http/ingestion-requests";
import { validEvent } from "./testing/broken-events";
import { tableCounts } from "./testing/db-snapshot";
import { lineageRequest } from "./testing/fixtures";

const DAILY = JSON.stringify({ kind: "time", grain: "day", start: "2026-08-01", timezone: "UTC" });
const ORDERS = { namespace: "warehouse", name: "orders" };
const request = (path: string, body: unknown) =>
  new Request(`http://console.test${path}`, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } });

const publish = (over: Record<string, unknown> = {}) => ({
  dataset: ORDERS,
  unitKey: "2026-08-17",
  run: { externalId: "scheduled__2026-08-17", job: { namespace: "cron", name: "load_orders" } },
  publishedAt: "2026-08-18T02:10:00Z",
  inputVersion: "snap-0817",
  codeVersion: "v41",
  rowCount: 120,
  ...over,
});

describe.each(providersUnderTest())("POST /api/v1/publishes and /api/v1/source-counts on %s", (provider) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(provider);
    await t.db.dataset.create({ data: { nodeId: "dataset:warehouse:orders", ...ORDERS, partitionDef: DAILY, partitionsDeclared: true } });
  });
  afterEach(async () => t.drop());
  const publishes = async (body: unknown) => receivePublishesRequest(request("/api/v1/publishes", body), t.db);
  const counts = async (body: unknown) => receiveSourceCountsRequest(request("/api/v1/source-counts", body), t.db);
  const warehouseCounts = async (body: unknown) => receiveWarehouseCountsRequest(request("/api/v1/warehouse-counts", body), t.db);

  it("records a publish, its run and the write edge; re-sending it changes nothing", async () => {
    const res = await publishes(publish());
    expect(res.status).toBe(200);
    const json = await res.json();
    expect(json).toMatchObject({ received: 1, rejected: [], written: { publishes: 1, runs: 1, invalidKeys: 0 } });
    const [row] = await t.db.publish.findMany({ include: { run: true, dataset: true } });
    expect(row).toMatchObject({ unitKey: "2026-08-17", rowCount: 120, inputVersion: "snap-0817", codeVersion: "v41", attemptId: null });
    expect(row!.dataset.nodeId).toBe("dataset:warehouse:orders");
    expect(row!.run).toMatchObject({ externalId: "scheduled__2026-08-17", kind: "manual", status: "succeeded", triggeredBy: "api" });
    expect(row!.publishedAt.toISOString()).toBe("2026-08-18T02:10:00.000Z");
    const edges = await t.db.lineageEdge.findMany({ include: { task: true } });
    expect(edges.map((e) => [e.task.nodeId, e.direction, e.validFrom.toISOString()])).toEqual([["job:cron:load_orders", "write", "2026-08-18T02:10:00.000Z"]]);
    const before = await tableCounts(t.db);
    const again = await (await publishes(publish())).json();
    expect(again.accepted).toEqual([{ index: 0, publishId: json.accepted[0].publishId, duplicate: true }]);
    expect(again.written).toEqual({ publishes: 0, runs: 0, invalidKeys: 0 });
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it("an idempotency key identifies the publish: a retry is a duplicate, different values are refused", async () => {
    const keyed = publish({ idempotencyKey: "load_orders/2026-08-17/try-1" });
    expect((await publishes(keyed)).status).toBe(200);
    const retried = await (await publishes({ ...keyed, publishedAt: "2026-08-18T02:10:00.000+00:00" })).json();
    expect(retried.accepted[0].duplicate).toBe(true);
    const res = await publishes({ ...keyed, rowCount: 240 });
    expect(res.status).toBe(422);
    const json = await res.json();
    expect(json.rejected[0].issues[0].path).toBe("body.idempotencyKey");
    expect(json.message).toMatch(/^body\.idempotencyKey: this idempotency key is already used by a publish with a different rowCount/);
    expect(await t.db.publish.count()).toBe(1);
  });

  it("the natural key (dataset, unit, run, publishedAt) with a different row count is refused, not overwritten", async () => {
    await publishes(publish());
    const res = await publishes(publish({ rowCount: 121 }));
    expect(res.status).toBe(422);
    expect((await res.json()).rejected[0].issues[0].path).toBe("body.publishedAt");
    const later = await publishes(publish({ rowCount: 121, publishedAt: "2026-08-18T05:00:00Z" }));
    expect(later.status).toBe(200);
    expect((await t.db.publish.findMany({ orderBy: { publishedAt: "asc" } })).map((p) => p.rowCount)).toEqual([120, 121]);
  });

  it("a batch: an invalid unit key is recorded as an invalid key and refused; the rest is written", async () => {
    const res = await publishes([
      publish(),
      publish({ unitKey: "2026-13-01" }),
      publish({ unitKey: "2026-08-18", dataset: { nodeId: "dataset:warehouse:orders" } }),
    ]);
    expect(res.status).toBe(207);
    const json = await res.json();
    expect(json.accepted.map((a: { index: number }) => a.index)).toEqual([0, 2]);
    expect(json.rejected).toHaveLength(1);
    expect(json.rejected[0]).toMatchObject({ index: 1, issues: [{ path: "body[1].unitKey" }] });
    expect(json.rejected[0].issues[0].message).toMatch(/^invalid unit key: /);
    expect(json.written).toEqual({ publishes: 2, runs: 1, invalidKeys: 1 });
    const invalid = await t.db.invalidKey.findMany();
    expect(invalid.map((k) => [k.nodeId, k.unitKey, k.source])).toEqual([["dataset:warehouse:orders", "2026-13-01", "api"]]);
    expect(await t.db.rejectedEvent.count({ where: { endpoint: "/api/v1/publishes" } })).toBe(1);
  });

  it("separator and control characters in a producer's text stay in their own field: a 10-row publish reads as one publish of 10 rows", async () => {
    const odd = "snap\u001f0817\u001eend\u0007 ✓";
    expect((await publishes(publish({ inputVersion: odd, codeVersion: "v\u001e2", rowCount: 10 }))).status).toBe(200);
    const [orders] = await loadUnitStates(t.db, new Date("2026-08-20T12:00:00Z"), { datasetNodeIds: ["dataset:warehouse:orders"] });
    const unit = orders!.units.find((u) => u.key === "2026-08-17")!;
    expect([
      unit.result.state,
      unit.result.facts.publishCount,
      unit.result.facts.inputVersion,
      unit.result.facts.codeVersion,
      unit.facts.ledger[0]!.rowCount,
    ]).toEqual(["published", 1, odd, "v\u001e2", 10]);
  });

  it("a publish naming an OpenLineage run (job + run id) lands on that run", async () => {
    const event = validEvent("ol-run-7");
    expect((await receiveLineageRequest(lineageRequest(JSON.stringify(event)), t.db)).status).toBe(200);
    const runsBefore = await t.db.run.count();
    const res = await publishes(
      publish({
        dataset: { namespace: "postgres://db:5432", name: "public.stg_orders" },
        unitKey: "*",
        run: { externalId: "ol-run-7", job: { nodeId: "job:airflow:orders.stg_orders" } },
      }),
    );
    expect(res.status).toBe(200);
    expect(await t.db.run.count()).toBe(runsBefore);
    const rows = await t.db.publish.findMany({ where: { runId: (await t.db.run.findFirstOrThrow({ where: { externalId: "ol-run-7" } })).id } });
    expect(rows.map((p) => p.rowCount).sort()).toEqual([120, 120]);
  });

  it("source counts: created, replaced by a newer measurement, kept against an older one", async () => {
    const count = (rowCount: number, measuredAt: string) => ({ dataset: ORDERS, unitKey: "2026-08-17", rowCount, measuredAt, source: "oltp count(*)" });
    expect((await (await counts(count(118, "2026-08-18T01:00:00Z"))).json()).accepted).toEqual([{ index: 0, outcome: "created" }]);
    const res = await counts([count(120, "2026-08-18T03:00:00Z"), count(90, "2026-08-18T02:00:00Z"), count(120, "2026-08-18T03:00:00Z")]);
    expect(res.status).toBe(200);
    expect((await res.json()).accepted.map((a: { outcome: string }) => a.outcome)).toEqual(["updated", "older", "unchanged"]);
    const rows = await t.db.sourceCount.findMany();
    expect(rows.map((r) => [r.unitKey, r.rowCount, r.measuredAt.toISOString(), r.source])).toEqual([
      ["2026-08-17", 120, "2026-08-18T03:00:00.000Z", "oltp count(*)"],
    ]);
  });

  it("source counts: an invalid unit key is recorded and refused (422 when nothing was accepted)", async () => {
    const res = await counts({ dataset: { nodeId: "dataset:warehouse:orders" }, unitKey: "2026-07-31", rowCount: 5, measuredAt: "2026-08-18T01:00:00Z" });
    expect(res.status).toBe(422);
    const json = await res.json();
    expect(json.message).toMatch(/^body\.unitKey: invalid unit key: /);
    expect(await t.db.sourceCount.count()).toBe(0);
    expect(await t.db.invalidKey.count({ where: { unitKey: "2026-07-31", source: "api" } })).toBe(1);
  });

  it("warehouse counts (the rows the unit holds now) are kept apart from source counts, the latest measurement winning", async () => {
    const count = (rowCount: number, measuredAt: string) => ({
      dataset: ORDERS,
      unitKey: "2026-08-17",
      rowCount,
      measuredAt,
      source: "select count(*) from orders where day = '2026-08-17'",
    });
    await counts(count(120, "2026-08-18T01:00:00Z"));
    const res = await warehouseCounts([count(20, "2026-08-18T03:00:00Z"), count(0, "2026-08-18T04:00:00Z"), count(7, "2026-08-18T02:00:00Z")]);
    expect(await res.json()).toMatchObject({
      received: 3,
      accepted: [{ outcome: "created" }, { outcome: "updated" }, { outcome: "older" }],
      written: { warehouseCounts: 1, invalidKeys: 0 },
    });
    expect((await t.db.warehouseCount.findMany()).map((r) => [r.unitKey, r.rowCount, r.measuredAt.toISOString()])).toEqual([
      ["2026-08-17", 0, "2026-08-18T04:00:00.000Z"],
    ]);
    expect((await t.db.sourceCount.findMany()).map((r) => r.rowCount)).toEqual([120]);
  });

  it("warehouse counts: a malformed field is refused naming it, and nothing is written", async () => {
    const res = await warehouseCounts({ dataset: ORDERS, unitKey: "2026-08-17", rowCount: -1, measuredAt: "2026-08-18T01:00:00Z" });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/body\.rowCount/);
    expect(await t.db.warehouseCount.count()).toBe(0);
  });
});
