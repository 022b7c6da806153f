import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { openIncident } from "../incidents/open-incident";
import { getIncident } from "../incidents/get-incident";
import { cleanUnit } from "./clean-unit";
import { confirmPlan } from "./confirm-plan";
import { getPreconditions } from "./get-preconditions";
import { getProgress } from "./get-progress";
import { getScope } from "./get-scope";
import { launchRepair } from "./launch-repair";
import { previewPlan } from "./preview-plan";
import { recordScope } from "./record-scope";
import { resolveIncident } from "../incidents/resolve-incident";
import { overrideValidation } from "../incidents/override-validation";
import { statusOfError } from "../http/route";
import { validateIncident } from "./validate-incident";
import { COMMANDER, OPERATOR, STG } from "./testing/journey-steps";

const NOW = new Date("2026-08-26T09:00:00Z");
const noOptions = { replay: [], parameterOverrides: {} };

// The acceptance journey, on the demo world, through the use cases the routes call.
describe.each(providersUnderTest())("the guided repair of stg_orders 2026-08-17 (%s)", (provider) => {
  let t: TestDatabase;
  let id = "";
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
  }, 180_000);
  afterAll(async () => t?.drop());

  it("opens from the failure, linked to the run it failed in", async () => {
    const incident = await openIncident({ taskNodeId: STG, units: ["2026-08-17"], reason: "stg_orders failed twice on 2026-08-17" }, OPERATOR, NOW, t.db);
    id = incident.id;
    expect(incident).toMatchObject({
      status: "open",
      pipeline: "orders",
      // Its own root cause (nothing it reads is wrong), titled in the matrix's words.
      title: "stg_orders 2026-08-17 half-written (20 rows left by failed tries)",
      failedPairs: [{ nodeId: STG, units: ["2026-08-17"] }],
    });
    expect(incident.originRunId).not.toBeNull();
  });

  it("scope: the closure with what each node holds now, and the 2026-08-23 failure running_balance waits on", async () => {
    const scope = await getScope(id, NOW, t.db);
    const node = (n: string) => scope.nodes.find((x) => x.nodeId === n)!;
    expect(node(STG)).toMatchObject({ seed: true, units: [["2026-08-17", "2026-08-17"]], holdsNow: [{ state: "failed", count: 1 }] });
    expect(node("job:orders:running_balance").units).toEqual([["2026-08-17", "2026-08-25"]]);
    expect(node("dataset:warehouse:running_balance").holdsNow).toEqual([{ state: "blocked", units: [["2026-08-17", "2026-08-25"]], count: 9 }]);
    expect(node("job:finance:weekly_revenue_export").units).toEqual([["2026-W34", "2026-W34"]]);
    // The drawn scope: the lineage edges between nodes in scope, and each unit's state for the matrix.
    expect(scope.edges).toHaveLength(13);
    expect(scope.edges).toContainEqual({ from: "dataset:warehouse:fct_orders", to: "job:orders:running_balance" });
    expect(scope.edges.every((e) => scope.nodes.some((n) => n.nodeId === e.from) && scope.nodes.some((n) => n.nodeId === e.to))).toBe(true);
    expect(node("dataset:warehouse:running_balance").cells.map((c) => `${c.key} ${c.state}`)).toEqual(
      ["17", "18", "19", "20", "21", "22", "23", "24", "25"].map((d) => `2026-08-${d} blocked`),
    );
    expect(node("dataset:warehouse:stg_orders").cells).toEqual([{ key: "2026-08-17", state: "failed" }]);
    // Root cause first: what running_balance waits on (the failed 2026-08-23) and what it would be
    // rebuilt on (its own past, built on the duplicated 2026-08-10), traced to stg_orders.
    expect(scope.waitsOn).toEqual([
      {
        taskNodeId: STG,
        units: ["2026-08-10", "2026-08-23"],
        neededBy: "running_balance 2026-08-17…2026-08-25",
        reason:
          "stg_orders 2026-08-10 (duplicate), 2026-08-23 (failed): nothing in this incident re-runs them, so running_balance 2026-08-17…2026-08-25 cannot be rebuilt soundly — add them to this incident, or repair them first.",
      },
    ]);
    // The plan carries the same finding: blocked on the failed 2026-08-23 (one click adds it), warned about 2026-08-10.
    const unticked = await previewPlan(id, { ...noOptions, strategy: "targeted_with_closure" }, NOW, t.db);
    expect(unticked.runnable).toBe(false);
    expect(unticked.blockers.find((b) => b.code === "waits_on_upstream")).toMatchObject({
      node: STG,
      message: expect.stringMatching(/^running_balance 2026-08-17…2026-08-25 reads stg_orders 2026-08-23 \(failed\), which this plan does not re-run/),
      resolution: { kind: "add_pairs", taskNodeId: STG, units: ["2026-08-23"] },
    });
    expect(unticked.warnings.find((w) => w.code === "built_on_wrong_upstream")?.message).toMatch(/stg_orders 2026-08-10 \(duplicate\)/);
    // Planned without its closure, nothing reads 2026-08-23: no such blocker.
    expect((await previewPlan(id, { ...noOptions, strategy: "targeted" }, NOW, t.db)).blockers.map((b) => b.code)).not.toContain("waits_on_upstream");
    await recordScope(
      id,
      { reason: "running_balance cannot be rebuilt past 2026-08-23 without it", addPairs: [{ taskNodeId: STG, units: ["2026-08-23"] }] },
      OPERATOR,
      NOW,
      t.db,
    );
    // The commander took only 2026-08-23 (the duplicated 2026-08-10 is left for later: see below).
    expect((await getScope(id, NOW, t.db)).waitsOn.map((w) => w.units)).toEqual([["2026-08-10"]]);
  });

  it("preconditions: stg_orders appends (unsafe), running_balance is sequential, the export has side effects", async () => {
    const p = await getPreconditions(id, NOW, t.db);
    const verdict = (task: string, key: string) => p.tasks.find((x) => x.name === task)!.checks.find((c) => c.key === key)!.verdict;
    expect(verdict("stg_orders", "idempotent")).toBe("unsafe");
    expect(verdict("running_balance", "independent")).toBe("unsafe");
    expect(verdict("weekly_revenue_export", "side_effects")).toBe("unsafe");
    expect(verdict("fct_orders", "as_of_now")).toBe("unsafe");
    expect(verdict("revenue_daily", "idempotent")).toBe("safe");
  });

  it("response: the append blocker shows the 20 partial rows; cleaning really deletes them", async () => {
    const before = await previewPlan(id, noOptions, NOW, t.db);
    expect(before.runnable).toBe(false);
    const blocker = before.blockers.find((b) => b.code === "append_unresolved")!;
    // 2026-08-23's one try failed before writing: nothing to remove, so only 2026-08-17 waits on a cleaning (and the plan says why).
    expect(blocker.resolution).toMatchObject({
      kind: "clean_unit",
      taskNodeId: STG,
      units: ["2026-08-17"],
      rowsInUnits: [{ unitKey: "2026-08-17", rows: 20 }],
      cleanable: { possible: true, why: null },
    });
    expect(before.warnings.find((w) => w.code === "append_unit_empty")?.message).toBe(
      "stg_orders 2026-08-23 holds nothing to remove: every attempt wrote 0 rows and none was published, so the re-run's append writes its only copy.",
    );
    expect(before.excluded.map((e) => [e.name, e.keyRanges])).toEqual([["weekly_revenue_export", [["2026-W34", "2026-W34"]]]]);
    const cleaned = await cleanUnit(
      id,
      { taskNodeId: STG, unitKey: "2026-08-17", reason: "remove the 20 partial rows before re-running the append" },
      OPERATOR,
      NOW,
      t.db,
    );
    expect(cleaned.rowsRemoved).toBe(20);
    const after = await previewPlan(id, noOptions, NOW, t.db);
    expect(after.runnable).toBe(true);
    expect(after.warnings.map((w) => w.code)).toContain("append_unit_empty");
    const stg = await t.db.dataset.findUnique({ where: { nodeId: "dataset:warehouse:stg_orders" } });
    expect(await t.db.warehouseRow.count({ where: { datasetId: stg!.id, unitKey: "2026-08-17" } })).toBe(0);
  });

  it("plan: runnable, by wave, the finance export excluded, cost against a full re-run", async () => {
    const plan = await previewPlan(id, { ...noOptions, strategy: "targeted_with_closure" }, NOW, t.db);
    expect(plan.runnable).toBe(true);
    expect(plan.waves.map((w) => w.map((p) => p.name))).toEqual([
      ["stg_orders"],
      ["fct_orders"],
      ["revenue_daily", "running_balance", "build_order_features"],
      ["refresh_executive_dashboard"],
    ]);
    expect(plan.cost).toEqual({ unitsRecomputed: 2 + 2 + 2 + 9 + 2 + 2, fullRerunUnits: 600, tasks: 6 });
    expect(plan.excluded.map((e) => e.name)).toEqual(["weekly_revenue_export"]);
    await confirmPlan(id, { ...noOptions, strategy: "targeted_with_closure", reason: "repair the failed days and their closure" }, OPERATOR, NOW, t.db);
  });

  it("execute: a repair run linked to the original, every pair succeeded", async () => {
    const launched = await launchRepair(id, { resume: false, concurrency: 4 }, OPERATOR, NOW, t.db);
    expect(launched).toMatchObject({ repairNumber: 1, pairs: 19 });
    expect(await launched.execution).toBe("succeeded");
    const progress = await getProgress(id, t.db);
    expect(progress).toMatchObject({ total: 19, done: 19, succeeded: 19, failed: 0, run: { status: "succeeded", repairNumber: 1 } });
    const run = await t.db.run.findUnique({ where: { id: launched.runId } });
    const incident = await getIncident(id, t.db);
    expect(run).toMatchObject({ kind: "repair", incidentId: id, rootRunId: incident.originRunId, parentRunId: incident.originRunId });
    expect(incident.status).toBe("validating");
    expect(await t.db.repairClaim.count()).toBe(0);
  });

  it("validate: refused while running_balance is built on the duplicated 2026-08-10 — exactly the units the matrix calls suspect", async () => {
    const v = await validateIncident(id, NOW, t.db);
    expect(v.passed).toBe(false);
    const failing = v.units.filter((u) => !u.passed);
    expect(failing.map((u) => `${u.name} ${u.unitKey} ${u.state}`)).toEqual(
      ["17", "18", "19", "20", "21", "22", "23", "24", "25"].map((d) => `running_balance 2026-08-${d} suspect`),
    );
    expect(failing[0]!.failures).toEqual([
      "suspect: built from upstream dataset:warehouse:running_balance 2026-08-16, which is itself suspect: published, but its figures carry that problem — to clear it: add that upstream unit to the repair (Scope: add it), or mark it known-bad with a reason",
    ]);
    // One truth: no unit passes that the same answer (and the matrix) calls suspect.
    expect(v.units.filter((u) => u.state === "suspect" && u.passed)).toEqual([]);
    const stg17 = v.units.find((u) => u.name === "stg_orders" && u.unitKey === "2026-08-17")!;
    expect(stg17).toMatchObject({ passed: true, state: "repaired", rowCount: 40, sourceCount: 40, rowsInWarehouse: 40, publishCount: 1 });
    expect(v.units).toHaveLength(19);
  });

  it("handled: 2026-08-10 added to the repair, the append's units cleaned, a second repair — validation passes, the incident resolves", async () => {
    await recordScope(
      id,
      { reason: "running_balance is built on the duplicated 2026-08-10", addPairs: [{ taskNodeId: STG, units: ["2026-08-10"] }] },
      OPERATOR,
      new Date(),
      t.db,
    );
    const blocked = await previewPlan(id, { ...noOptions, strategy: "targeted_with_closure" }, new Date(), t.db);
    expect(blocked.blockers.map((b) => [b.code, b.keyRanges])).toEqual([
      [
        "append_unresolved",
        [
          ["2026-08-10", "2026-08-10"],
          ["2026-08-17", "2026-08-17"],
          ["2026-08-23", "2026-08-23"],
        ],
      ],
    ]);
    // The planner repeats every seed of the append task: each unit it re-runs must be emptied first.
    // (Now, by the clock: the first repair's attempts are dated by it, and a cleaning counts only after them.)
    for (const unitKey of ["2026-08-10", "2026-08-17", "2026-08-23"])
      await cleanUnit(id, { taskNodeId: STG, unitKey, reason: "empty the unit before the append runs again" }, OPERATOR, new Date(), t.db);
    const plan = await previewPlan(id, { ...noOptions, strategy: "targeted_with_closure" }, new Date(), t.db);
    expect([plan.runnable, plan.cost.unitsRecomputed, plan.blockers.map((b) => b.message)]).toEqual([true, 31, []]);
    expect(plan.waves.flat().find((p) => p.name === "running_balance")!.keyRanges).toEqual([["2026-08-10", "2026-08-25"]]);
    await confirmPlan(id, { ...noOptions, strategy: "targeted_with_closure", reason: "repair 2026-08-10 and what reads it" }, OPERATOR, new Date(), t.db);
    const launched = await launchRepair(id, { resume: false, concurrency: 4 }, OPERATOR, new Date(), t.db);
    expect(await launched.execution).toBe("succeeded");
    const v = await validateIncident(id, new Date(), t.db);
    expect(v.units.filter((u) => !u.passed).map((u) => `${u.name} ${u.unitKey} ${u.state}: ${u.failures.join("; ")}`)).toEqual([]);
    expect(v.passed).toBe(true);
    // With 2026-08-10 in scope the closure reaches the W33 file already sent to the finance ledger:
    // neither re-sent (the export is excluded) nor acknowledged, it holds the resolve (409, named).
    const refused = await resolveIncident(id, "validation passed", OPERATOR, new Date(), t.db).catch((e: unknown) => e);
    expect([statusOfError(refused), (refused as Error).message]).toEqual([
      409,
      expect.stringContaining(
        "cannot resolve: weekly_revenue_export 2026-W33 (sent to sftp://finance-ledger.internal/inbound/weekly_revenue_2026-W33.csv on 2026-08-17 06:01 UTC)",
      ),
    ]);
    await overrideValidation(id, "validation passed; finance told about W33 and W34 separately", COMMANDER, new Date(), t.db);
    expect((await getIncident(id, t.db)).status).toBe("resolved");
  });

  it("the audit log shows each step with actor and reason, and its chain verifies", async () => {
    const timeline = (await getIncident(id, t.db)).timeline;
    expect(timeline.map((e) => e.kind)).toEqual([
      "incident.opened",
      "incident.scoped",
      "unit.deduplicated",
      "plan.confirmed",
      "repair.launched",
      "repair.finished",
      "incident.scoped",
      "unit.deduplicated",
      "unit.deduplicated",
      "unit.deduplicated",
      "plan.confirmed",
      "repair.launched",
      "repair.finished",
      "validation.passed",
      "deliveries.overridden",
      "incident.resolved",
    ]);
    expect(
      timeline.every(
        (e) =>
          e.actor ===
            (e.kind === "deliveries.overridden" || e.kind === "incident.resolved" || e.kind === "validation.passed" ? "demo-commander" : "demo-operator") &&
          e.reason.length > 0,
      ),
    ).toBe(true);
    expect(timeline.find((e) => e.kind === "unit.deduplicated")).toMatchObject({
      before: { rows: 20 },
      after: { rows: 0, warehouse: "demo" },
      targets: [{ nodeId: "dataset:warehouse:stg_orders", units: ["2026-08-17"] }],
    });
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true, entries: 16 });
  });
});

describe("opening an incident from a link with a range of units", () => {
  it("expands from..to through the partition definition, and names a bad end", async () => {
    const t = await createDemoTestDatabase("sqlite");
    try {
      const incident = await openIncident(
        { taskNodeId: "job:orders:running_balance", units: ["2026-08-17..2026-08-20", "2026-08-19"], rootCause: "as_given", reason: "balance hole" },
        OPERATOR,
        NOW,
        t.db,
      );
      expect(incident.failedPairs).toEqual([{ nodeId: "job:orders:running_balance", units: ["2026-08-17", "2026-08-18", "2026-08-19", "2026-08-20"] }]);
      // Followed, the same link opens on what those balances come from: the failed 2026-08-17 and the duplicated 2026-08-10 they carry.
      expect(incident.rootCause.proposedPairs).toEqual([{ nodeId: STG, units: ["2026-08-10", "2026-08-17"] }]);
      await expect(openIncident({ taskNodeId: STG, units: ["2026-08-17..2026-8-20"], reason: "bad" }, OPERATOR, NOW, t.db)).rejects.toThrow(
        /body\.units\.0: "2026-8-20" is not a unit/,
      );
    } finally {
      await t.drop();
    }
  }, 120_000);
});
