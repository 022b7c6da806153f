import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/roles";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { openIncident } from "../incidents/open-incident";
import { receiveWarehouseCountsRequest } from "../http/ingestion-requests";
import { tableCounts } from "../ingestion/testing/db-snapshot";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { setWarehouseConnection } from "../warehouses/warehouse-connections";
import { confirmPlan } from "./confirm-plan";
import { declareCleaned } from "./declare-cleaned";
import { previewPlanDispatch } from "./dry-run";
import { launchRepair } from "./launch-repair";
import { previewPlan } from "./preview-plan";
import { recordScope } from "./record-scope";
import { failingOnlyOnTheDuplicatedChain, OPERATOR, STG } from "./testing/journey-steps";
import { validateIncident } from "./validate-incident";

const NOW = new Date("2026-08-26T09:00:00Z");
const ADMIN: Actor = { id: "ada", role: "admin", source: "cli", namespaces: [] };
const noOptions = { replay: [], parameterOverrides: {} };
const STG_DATA = "dataset:warehouse:stg_orders";
const count = (db: TestDatabase["db"], rowCount: number, measuredAt: Date, units = ["2026-08-17"], now = NOW) =>
  receiveWarehouseCountsRequest(
    new Request("http://console.test/api/v1/warehouse-counts", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(
        units.map((unitKey) => ({
          dataset: { nodeId: STG_DATA },
          unitKey,
          rowCount,
          measuredAt: measuredAt.toISOString(),
          source: `select count(*) from stg_orders where order_day = '${unitKey}'`,
        })),
      ),
    }),
    db,
    now,
  );

/**
 * Issue 14's last rule for cleaning: a unit whose warehouse Reparo is not connected to can be
 * declared cleaned outside Reparo, but the append blocker lifts only on measured evidence — a
 * count of the unit's rows in its warehouse, taken after its latest attempt, showing 0.
 */
describe.each(providersUnderTest())("declared cleaned outside Reparo, believed on a count (%s)", (provider) => {
  let t: TestDatabase;
  let id = "";
  let latestAttempt = 0;
  const blocker = async () =>
    (await previewPlan(id, noOptions, NOW, t.db)).blockers.find((b) => b.code === "append_unresolved" && b.keyRanges.some(([a]) => a === "2026-08-17"));
  const unit17 = async () => (await blocker())?.resolution?.rowsInUnits.find((u) => u.unitKey === "2026-08-17");

  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
    const incident = await openIncident({ taskNodeId: STG, units: ["2026-08-17"], reason: "stg_orders failed twice on 2026-08-17" }, OPERATOR, NOW, t.db);
    id = incident.id;
    await recordScope(
      id,
      { reason: "closure reviewed; running_balance also waits on 2026-08-23", addPairs: [{ taskNodeId: STG, units: ["2026-08-23"] }] },
      OPERATOR,
      NOW,
      t.db,
    );
    await setWarehouseConnection("warehouse", { connection: { kind: "none" }, reason: "our warehouse is not reachable from the console" }, ADMIN, NOW, t.db);
    const task = await t.db.task.findFirstOrThrow({ where: { nodeId: STG } });
    const last = await t.db.attempt.findFirstOrThrow({ where: { taskId: task.id, unitKey: "2026-08-17" }, orderBy: { startedAt: "desc" } });
    latestAttempt = last.startedAt!.getTime();
  }, 180_000);
  afterAll(async () => t?.drop());

  it("a bad unit key is refused naming the field, and nothing is written", async () => {
    const before = await tableCounts(t.db);
    await expect(
      declareCleaned(id, { taskNodeId: STG, units: ["2026-08-17", "17 August"], reason: "cleaned by hand", statement: "" }, OPERATOR, NOW, t.db),
    ).rejects.toMatchObject({ problem: "invalid", details: { issues: [{ path: "body.units.1" }] } });
    expect(await tableCounts(t.db)).toEqual(before);
  });

  it("the declaration is recorded but lifts nothing where no count has arrived; a count of 0 already in evidences it at once", async () => {
    // 2026-08-23 was counted empty before anyone declared it cleaned.
    expect((await count(t.db, 0, new Date(NOW.getTime() - 90_000), ["2026-08-23"])).status).toBe(200);
    expect(await t.db.auditEntry.count({ where: { kind: "unit.clean_evidenced" } })).toBe(0); // nothing declared yet: a count alone is no intervention
    const done = await declareCleaned(
      id,
      {
        taskNodeId: STG,
        units: ["2026-08-17", "2026-08-23"],
        reason: "deleted the partial rows in psql",
        statement: "delete from stg_orders where order_day in ('2026-08-17', '2026-08-23')",
      },
      OPERATOR,
      NOW,
      t.db,
    );
    const entry = await t.db.auditEntry.findFirstOrThrow({ where: { seq: done.auditSeq } });
    expect(entry).toMatchObject({ kind: "unit.clean_declared", actor: OPERATOR.id, reason: "deleted the partial rows in psql", incidentId: id });
    expect(JSON.parse(entry.after)).toMatchObject({
      task: STG,
      units: ["2026-08-17", "2026-08-23"],
      statement: "delete from stg_orders where order_day in ('2026-08-17', '2026-08-23')",
    });
    expect(await unit17()).toMatchObject({
      rows: null,
      countedBy: null,
      declared: { auditSeq: done.auditSeq, awaiting: "no count of the unit's rows has arrived yet" },
    });
    expect((await blocker())!.resolution!.rowsInUnits.map((u) => u.unitKey)).toEqual(["2026-08-17"]); // 08-23 is believed clean
    const evidenced = await t.db.auditEntry.findFirstOrThrow({ where: { kind: "unit.clean_evidenced" } });
    expect(evidenced).toMatchObject({ incidentId: id, actor: OPERATOR.id });
    expect(JSON.parse(evidenced.after)).toMatchObject({ declaredIn: done.auditSeq, rows: 0, evidencedAt: new Date(NOW.getTime() - 90_000).toISOString() });
    expect((await previewPlan(id, noOptions, NOW, t.db)).runnable).toBe(false);
    // A blocked plan dispatches nothing, so it has no dry run either.
    await expect(previewPlanDispatch(id, noOptions, OPERATOR, NOW, t.db)).rejects.toMatchObject({
      problem: "refused",
      message: expect.stringContaining("the plan is blocked"),
    });
  });

  it("a count of 0 taken before the latest attempt started proves nothing about what it wrote", async () => {
    expect((await count(t.db, 0, new Date(latestAttempt - 60_000))).status).toBe(200);
    expect((await unit17())?.declared?.awaiting).toMatch(/taken before the unit's latest attempt started/);
  });

  it("a count that still finds rows keeps the blocker, and says how many", async () => {
    expect((await count(t.db, 20, new Date(NOW.getTime() - 120_000))).status).toBe(200);
    expect(await unit17()).toMatchObject({
      rows: 20,
      countedBy: "team",
      countedAt: new Date(NOW.getTime() - 120_000).toISOString(),
      declared: { awaiting: "the latest count found 20 rows still in the unit" },
    });
  });

  it("a count of 0 after the cleaning lifts the blocker; the repair appends one copy and validation passes", async () => {
    // What the operator did outside Reparo: the demo warehouse's partial rows are gone.
    const ds = await t.db.dataset.findFirstOrThrow({ where: { nodeId: STG_DATA } });
    await t.db.warehouseRow.deleteMany({ where: { datasetId: ds.id, unitKey: { in: ["2026-08-17", "2026-08-23"] } } });
    const answer = await count(t.db, 0, new Date(NOW.getTime() - 60_000), ["2026-08-17", "2026-08-23"]);
    expect(await answer.json()).toMatchObject({
      accepted: [
        { index: 0, outcome: "updated" },
        { index: 1, outcome: "updated" },
      ],
      written: { warehouseCounts: 2 },
    });
    // 08-23 at declaring, 08-17 by the count from before its latest attempt, then both by this later one.
    expect(await t.db.auditEntry.count({ where: { kind: "unit.clean_evidenced", incidentId: id } })).toBe(4);
    expect(await blocker()).toBeUndefined();
    await confirmPlan(id, { ...noOptions, strategy: "targeted_with_closure", reason: "repair the failed day and its closure" }, OPERATOR, NOW, t.db);
    const launched = await launchRepair(id, { resume: false, concurrency: 4 }, OPERATOR, NOW, t.db);
    expect(await launched.execution).toBe("succeeded");
    const v = await validateIncident(id, NOW, t.db);
    expect(v.units.find((u) => u.name === "stg_orders" && u.unitKey === "2026-08-17")).toMatchObject({
      passed: true,
      state: "repaired",
      rowCount: 40,
      publishCount: 1,
    });
    expect(failingOnlyOnTheDuplicatedChain(v)).toEqual([]);
    // The team counts the repaired unit: its 40 rows do not undo the cleaning the count of 0 showed.
    expect((await count(t.db, 40, new Date(), ["2026-08-17"], new Date())).status).toBe(200);
    expect((await validateIncident(id, NOW, t.db)).units.find((u) => u.name === "stg_orders" && u.unitKey === "2026-08-17")).toMatchObject({
      passed: true,
      state: "repaired",
    });
    expect((await verifyAuditChain(t.db)).ok).toBe(true);
  });

  it("a connected warehouse is cleaned by Reparo, not declared", async () => {
    await setWarehouseConnection("warehouse", { connection: { kind: "demo" }, reason: "back on the demo table" }, ADMIN, NOW, t.db);
    await expect(declareCleaned(id, { taskNodeId: STG, units: ["2026-08-23"], reason: "by hand", statement: "" }, OPERATOR, NOW, t.db)).rejects.toMatchObject({
      problem: "refused",
      message: expect.stringContaining("clean the units from Reparo"),
    });
  });
});
