import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getIncident } from "../incidents/get-incident";
import { openIncident } from "../incidents/open-incident";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { loadUnitStateIndex } from "./unit-state-index";
import { declareReplace } from "./declare-replace";
import { markUnits } from "./mark-units";
import { overrideValidation } from "../incidents/override-validation";
import { previewPlan } from "./preview-plan";
import { confirmPlan } from "./confirm-plan";
import { resolveIncident } from "../incidents/resolve-incident";
import { COMMANDER, OPERATOR, STG } from "./testing/journey-steps";

const reason = "recorded for the test";

describe.each(providersUnderTest())("interventions (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
  }, 180_000);
  afterAll(async () => t?.drop());

  it("skip with a recorded omission: the unit shows as skipped (with the reason), and the incident can resolve with it accounted for", async () => {
    const incident = await openIncident({ taskNodeId: STG, units: ["2026-08-23"], reason: "raw partition lost" }, OPERATOR, new Date(), t.db);
    await expect(
      markUnits(incident.id, { kind: "skipped", taskNodeId: STG, units: ["2026-08-23"], reason: "" }, COMMANDER, new Date(), t.db),
    ).rejects.toThrow();
    await markUnits(
      incident.id,
      { kind: "skipped", taskNodeId: STG, units: ["2026-08-23"], reason: "the day is optional for staging; agreed with finance" },
      COMMANDER,
      new Date(),
      t.db,
    );
    const state = (await loadUnitStateIndex(t.db, new Date(), ["dataset:warehouse:stg_orders"])).get("dataset:warehouse:stg_orders", "2026-08-23")!;
    expect(state.result.state).toBe("skipped");
    expect(state.result.reasons[0]).toContain("the day is optional for staging");
    await resolveIncident(incident.id, "omission recorded", COMMANDER, new Date(), t.db);
    const timeline = (await getIncident(incident.id, t.db)).timeline.map((e) => e.kind);
    expect(timeline).toEqual(["incident.opened", "unit.skipped", "validation.passed", "incident.resolved"]);
  });

  it("mark success needs evidence the server can check: refused for an unpublished unit, accepted with a passing reconciliation", async () => {
    const incident = await openIncident(
      { taskNodeId: "job:orders:revenue_daily", units: ["2026-08-16"], reason: "checking a unit" },
      OPERATOR,
      new Date(),
      t.db,
    );
    await expect(
      markUnits(incident.id, { kind: "marked_success", taskNodeId: STG, units: ["2026-08-16"], reason }, COMMANDER, new Date(), t.db),
    ).rejects.toMatchObject({ problem: "invalid" });
    const other = await openIncident({ taskNodeId: STG, units: ["2026-08-17"], reason: "x-check" }, OPERATOR, new Date(), t.db);
    await expect(
      markUnits(other.id, { kind: "marked_success", taskNodeId: STG, units: ["2026-08-17"], reason, evidence: "looked fine" }, COMMANDER, new Date(), t.db),
    ).rejects.toThrow(/no publish in the ledger/);
    await markUnits(
      incident.id,
      { kind: "marked_success", taskNodeId: STG, units: ["2026-08-16"], reason, evidence: "row count matches raw_orders" },
      COMMANDER,
      new Date(),
      t.db,
    );
    const entry = (await getIncident(incident.id, t.db)).timeline.at(-1)!;
    expect(entry).toMatchObject({ kind: "unit.marked_success" });
    expect((entry.after as { evidence: string }).evidence).toMatch(/2026-08-16: \d+ rows for a source count of \d+/);
  });

  it("replaying a side-effecting task is a commander's decision: an operator's plan that replays the finance export is refused, nothing stored", async () => {
    const incident = await openIncident({ taskNodeId: STG, units: ["2026-08-10"], reason: "the retry appended" }, OPERATOR, new Date(), t.db);
    const replay = [{ taskNodeId: "job:finance:weekly_revenue_export", idempotencyKey: "w33-resend-1" }];
    await expect(
      confirmPlan(incident.id, { strategy: "targeted_with_closure", replay, parameterOverrides: {}, reason: "re-send W33" }, OPERATOR, new Date(), t.db),
    ).rejects.toMatchObject({
      problem: "forbidden",
      message: expect.stringMatching(/^body\.replay: replaying weekly_revenue_export re-sends its side effect: a commander confirms it/),
    });
    expect(await t.db.repairPlan.count({ where: { incidentId: incident.id } })).toBe(0);
  });

  it("declare fixed to replace lifts the append blocker without cleaning, and is recorded as a config change", async () => {
    const incident = await openIncident({ taskNodeId: STG, units: ["2026-08-10"], reason: "duplicate day" }, OPERATOR, new Date(), t.db);
    expect((await previewPlan(incident.id, { replay: [], parameterOverrides: {} }, new Date(), t.db)).blockers.map((b) => b.code)).toContain(
      "append_unresolved",
    );
    await declareReplace(incident.id, { taskNodeId: STG, reason: "stg_orders now overwrites its day (PR 482)" }, OPERATOR, new Date(), t.db);
    // The append blocker is lifted; what is left is the closure's wait on the failed 2026-08-17 and 2026-08-23 (running_balance carries 08-10 forward).
    expect((await previewPlan(incident.id, { replay: [], parameterOverrides: {} }, new Date(), t.db)).blockers.map((b) => b.code)).toEqual([
      "waits_on_upstream",
    ]);
    expect((await t.db.task.findUnique({ where: { nodeId: STG } }))!.writeMode).toBe("replace");
    expect((await getIncident(incident.id, t.db)).timeline.at(-1)).toMatchObject({
      kind: "task.declared_replace",
      before: { writeMode: "append" },
      after: { writeMode: "replace" },
    });
  });

  it("validation failing: resolve is refused (422); a commander's reasoned override resolves it, on the record", async () => {
    const incident = await openIncident(
      { taskNodeId: "job:orders:fct_orders", units: ["2026-08-10"], rootCause: "as_given", reason: "divergent day" },
      OPERATOR,
      new Date(),
      t.db,
    );
    await markUnits(
      incident.id,
      { kind: "known_bad", taskNodeId: "job:orders:revenue_daily", units: ["2026-08-10"], reason: "downstream of the duplicate" },
      COMMANDER,
      new Date(),
      t.db,
    );
    await expect(resolveIncident(incident.id, reason, OPERATOR, new Date(), t.db)).rejects.toMatchObject({ problem: "refused" });
    await overrideValidation(incident.id, "finance accepts the divergence for W33; fix tracked in PR 483", COMMANDER, new Date(), t.db);
    const detail = await getIncident(incident.id, t.db);
    expect(detail.status).toBe("resolved");
    expect(detail.timeline.at(-1)).toMatchObject({
      kind: "validation.overridden",
      actor: "demo-commander",
      before: { failedUnits: ["fct_orders 2026-08-10"] },
    });
  });
});
