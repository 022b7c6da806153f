import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as abandon from "@/app/api/v1/incidents/[id]/abandon/route";
import * as cancelRepair from "@/app/api/v1/incidents/[id]/cancel-repair/route";
import * as detail from "@/app/api/v1/incidents/[id]/route";
import * as marks from "@/app/api/v1/incidents/[id]/marks/route";
import * as override from "@/app/api/v1/incidents/[id]/override/route";
import * as resolve from "@/app/api/v1/incidents/[id]/resolve/route";
import * as scope from "@/app/api/v1/incidents/[id]/scope/route";
import type { Db } from "../db/client";
import { COMMANDER, OPERATOR, plannedIncident, STG } from "../repair/testing/journey-steps";
import { markUnits } from "../repair/mark-units";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { getIncident } from "./get-incident";
import { followIncident, moveIncident } from "./move-incident";
import { openIncident } from "./open-incident";
import { requireIncident } from "./require-incident";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const reason = "a reason that is long enough";

/** Everything a refused step could have written. */
async function snapshot(db: Db) {
  const [audit, incidents, marksWritten, plans, runs] = await Promise.all([
    db.auditEntry.count(),
    db.incident.findMany({ orderBy: { id: "asc" }, select: { id: true, status: true, failedPairs: true } }),
    db.unitMark.count(),
    db.repairPlan.findMany({ select: { id: true, status: true }, orderBy: { id: "asc" } }),
    db.run.count(),
  ]);
  return { audit, incidents, marksWritten, plans, runs };
}

/**
 * The incident lifecycle (lib/domain/incident-lifecycle.ts) through the API: the detail carries
 * what the lifecycle allows now, and a step it refuses is a 409 naming the incident's status and
 * the action, with nothing written.
 */
describe.each(providersUnderTest())("the incident lifecycle through the API (%s)", (provider) => {
  let t: TestDatabase;
  let planned = "";
  const saved = process.env.DATABASE_URL;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
    process.env.DATABASE_URL = t.target.url;
    planned = await plannedIncident(t.db);
  }, 180_000);
  afterAll(async () => {
    process.env.DATABASE_URL = saved;
    await t?.drop();
  });

  const call = (handler: Handler, id: string, body: unknown, user: string, method = "POST") =>
    handler(
      new Request("http://console.test/api/v1/x", {
        method,
        ...(method === "POST" ? { body: JSON.stringify(body) } : {}),
        headers: { host: "console.test", "content-type": "application/json", "x-reparo-user": user },
      }),
      { params: Promise.resolve({ id }) },
    );

  it("the detail of a planned incident carries the actions its status allows", async () => {
    const res = await call(detail.GET, planned, undefined, "demo-viewer", "GET");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.status).toBe("planned");
    expect(body.allowedActions).toEqual([
      "scope",
      "review_preconditions",
      "dry_run_plan",
      "confirm_plan",
      "dry_run",
      "launch",
      "mark_units",
      "clean_unit",
      "declare_cleaned",
      "declare_replace",
      "abandon",
      "add_note",
      "set_severity",
      "assign",
    ]);
  });

  it.each([
    {
      name: "resolve",
      handler: resolve.POST,
      user: "demo-operator",
      body: { reason },
      action: "resolve",
      message: "is planned: resolve needs it validating",
      allowedFrom: ["validating"],
    },
    {
      name: "override",
      handler: override.POST,
      user: "demo-commander",
      body: { reason },
      action: "override_validation",
      message: "is planned: override validation needs it validating",
      allowedFrom: ["validating"],
    },
    {
      name: "cancel-repair",
      handler: cancelRepair.POST,
      user: "demo-operator",
      body: { reason },
      action: "cancel_repair",
      message: "is planned: cancel repair needs it repairing",
      allowedFrom: ["repairing"],
    },
  ])("POST $name on a planned incident: 409 naming its status and the action, nothing written", async (c) => {
    const before = await snapshot(t.db);
    const res = await call(c.handler, planned, c.body, c.user);
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.message).toBe(`incident ${planned} ${c.message}`);
    expect(body.details).toEqual({ incidentStatus: "planned", action: c.action, allowedFrom: c.allowedFrom });
    expect(await snapshot(t.db)).toEqual(before);
  });

  it("while a repair runs, marks and abandon are refused (409) and write nothing; its units stay the run's", async () => {
    const incident = await openIncident({ taskNodeId: STG, units: ["2026-08-10"], reason: "duplicate day" }, OPERATOR, new Date(), t.db);
    // As a launch leaves it (the run itself is not the point here).
    await t.db.incident.update({ where: { id: incident.id }, data: { status: "repairing" } });
    const before = await snapshot(t.db);
    const mark = await call(marks.POST, incident.id, { kind: "known_bad", taskNodeId: STG, units: ["2026-08-10"], reason }, "demo-commander");
    expect(mark.status).toBe(409);
    expect((await mark.json()).message).toBe(`incident ${incident.id} is repairing: mark units needs it open, scoped, planned or validating`);
    const gone = await call(abandon.POST, incident.id, { reason }, "demo-operator");
    expect(gone.status).toBe(409);
    expect((await gone.json()).message).toBe(`incident ${incident.id} is repairing: abandon needs it open, scoped, planned or validating`);
    const rescope = await call(scope.POST, incident.id, { reason, addPairs: [] }, "demo-operator");
    expect(rescope.status).toBe(409);
    expect(await snapshot(t.db)).toEqual(before);
    expect((await getIncident(incident.id, t.db)).allowedActions).toEqual([
      "cancel_repair",
      "clean_unit",
      "declare_cleaned",
      "declare_replace",
      "add_note",
      "set_severity",
      "assign",
    ]);
  });

  it("a mark moves an open incident to validating, in the marks' transaction", async () => {
    // (stg_orders 2026-08-23 is held by the planned incident: opening on it would answer with that one.)
    const land = "job:meters:land_meter_readings";
    const incident = await openIncident({ taskNodeId: land, units: ["2026-07"], reason: "raw partition lost" }, OPERATOR, new Date(), t.db);
    expect(incident.opened).toBe(true);
    await markUnits(incident.id, { kind: "skipped", taskNodeId: land, units: ["2026-07"], reason: "optional for the averages" }, COMMANDER, new Date(), t.db);
    const after = await getIncident(incident.id, t.db);
    expect(after.status).toBe("validating");
    expect(after.allowedActions).toContain("resolve");
    expect(after.timeline.map((e) => e.kind)).toEqual(["incident.opened", "unit.skipped"]);
  });

  it("a step that read the incident before another moved it is refused (409) and moves nothing", async () => {
    const incident = await openIncident({ taskNodeId: STG, units: ["2026-08-17"], reason: "stale read" }, OPERATOR, new Date(), t.db);
    const read = await requireIncident(t.db, incident.id, "scope");
    await t.db.incident.update({ where: { id: incident.id }, data: { status: "abandoned" } });
    await expect(t.db.$transaction((tx) => moveIncident(tx, read, "scope"))).rejects.toMatchObject({
      problem: "conflict",
      message: `incident ${incident.id} changed state meanwhile; reload it`,
    });
    expect((await t.db.incident.findUnique({ where: { id: incident.id } }))!.status).toBe("abandoned");
  });

  it("a run's end moves a repairing incident to validating, and leaves one its lifecycle does not move on where it is, refusing nothing", async () => {
    const incident = await openIncident({ taskNodeId: STG, units: ["2026-08-14"], reason: "the run ends" }, OPERATOR, new Date(), t.db);
    expect(incident.opened).toBe(true);
    await t.db.incident.update({ where: { id: incident.id }, data: { status: "repairing" } });
    expect(await t.db.$transaction((tx) => followIncident(tx, incident.id, "finish_repair"))).toEqual({ from: "repairing", to: "validating" });
    // A second end (or one after an operator moved the incident): no move, no refusal to roll the run's end back.
    expect(await t.db.$transaction((tx) => followIncident(tx, incident.id, "finish_repair"))).toBeNull();
    expect((await t.db.incident.findUnique({ where: { id: incident.id } }))!.status).toBe("validating");
  });
});
