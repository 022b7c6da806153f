import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as commander from "@/app/api/v1/incidents/[id]/commander/route";
import * as detail from "@/app/api/v1/incidents/[id]/route";
import * as severity from "@/app/api/v1/incidents/[id]/severity/route";
import * as list from "@/app/api/v1/incidents/route";
import type { Db } from "../db/client";
import { COMMANDER, OPERATOR, STG } from "../repair/testing/journey-steps";
import { recordScope } from "../repair/record-scope";
import { writeIncidentSeverity } from "../repositories/incidents/incidents";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { abandonIncident } from "./abandon-incident";
import { getIncident } from "./get-incident";
import { openIncident } from "./open-incident";
import { requireIncident } from "./require-incident";
import { setSeverity } from "./set-severity";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const reason = "finance quoted the W33 number to the board";

/** What a refused change could have written. */
async function snapshot(db: Db, id: string) {
  const [audit, row] = await Promise.all([
    db.auditEntry.count(),
    db.incident.findUnique({ where: { id }, select: { severity: true, severityBasis: true, commander: true, status: true } }),
  ]);
  return { audit, row };
}

/**
 * The incident as people run it (issue 36 item 2), on the demo: the severity computed at open and
 * at scope from the closure, set by a person with a reason, the commander assigned — each change
 * with its audit entry in one transaction, refused (and nothing written) on bad input, a viewer or
 * a closed incident.
 */
describe.each(providersUnderTest())("severity, commander and owners of an incident (%s)", (provider) => {
  let t: TestDatabase;
  let id = "";
  const saved = process.env.DATABASE_URL;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
    process.env.DATABASE_URL = t.target.url;
  }, 180_000);
  afterAll(async () => {
    process.env.DATABASE_URL = saved;
    await t?.drop();
  });

  const call = (handler: Handler, incident: string, body: unknown, user: string, method = "POST") =>
    handler(
      new Request(`http://console.test/api/v1/incidents/${incident}`, {
        method,
        ...(method === "POST" ? { body: JSON.stringify(body) } : {}),
        headers: { host: "console.test", "content-type": "application/json", "x-reparo-user": user },
      }),
      { params: Promise.resolve({ id: incident }) },
    );

  it("opened on stg_orders 2026-08-17: SEV2 computed — the W34 export is read outside and not sent yet — the opener commands, the owners are read", async () => {
    const opened = await openIncident({ taskNodeId: STG, units: ["2026-08-17"], reason: "stg_orders failed twice" }, OPERATOR, new Date(), t.db);
    id = opened.id;
    expect(opened.severity).toMatchObject({ level: "SEV2", source: "computed", setBy: null });
    expect(opened.severity!.reasons).toEqual([
      "read outside the platform, not sent yet: weekly_revenue_export 2026-W34 → SEV2",
      // The consumers the demo declares (lib/server/demo/orders-catalog.ts).
      "3 consumers reached: Churn model team, Finance ledger (export recipient), Revenue dashboard → SEV2",
      "7 datasets, 15 units reached → SEV3",
      expect.stringMatching(/^detected \d+ days ago: read for over a week, but age alone never makes SEV1$/),
    ]);
    expect(opened.commander).toEqual({ userId: "demo-operator", name: "Lukas Brandt (data engineer on call)", assigned: false });
    expect(opened.owners.map((o) => o.name)).toEqual(["finance-team", "ml-team", "orders-team"]);
    expect(opened.owners.find((o) => o.name === "finance-team")!.nodeIds).toEqual([
      "job:finance:weekly_revenue_export",
      "dataset:finance:weekly_revenue_export",
    ]);
    const [entry] = (await getIncident(id, t.db)).timeline;
    expect(entry).toMatchObject({ kind: "incident.opened", after: { severity: { level: "SEV2" } } });
  });

  it("scoped with the duplicated 2026-08-10, whose W33 export was already sent: recomputed SEV1, in the scope's entry", async () => {
    await recordScope(
      id,
      { reason: "running_balance waits on the duplicated day", addPairs: [{ taskNodeId: STG, units: ["2026-08-10"] }] },
      OPERATOR,
      new Date(),
      t.db,
    );
    const incident = await getIncident(id, t.db);
    expect(incident.severity!.level).toBe("SEV1");
    expect(incident.severity!.reasons[0]).toBe("an export already sent: weekly_revenue_export 2026-W33 → SEV1");
    expect(incident.timeline.at(-1)).toMatchObject({ kind: "incident.scoped", after: { severity: { level: "SEV1" } } });
  });

  it.each([
    { body: { severity: "SEV5", reason }, field: "body.severity" },
    { body: { severity: "SEV3" }, field: "body.reason" },
    { body: { severity: "SEV3", reason: "  " }, field: "body.reason" },
  ])("POST severity $body: 400 naming $field, nothing written", async ({ body, field }) => {
    const before = await snapshot(t.db, id);
    const res = await call(severity.POST, id, body, "demo-commander");
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(field);
    expect(await snapshot(t.db, id)).toEqual(before);
  });

  it("a viewer may not set the severity nor assign the commander: 403, nothing written", async () => {
    const before = await snapshot(t.db, id);
    expect((await call(severity.POST, id, { severity: "SEV3", reason }, "demo-viewer")).status).toBe(403);
    expect((await call(commander.POST, id, { userId: "demo-viewer" }, "demo-viewer")).status).toBe(403);
    expect(await snapshot(t.db, id)).toEqual(before);
  });

  it("the commander sets SEV2 with a reason: the level and its entry commit together, and the person's choice outlives a new computation", async () => {
    const audit = await t.db.auditEntry.count();
    const res = await call(severity.POST, id, { severity: "SEV2", reason }, "demo-commander");
    expect(res.status).toBe(200);
    expect(await t.db.auditEntry.count()).toBe(audit + 1);
    const after = await (await call(detail.GET, id, undefined, "demo-viewer", "GET")).json();
    expect(after.severity).toMatchObject({ level: "SEV2", source: "set", reasons: [reason], setBy: "demo-commander", computed: { level: "SEV1" } });
    expect(after.timeline.at(-1)).toMatchObject({
      kind: "incident.severity_set",
      actor: "demo-commander",
      reason,
      before: { level: "SEV1", source: "computed" },
      after: { level: "SEV2", source: "set", computed: "SEV1" },
    });
    await recordScope(id, { reason: "scope reviewed again", addPairs: [] }, OPERATOR, new Date(), t.db);
    const rescoped = await getIncident(id, t.db);
    expect(rescoped.severity).toMatchObject({ level: "SEV2", source: "set", computed: { level: "SEV1" } });
    expect(rescoped.timeline.at(-1)!.after).not.toHaveProperty("severity");
    const listed = await (await list.GET(new Request("http://console.test/api/v1/incidents?status=open"), { params: Promise.resolve({}) })).json();
    expect(listed.incidents.find((i: { id: string }) => i.id === id)).toMatchObject({ severity: { level: "SEV2", source: "set" } });
  });

  it("a change whose audit entry is refused leaves no trace: the severity is written in the entry's transaction", async () => {
    const before = await snapshot(t.db, id);
    await expect(setSeverity(id, { severity: "SEV4", reason: "" }, COMMANDER, new Date(), t.db)).rejects.toThrow();
    expect(await snapshot(t.db, id)).toEqual(before);
  });

  it("a computation from a stale read never overwrites a person's choice (compare-and-set on the basis read)", async () => {
    const stale = (await requireIncident(t.db, id)).severity!;
    await setSeverity(id, { severity: "SEV3", reason: "finance says the board saw W32, not W33" }, COMMANDER, new Date(), t.db);
    expect(await t.db.$transaction((tx) => writeIncidentSeverity(tx, id, stale, { computed: stale.computed, set: null }))).toBe(false);
    expect((await getIncident(id, t.db)).severity!.level).toBe("SEV3");
  });

  it.each([
    { body: { userId: "nobody-here" }, message: "body.userId: no user nobody-here" },
    { body: { userId: "demo-viewer" }, message: "body.userId: demo-viewer is a viewer: a commander must be an operator or above" },
    { body: {}, message: "body.userId" },
  ])("POST commander $body: 400 naming the field, nothing written", async ({ body, message }) => {
    const before = await snapshot(t.db, id);
    const res = await call(commander.POST, id, body, "demo-operator");
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(message);
    expect(await snapshot(t.db, id)).toEqual(before);
  });

  it("the commander is assigned, with its entry; the detail names them", async () => {
    const res = await call(commander.POST, id, { userId: "demo-commander", reason: "Dana takes command: finance is involved" }, "demo-operator");
    expect(res.status).toBe(200);
    const after = await getIncident(id, t.db);
    expect(after.commander).toEqual({ userId: "demo-commander", name: "Dana Okafor (incident commander)", assigned: true });
    expect(after.timeline.at(-1)).toMatchObject({
      kind: "incident.commander_set",
      reason: "Dana takes command: finance is involved",
      before: { commander: "demo-operator" },
      after: { commander: "demo-commander" },
    });
  });

  it("a closed incident keeps its severity and commander: 409, nothing written", async () => {
    await abandonIncident(id, "exercise over", COMMANDER, new Date(), t.db);
    const before = await snapshot(t.db, id);
    const set = await call(severity.POST, id, { severity: "SEV1", reason }, "demo-commander");
    expect(set.status).toBe(409);
    expect((await set.json()).message).toBe(`incident ${id} is abandoned: set severity needs it open, scoped, planned, repairing or validating`);
    expect((await call(commander.POST, id, { userId: "demo-operator" }, "demo-commander")).status).toBe(409);
    expect(await snapshot(t.db, id)).toEqual(before);
    expect((await getIncident(id, t.db)).allowedActions).toEqual(["add_note"]);
  });
});
