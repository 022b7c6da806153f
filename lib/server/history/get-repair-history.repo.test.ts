import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { getRepairHistory } from "./get-repair-history";
import { repairsToCsv } from "./repairs-to-csv";

const t = (iso: string) => new Date(iso);
const MIN = 60_000;
let seq = 0;

async function audit(db: TestDatabase["db"], kind: string, at: string, incidentId: string | null) {
  seq += 1;
  await db.auditEntry.create({
    data: { kind, actor: "demo-commander", actorRole: "commander", at: t(at), reason: "test", incidentId, prevHash: `h${seq - 1}`, hash: `h${seq}` },
  });
}

/**
 * Two incidents on the orders pipeline, repaired through repair runs linked to their incident and
 * to the run they repair, written straight to the tables the guided repair writes.
 *   A: stg_orders 2026-08-17 failed 10:00, detected 10:30, repair 11:00–11:20, validated 11:50, resolved 12:00
 *   B: stg_orders 2026-08-23 failed (503) 09:00 a week later, detected 09:05, repair 09:10–09:40 (repair #1)
 *      and 10:00–10:10 (#2), validated 10:30, resolved 11:05
 */
async function seed(db: TestDatabase["db"]) {
  const pipeline = await db.pipeline.create({ data: { namespace: "orders", name: "orders", owner: "orders-team" } });
  const stg = await db.task.create({
    data: { nodeId: "job:orders:stg_orders", namespace: "orders", name: "stg_orders", pipelineId: pipeline.id, owner: "orders-team", writeMode: "append" },
  });
  const fct = await db.task.create({
    data: { nodeId: "job:orders:fct_orders", namespace: "orders", name: "fct_orders", pipelineId: pipeline.id, owner: "facts-team", writeMode: "replace" },
  });
  const root = async (id: string, unit: string, failedAt: string, error: string) => {
    await db.run.create({ data: { id, pipelineId: pipeline.id, kind: "scheduled", status: "failed", startedAt: t(failedAt), endedAt: t(failedAt) } });
    await db.attempt.create({
      data: {
        runId: id,
        taskId: stg.id,
        unitKey: unit,
        tryNumber: 1,
        status: "failed",
        error,
        startedAt: new Date(t(failedAt).getTime() - MIN),
        endedAt: t(failedAt),
      },
    });
  };
  await root("root-a", "2026-08-17", "2026-08-18T10:00:00Z", "could not open a warehouse session: too many connections for role etl_orders");
  await root("root-b", "2026-08-23", "2026-08-25T09:00:00Z", "object store returned 503 SlowDown while listing the partition");
  const incident = async (id: string, unit: string, detectedAt: string, resolvedAt: string, fullRerunUnits: number) => {
    await db.incident.create({
      data: {
        id,
        title: `stg_orders ${unit} failed`,
        status: "resolved",
        pipelineId: pipeline.id,
        originRunId: `root-${id.slice(-1)}`,
        failedPairs: JSON.stringify([{ nodeId: "job:orders:stg_orders", units: [unit] }]),
        openedBy: "demo-operator",
        detectedAt: t(detectedAt),
        openedAt: t(detectedAt),
        resolvedAt: t(resolvedAt),
      },
    });
    await db.repairPlan.create({
      data: {
        incidentId: id,
        strategy: "repair_with_closure",
        plan: JSON.stringify({ cost: { unitsRecomputed: 3, fullRerunUnits, tasks: 2 } }),
        status: "launched",
        createdBy: "demo-operator",
      },
    });
  };
  await incident("inc-a", "2026-08-17", "2026-08-18T10:30:00Z", "2026-08-18T12:00:00Z", 200);
  await incident("inc-b", "2026-08-23", "2026-08-25T09:05:00Z", "2026-08-25T11:05:00Z", 300);
  const repair = async (id: string, incidentId: string, rootRunId: string, n: number, start: string, end: string, pairs: [string, string][]) => {
    await db.run.create({
      data: {
        id,
        pipelineId: pipeline.id,
        kind: "repair",
        status: "succeeded",
        incidentId,
        rootRunId,
        parentRunId: rootRunId,
        repairNumber: n,
        startedAt: t(start),
        endedAt: t(end),
      },
    });
    for (const [task, unit] of pairs) {
      await db.attempt.create({
        data: { runId: id, taskId: task, unitKey: unit, tryNumber: 1, status: "succeeded", rowsWritten: 10, startedAt: t(start), endedAt: t(end) },
      });
    }
  };
  await repair("rep-a1", "inc-a", "root-a", 1, "2026-08-18T11:00:00Z", "2026-08-18T11:20:00Z", [
    [stg.id, "2026-08-17"],
    [fct.id, "2026-08-17"],
  ]);
  await repair("rep-b1", "inc-b", "root-b", 1, "2026-08-25T09:10:00Z", "2026-08-25T09:40:00Z", [[stg.id, "2026-08-23"]]);
  await repair("rep-b2", "inc-b", "root-b", 2, "2026-08-25T10:00:00Z", "2026-08-25T10:10:00Z", [
    [stg.id, "2026-08-23"],
    [fct.id, "2026-08-23"],
    [fct.id, "2026-08-24"],
  ]);
  await audit(db, "validation.passed", "2026-08-18T11:50:00Z", "inc-a");
  await audit(db, "unit.marked_success", "2026-08-18T11:55:00Z", "inc-a");
  await audit(db, "validation.passed", "2026-08-25T10:30:00Z", "inc-b");
  await audit(db, "unit.skipped", "2026-08-25T10:40:00Z", "inc-b");
  await audit(db, "unit.skipped", "2026-08-25T10:41:00Z", "inc-b");
  await audit(db, "user.added", "2026-08-25T10:42:00Z", null);
  // An earlier demo's mark: its incident was replaced by a reload, the audit entry stays.
  await audit(db, "unit.marked_success", "2026-08-25T10:43:00Z", "inc-gone");
}

describe.each(providersUnderTest())("repair history on %s", (provider) => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase(provider);
    await seed(tdb.db);
  }, 60_000);
  afterAll(async () => tdb?.drop());

  it("labels every repair run with its incident and original run, and computes its durations", async () => {
    const h = await getRepairHistory({ format: "json" }, t("2026-09-01T00:00:00Z"), tdb.db);
    expect(h.repairs.map((r) => r.runId)).toEqual(["rep-b2", "rep-b1", "rep-a1"]);
    const a = h.repairs.find((r) => r.runId === "rep-a1")!;
    expect(a).toMatchObject({
      repairNumber: 1,
      rootRunId: "root-a",
      pipeline: "orders",
      tasks: ["job:orders:stg_orders"],
      owners: ["facts-team", "orders-team"],
      incident: { id: "inc-a", href: "/incidents/inc-a" },
      failureCategories: ["connection"],
      timeToDetectMs: 30 * MIN,
      timeToRepairMs: 50 * MIN,
      timeToValidateMs: 30 * MIN,
      timeToResolutionMs: 90 * MIN,
      unitsRecomputed: 2,
      fullRerunUnits: 200,
    });
    const b2 = h.repairs.find((r) => r.runId === "rep-b2")!;
    expect(b2).toMatchObject({
      repairNumber: 2,
      failureCategories: ["throttling"],
      timeToDetectMs: 5 * MIN,
      timeToRepairMs: 65 * MIN,
      timeToValidateMs: 20 * MIN,
      timeToResolutionMs: 120 * MIN,
      unitsRecomputed: 3,
      fullRerunUnits: 300,
    });
    expect(h.repairs.find((r) => r.runId === "rep-b1")).toMatchObject({ timeToRepairMs: 35 * MIN, timeToValidateMs: 50 * MIN });
  });

  it("aggregates: repairs per week, median and p90 resolution, offenders, compute, risky interventions", async () => {
    const h = await getRepairHistory({ format: "json" }, t("2026-09-01T00:00:00Z"), tdb.db);
    expect(h.totals).toEqual({
      repairs: 3,
      incidents: 2,
      medianResolutionMs: 120 * MIN,
      p90ResolutionMs: 120 * MIN,
      unitsRecomputed: 6,
      fullRerunUnits: 800,
      markSuccess: 1,
      skips: 2,
    });
    expect(h.weekly).toEqual([
      { week: "2026-W34", repairs: 1, medianResolutionHours: 1.5, p90ResolutionHours: 1.5 },
      { week: "2026-W35", repairs: 2, medianResolutionHours: 2, p90ResolutionHours: 2 },
    ]);
    expect(h.compute).toEqual([
      { week: "2026-W34", unitsRecomputed: 2, fullRerunUnits: 200 },
      { week: "2026-W35", unitsRecomputed: 4, fullRerunUnits: 600 },
    ]);
    expect(h.offenders).toEqual([{ task: "job:orders:stg_orders", repairs: 3, categories: { connection: 1, throttling: 2 } }]);
    // Interventions only: the validations, user.added and the mark on a reloaded-away incident are not counted.
    expect(h.interventionKinds).toEqual(["unit.skipped", "unit.marked_success"]);
    expect(h.interventions).toEqual([
      { week: "2026-W34", counts: { "unit.marked_success": 1, "unit.skipped": 0 } },
      { week: "2026-W35", counts: { "unit.marked_success": 0, "unit.skipped": 2 } },
    ]);
  });

  it("filters by period, owner and task, and exports the same rows as CSV", async () => {
    const now = t("2026-09-01T00:00:00Z");
    expect((await getRepairHistory({ format: "json", from: "2026-08-25", to: "2026-08-25" }, now, tdb.db)).repairs.map((r) => r.runId)).toEqual([
      "rep-b2",
      "rep-b1",
    ]);
    expect((await getRepairHistory({ format: "json", owner: "facts-team" }, now, tdb.db)).repairs.map((r) => r.runId)).toEqual(["rep-b2", "rep-a1"]);
    expect((await getRepairHistory({ format: "json", task: "fct_orders" }, now, tdb.db)).repairs).toEqual([]);
    // Filters that match nothing keep every choice in their dropdowns.
    const none = await getRepairHistory({ format: "json", from: "2026-09-01", owner: "nobody" }, now, tdb.db);
    expect(none.repairs).toEqual([]);
    expect(none.filters).toEqual({ pipelines: ["orders"], tasks: ["job:orders:stg_orders"], owners: ["facts-team", "orders-team"] });
    const h = await getRepairHistory({ format: "json", pipeline: "orders", to: "2026-08-20" }, now, tdb.db);
    const csv = repairsToCsv(h.repairs).split("\r\n");
    expect(csv[0]).toContain("repair_run_id,repair_number,status,pipeline");
    expect(csv[1]).toContain("rep-a1,1,succeeded,orders,root-a,inc-a,stg_orders 2026-08-17 failed,job:orders:stg_orders");
    expect(csv[1]).toContain(",1800,3000,1800,5400,2,200");
    expect(h.totals).toMatchObject({ markSuccess: 1, skips: 0 });
  });
});
