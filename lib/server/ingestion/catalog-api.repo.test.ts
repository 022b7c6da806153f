import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../auth/roles";
import { statusOfError } from "../http/route";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { setDatasetPartitions } from "./set-dataset-partitions";
import { setTaskProperties } from "./set-task-properties";
import { receiveLineageRequest } from "../http/ingestion-requests";

const OLA: Actor = { id: "ola", role: "operator", source: "proxy", namespaces: [] };
const AUGUST = { kind: "time" as const, grain: "day" as const, start: "2026-08-01", end: "2026-08-31", timezone: "UTC" };
const NOW = new Date("2026-11-29T12:00:00Z");

async function statusOf(p: Promise<unknown>): Promise<[number, string]> {
  try {
    await p;
    return [200, ""];
  } catch (e) {
    if (statusOfError(e) !== 500) return [statusOfError(e), (e as Error).message];
    throw e;
  }
}

describe.each(providersUnderTest())("PUT partitions and task properties on %s", (provider) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(provider);
    await t.db.dataset.createMany({
      data: [
        { nodeId: "dataset:postgres://db:5432:public.orders", namespace: "postgres://db:5432", name: "public.orders" },
        { nodeId: "dataset:a:b/c", namespace: "a", name: "b/c" },
        { nodeId: "dataset:a/b:c", namespace: "a/b", name: "c" },
      ],
    });
    await t.db.task.create({
      data: { nodeId: "job:airflow:orders.stg_orders", namespace: "airflow", name: "orders.stg_orders", writeMode: "replace", owner: "data-eng" },
    });
  });
  afterEach(async () => t.drop());

  it("sets a partition definition by node id, with its audit entry (before → after) in the same transaction", async () => {
    const result = await setDatasetPartitions("dataset:postgres://db:5432:public.orders", { partitionDef: AUGUST, reason: "orders are daily" }, OLA, t.db, NOW);
    // before: nothing declared (a dataset only seen in events), so its expected units were unknown
    expect(result).toMatchObject({ nodeId: "dataset:postgres://db:5432:public.orders", changed: true, before: null, after: AUGUST, expectedUnits: 31 });
    expect((await t.db.dataset.findUniqueOrThrow({ where: { nodeId: "dataset:postgres://db:5432:public.orders" } })).partitionsDeclared).toBe(true);
    const stored = await t.db.dataset.findUniqueOrThrow({ where: { nodeId: "dataset:postgres://db:5432:public.orders" } });
    expect(JSON.parse(stored.partitionDef)).toEqual(AUGUST);
    const [entry] = await t.db.auditEntry.findMany();
    expect(entry).toMatchObject({ seq: result.auditSeq, kind: "dataset.partitions_changed", actor: "ola", actorRole: "operator", reason: "orders are daily" });
    expect(JSON.parse(entry!.before)).toEqual({ partitionDef: null });
    expect(JSON.parse(entry!.after)).toEqual({ partitionDef: AUGUST, resolved: { keys: 0, runs: 0, publishes: 0, held: 0 } });
    expect(JSON.parse(entry!.targets)).toEqual([{ nodeId: "dataset:postgres://db:5432:public.orders", units: [] }]);
  });

  it("what a producer sent before the definition was declared is published once it is: its rejected keys resolve and its run is folded again", async () => {
    const event = {
      eventType: "COMPLETE",
      eventTime: "2026-08-18T02:10:00.000Z",
      producer: "catalog-api-test",
      run: { runId: "01936893-9751-7150-bbde-0000000000aa", facets: { nominalTime: { nominalStartTime: "2026-08-17T00:00:00Z" } } },
      job: { namespace: "airflow", name: "orders.load" },
      inputs: [],
      // The unit named explicitly (OpenLineage's subset facet), as docs/ingestion.md's curl example sends it.
      outputs: [
        {
          namespace: "postgres://db:5432",
          name: "public.orders",
          outputFacets: {
            outputStatistics: { rowCount: 48_211 },
            subset: { outputCondition: { type: "partition", partitions: [{ identifier: "2026-08-17" }] } },
          },
        },
      ],
    };
    const sent = await receiveLineageRequest(new Request("http://console.test/api/v1/lineage", { method: "POST", body: JSON.stringify(event) }), t.db);
    // Undeclared, the dataset has the one unit `*`: the day's key is rejected, nothing published.
    expect(((await sent.json()) as { written: object }).written).toMatchObject({ publishes: 0, invalidKeys: 1 });
    const orders = await t.db.dataset.findUniqueOrThrow({ where: { nodeId: "dataset:postgres://db:5432:public.orders" } });
    const r = await setDatasetPartitions(orders.nodeId, { partitionDef: AUGUST, reason: "orders are daily" }, OLA, t.db, NOW);
    expect(r.resolved).toEqual({ keys: 1, runs: 1, publishes: 1, held: 0 });
    expect(await t.db.publish.findMany({ where: { datasetId: orders.id }, select: { unitKey: true, rowCount: true } })).toEqual([
      { unitKey: "2026-08-17", rowCount: 48_211 },
    ]);
    expect(await t.db.invalidKey.count({ where: { nodeId: orders.nodeId } })).toBe(0);
    const entry = await t.db.auditEntry.findFirstOrThrow({ where: { kind: "dataset.partitions_changed" } });
    expect(JSON.parse(entry.after)).toEqual({ partitionDef: AUGUST, resolved: { keys: 1, runs: 1, publishes: 1, held: 0 } });
    // A key the new definition still rejects stays listed; declaring the same definition again settles nothing new.
    const again = await setDatasetPartitions(orders.nodeId, { partitionDef: AUGUST, reason: "orders are daily" }, OLA, t.db, NOW);
    expect(again).toMatchObject({ changed: false, resolved: { keys: 0, runs: 0, publishes: 0, held: 0 } });
    expect(await t.db.publish.count({ where: { datasetId: orders.id } })).toBe(1);
  });

  it("a dataset no producer has sent yet is declared by its node id: created, with its audit entry", async () => {
    const r = await setDatasetPartitions("dataset:s3://lake:events", { partitionDef: AUGUST, reason: "declared before the first load" }, OLA, t.db, NOW);
    expect(r).toMatchObject({ nodeId: "dataset:s3://lake:events", changed: true, before: null, after: AUGUST });
    expect(await t.db.dataset.findUniqueOrThrow({ where: { nodeId: "dataset:s3://lake:events" } })).toMatchObject({
      namespace: "s3://lake",
      name: "events",
      partitionsDeclared: true,
    });
    expect(await t.db.auditEntry.count()).toBe(1);
  });

  it("declaring the definition a dataset already had (unpartitioned) is a change: its expected units become known", async () => {
    const declared = await setDatasetPartitions(
      "dataset:postgres://db:5432:public.orders",
      { partitionDef: { kind: "none" }, reason: "one table, loaded whole" },
      OLA,
      t.db,
      NOW,
    );
    expect(declared).toMatchObject({ changed: true, before: null, after: { kind: "none" }, expectedUnits: 1 });
    const lateness = await setDatasetPartitions(
      "dataset:postgres://db:5432:public.orders",
      { partitionDef: { ...AUGUST, lateness: "PT6H" }, reason: "lands at 06:00" },
      OLA,
      t.db,
      NOW,
    );
    expect(lateness).toMatchObject({ changed: true, before: { kind: "none" } });
    const laterStill = await setDatasetPartitions(
      "dataset:postgres://db:5432:public.orders",
      { partitionDef: { ...AUGUST, lateness: "P2D" }, reason: "lands two days late" },
      OLA,
      t.db,
      NOW,
    );
    expect(laterStill).toMatchObject({ changed: true, before: { ...AUGUST, lateness: "PT6H" } });
  });

  it("finds the dataset by <namespace>/<name> although the namespace holds slashes; the same definition again records nothing", async () => {
    await setDatasetPartitions("postgres://db:5432/public.orders", { partitionDef: AUGUST, reason: "daily" }, OLA, t.db, NOW);
    const again = await setDatasetPartitions("postgres://db:5432/public.orders", { partitionDef: AUGUST, reason: "daily" }, OLA, t.db, NOW);
    expect(again).toMatchObject({ changed: false, auditSeq: null });
    expect(await t.db.auditEntry.count()).toBe(1);
  });

  it("refuses an unknown, an ambiguous, or an unresolvable target and writes nothing", async () => {
    expect(await statusOf(setDatasetPartitions("warehouse/nope", { partitionDef: AUGUST, reason: "re-declared" }, OLA, t.db, NOW))).toEqual([
      404,
      expect.stringMatching(/^params\.id: no dataset is named/),
    ]);
    expect(await statusOf(setDatasetPartitions("a/b/c", { partitionDef: AUGUST, reason: "re-declared" }, OLA, t.db, NOW))).toEqual([
      409,
      expect.stringMatching(/^params\.id: "a\/b\/c" names several datasets/),
    ]);
    const badZone = { ...AUGUST, timezone: "Mars/Olympus" };
    expect(await statusOf(setDatasetPartitions("a/b:c".replace(":", "/"), { partitionDef: badZone, reason: "re-declared" }, OLA, t.db, NOW))).toEqual([
      400,
      'body.partitionDef: does not resolve: unknown IANA time zone "Mars/Olympus"',
    ]);
    const backwards = { ...AUGUST, start: "2026-08-31", end: "2026-08-01" };
    expect(await statusOf(setDatasetPartitions("dataset:a:b%2Fc", { partitionDef: backwards, reason: "re-declared" }, OLA, t.db, NOW))).toEqual([
      400,
      "body.partitionDef.end: is before start: the definition has no units",
    ]);
    expect(await t.db.auditEntry.count()).toBe(0);
    expect((await t.db.dataset.findMany()).map((d) => d.partitionDef)).toEqual(['{"kind":"none"}', '{"kind":"none"}', '{"kind":"none"}']);
  });

  it("sets task properties present in the body, keeps the others, and audits before → after", async () => {
    const result = await setTaskProperties(
      "airflow/orders.stg_orders",
      { writeMode: "append", sideEffect: "external", reason: "it inserts and emails" },
      OLA,
      t.db,
      NOW,
    );
    const before = { writeMode: "replace", sideEffect: null, dependsOnOwnPast: null, publishMode: null, owner: "data-eng" };
    const after = { ...before, writeMode: "append", sideEffect: "external" };
    expect(result).toMatchObject({ nodeId: "job:airflow:orders.stg_orders", changed: true, before, after });
    const [entry] = await t.db.auditEntry.findMany();
    expect([entry!.kind, JSON.parse(entry!.before), JSON.parse(entry!.after)]).toEqual(["task.properties_changed", before, after]);
    const reset = await setTaskProperties(
      "job:airflow:orders.stg_orders",
      { writeMode: null, dependsOnOwnPast: true, reason: "unknown until reviewed" },
      OLA,
      t.db,
      NOW,
    );
    expect(reset.after).toEqual({ ...after, writeMode: null, dependsOnOwnPast: true });
    const task = await t.db.task.findUniqueOrThrow({ where: { nodeId: "job:airflow:orders.stg_orders" } });
    expect([task.writeMode, task.sideEffect, task.dependsOnOwnPast, task.owner]).toEqual([null, "external", true, "data-eng"]);
    const same = await setTaskProperties("job:airflow:orders.stg_orders", { sideEffect: "external", reason: "again" }, OLA, t.db, NOW);
    expect(same).toMatchObject({ changed: false, auditSeq: null });
    expect(await t.db.auditEntry.count()).toBe(2);
  });
});
