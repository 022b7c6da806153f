import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNPARTITIONED_KEY } from "@/lib/domain/partitions";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { demoClock } from "../demo/demo-clock";
import { ordersCatalog } from "../demo/orders-catalog";
import { registerCatalog } from "../demo/register-catalog";
import { executeRun, type RunRequest } from "./execute-run";
import type { ExecutorLineage } from "./executor-lineage";
import { loadExecutorLineage } from "./load-executor-lineage";
import { ORDERS_DATASETS as D, ORDERS_TASKS as T } from "./task-code/node-ids";

describe.each(providersUnderTest())("executeRun on %s", (provider) => {
  let t: TestDatabase;
  let lineage: ExecutorLineage;
  const request = (pairs: RunRequest["pairs"], over: Partial<RunRequest> = {}): RunRequest => ({
    pipelineId: null,
    kind: "manual",
    pairs,
    triggeredBy: "test",
    clock: demoClock(new Date("2026-08-18T02:00:00Z")),
    lineage,
    ...over,
  });
  const day = (unitKey: string, tasks: string[]) => tasks.map((taskNodeId) => ({ taskNodeId, unitKey }));
  beforeAll(async () => {
    t = await createTestDatabase(provider);
    await registerCatalog(t.db, ordersCatalog(), new Date("2026-05-01T00:00:00Z"));
    lineage = await loadExecutorLineage(t.db, new Date("2026-08-26T00:00:00Z"));
    await executeRun(t.db, request([{ taskNodeId: T.snapshotCustomers, unitKey: UNPARTITIONED_KEY }]));
  });
  afterAll(async () => t.drop());

  it("runs pairs in dependency order and publishes each unit with its input versions", async () => {
    const r = await executeRun(t.db, request(day("2026-06-01", [T.fctOrders, T.stgOrders, T.landRawOrders])));
    expect(r).toMatchObject({ status: "succeeded", waves: 3 });
    const fct = await t.db.publish.findFirstOrThrow({ where: { dataset: { nodeId: D.fctOrders }, unitKey: "2026-06-01" } });
    expect(fct.inputVersion).toBe("dim_customers@1,stg_orders@1");
    expect(fct.rowCount).toBe(await t.db.warehouseRow.count({ where: { dataset: { nodeId: D.rawOrders }, unitKey: "2026-06-01" } }));
  });

  it("retries per task policy, and blocks downstream pairs of a pair that kept failing", async () => {
    const r = await executeRun(
      t.db,
      request(day("2026-06-02", [T.landRawOrders, T.stgOrders, T.fctOrders]), {
        retries: { [T.stgOrders]: { maxTries: 3 } },
        failures: (task) => (task === T.stgOrders ? { failBeforeWrite: true, error: "down" } : undefined),
      }),
    );
    expect(r.status).toBe("partial");
    const a = await t.db.attempt.findMany({ where: { runId: r.runId }, include: { task: true }, orderBy: [{ tryNumber: "asc" }] });
    expect(a.filter((x) => x.task.nodeId === T.stgOrders).map((x) => x.status)).toEqual(["failed", "failed", "failed"]);
    expect(a.find((x) => x.task.nodeId === T.fctOrders)).toMatchObject({ status: "upstream_failed", startedAt: null, rowsWritten: null });
  });

  it("waits for publishes from outside the run by default, or reads what is there on a schedule", async () => {
    const waits = await executeRun(t.db, request(day("2026-06-02", [T.fctOrders])));
    expect(waits.status).toBe("failed");
    const reads = await executeRun(t.db, request(day("2026-06-02", [T.fctOrders]), { externalInputs: "read_available" }));
    expect(reads.status).toBe("succeeded");
    const p = await t.db.publish.findFirstOrThrow({ where: { runId: reads.runId } });
    expect([p.rowCount, p.inputVersion]).toEqual([0, "dim_customers@1,stg_orders@0"]);
  });

  it("sends an external delivery once per idempotency key", async () => {
    const week = [...Array(7).keys()].map((i) => `2026-06-${String(8 + i).padStart(2, "0")}`);
    for (const d of week) await executeRun(t.db, request(day(d, [T.landRawOrders, T.stgOrders, T.fctOrders, T.revenueDaily])));
    const first = await executeRun(t.db, request([{ taskNodeId: T.weeklyExport, unitKey: "2026-W24" }]));
    const replay = await executeRun(t.db, request([{ taskNodeId: T.weeklyExport, unitKey: "2026-W24" }]));
    expect([first.status, replay.status]).toEqual(["succeeded", "succeeded"]);
    const sent = await t.db.externalDelivery.findMany({ where: { unitKey: "2026-W24" } });
    expect(sent.map((s) => [s.runId, s.idempotencyKey])).toEqual([[first.runId, "job:finance:weekly_revenue_export/2026-W24/revenue_daily@1"]]);
    expect(JSON.parse(sent[0]!.payload).days).toEqual(week);
  });

  it("rejects keys the partition definition does not accept and records them as invalid", async () => {
    const r = await executeRun(t.db, request([{ taskNodeId: T.stgOrders, unitKey: "2026-05-17" }]));
    expect(r.status).toBe("cancelled");
    expect(r.rejected).toEqual([{ nodeId: T.stgOrders, unitKey: "2026-05-17", reason: '"2026-05-17" is before the first unit 2026-05-18' }]);
    expect(await t.db.invalidKey.count({ where: { runId: r.runId, source: "api" } })).toBe(1);
    await expect(executeRun(t.db, request([{ taskNodeId: "job:orders:nope", unitKey: "2026-06-01" }]))).rejects.toThrow("unknown task job:orders:nope");
  });
});
