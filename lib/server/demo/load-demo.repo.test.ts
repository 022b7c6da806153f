import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { ORDERS_DATASETS as D, ORDERS_TASKS as T } from "../executor/task-code/node-ids";
import { loadDemo, type DemoSummary } from "./load-demo";

describe.each(providersUnderTest())("the demo world on %s, read back from the real tables", (provider) => {
  let t: TestDatabase;
  let summary: DemoSummary;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
    await loadDemo(t.db);
    summary = await loadDemo(t.db); // a second load replaces the first
  });
  afterAll(async () => t.drop());

  const rows = (nodeId: string, unitKey: string) => t.db.warehouseRow.count({ where: { dataset: { nodeId }, unitKey } });
  const source = async (nodeId: string, unitKey: string) => (await t.db.sourceCount.findFirstOrThrow({ where: { dataset: { nodeId }, unitKey } })).rowCount;
  const attempts = (nodeId: string, unitKey: string) =>
    t.db.attempt.findMany({ where: { task: { nodeId }, unitKey }, orderBy: { tryNumber: "asc" }, include: { run: true } });

  it("replaces an earlier demo instead of doubling it", async () => {
    expect(summary).toMatchObject({ runs: 218, publishes: 753, deliveries: 13, invalidKeys: 2 });
    expect(summary.attempts).toEqual({ succeeded: 753, failed: 6, upstream_failed: 18 });
    expect(await t.db.pipeline.count()).toBe(4);
  });

  it("fct_orders has no publish for exactly 2026-08-17 and 2026-08-23", async () => {
    const published = await t.db.publish.findMany({ where: { dataset: { nodeId: D.fctOrders } }, select: { unitKey: true } });
    const keys = new Set(published.map((p) => p.unitKey));
    expect(keys.size).toBe(98);
    expect(keys.has("2026-08-17") || keys.has("2026-08-23")).toBe(false);
    expect(published.length).toBe(98);
  });

  it("(a) stg_orders 2026-08-17: try 1 wrote half and failed, try 2 failed before writing, half the rows stay", async () => {
    const raw = await source(D.stgOrders, "2026-08-17");
    expect(raw).toBe(40);
    const [first, second, ...rest] = await attempts(T.stgOrders, "2026-08-17");
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ tryNumber: 1, status: "failed", rowsWritten: 20 });
    expect(second).toMatchObject({ tryNumber: 2, status: "failed", rowsWritten: 0 });
    expect(await rows(D.stgOrders, "2026-08-17")).toBe(20);
  });

  it("(b) stg_orders 2026-08-23 failed cleanly: nothing written, nothing published", async () => {
    expect(await rows(D.stgOrders, "2026-08-23")).toBe(0);
    expect((await attempts(T.stgOrders, "2026-08-23")).map((a) => [a.status, a.rowsWritten])).toEqual([
      ["failed", 0],
      ["failed", 0],
    ]);
    expect(await t.db.publish.count({ where: { dataset: { nodeId: D.stgOrders }, unitKey: "2026-08-23" } })).toBe(0);
  });

  it("the closure never ran for those days: downstream and cross-pipeline attempts are upstream_failed", async () => {
    for (const day of ["2026-08-17", "2026-08-23"]) {
      for (const task of [T.fctOrders, T.revenueDaily, T.refreshDashboard, T.orderFeatures]) {
        expect(
          (await attempts(task, day)).map((a) => a.status),
          `${task} ${day}`,
        ).toEqual(["upstream_failed"]);
      }
    }
    const balance = await t.db.attempt.findMany({ where: { task: { nodeId: T.runningBalance }, status: "upstream_failed" }, orderBy: { unitKey: "asc" } });
    expect(balance.map((a) => a.unitKey)).toEqual([
      "2026-08-17",
      "2026-08-18",
      "2026-08-19",
      "2026-08-20",
      "2026-08-21",
      "2026-08-22",
      "2026-08-23",
      "2026-08-24",
      "2026-08-25",
    ]);
    expect((await attempts(T.weeklyExport, "2026-W34")).map((a) => a.status)).toEqual(["upstream_failed"]);
  });

  it("(c) stg_orders 2026-08-10 holds 1.5× its source in a green run; fct_orders built on it diverges", async () => {
    const raw = await source(D.stgOrders, "2026-08-10");
    expect(raw).toBe(44);
    expect(await rows(D.stgOrders, "2026-08-10")).toBe(66);
    const tries = await attempts(T.stgOrders, "2026-08-10");
    expect(tries.map((a) => [a.status, a.rowsWritten])).toEqual([
      ["failed", 22],
      ["succeeded", 44],
    ]);
    expect(tries[1]!.run.status).toBe("succeeded");
    const fct = await t.db.publish.findMany({ where: { dataset: { nodeId: D.fctOrders }, unitKey: "2026-08-10" } });
    expect(fct.map((p) => p.rowCount)).toEqual([66]);
    expect(await source(D.fctOrders, "2026-08-10")).toBe(44);
  });

  it("(d) the finance export for the week of 2026-08-10 was sent with the inflated revenue", async () => {
    const [delivery] = await t.db.externalDelivery.findMany({ where: { unitKey: "2026-W33" } });
    expect(delivery?.idempotencyKey).toBe("job:finance:weekly_revenue_export/2026-W33/revenue_daily@1");
    const sent = JSON.parse(delivery!.payload) as { total_revenue_cents: number; days: string[] };
    expect(sent.days[0]).toBe("2026-08-10");
    const revenue = await t.db.warehouseRow.findMany({ where: { dataset: { nodeId: D.revenueDaily }, unitKey: { in: sent.days } } });
    expect(sent.total_revenue_cents).toBe(revenue.reduce((n, r) => n + (JSON.parse(r.payload) as { revenue_cents: number }).revenue_cents, 0));
    expect(await t.db.externalDelivery.count({ where: { unitKey: "2026-W34" } })).toBe(0);
  });

  it("every other orders unit is clean: one publish, reconciled to the source count", async () => {
    const stg = await t.db.publish.findMany({ where: { dataset: { nodeId: D.stgOrders } }, select: { unitKey: true, rowCount: true } });
    const sources = new Map((await t.db.sourceCount.findMany({ where: { dataset: { nodeId: D.stgOrders } } })).map((s) => [s.unitKey, s.rowCount]));
    const off = stg.filter((p) => p.rowCount !== sources.get(p.unitKey)).map((p) => p.unitKey);
    expect(stg.length).toBe(98);
    expect(off).toEqual(["2026-08-10"]);
    expect(sources.size).toBe(100);
    expect([...sources.values()].every((n) => n % 2 === 0)).toBe(true);
  });

  it("records the backfill request's keys that the definition rejects, with the reason", async () => {
    const invalid = await t.db.invalidKey.findMany({ orderBy: { unitKey: "asc" } });
    expect(invalid.map((k) => [k.nodeId, k.unitKey, k.reason])).toEqual([
      [T.orderFeatures, "2026-08-31", '"2026-08-31" is after the last unit 2026-08-25'],
      [T.orderFeatures, "2026-8-24", '"2026-8-24" is not a day key (expected yyyy-MM-dd)'],
    ]);
    expect(await t.db.user.findMany({ orderBy: { id: "asc" }, select: { id: true, role: true } })).toEqual([
      { id: "demo-commander", role: "commander" },
      { id: "demo-operator", role: "operator" },
      { id: "demo-viewer", role: "viewer" },
    ]);
  });
});
