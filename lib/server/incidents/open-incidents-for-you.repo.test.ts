import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as autoIncidents from "@/app/api/v1/pipelines/[id]/auto-incidents/route";
import { STG } from "../repair/testing/journey-steps";
import { getIncident } from "./get-incident";
import { openIncidentsForYou } from "./open-incidents-for-you";
import { putAutoIncidents } from "../pipelines/auto-incidents";
import type { Actor } from "../auth/roles";
import { errorResponse } from "../http/route";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/**
 * Incidents opened for you (issue #36 item 5) on the demo world: off by default; once a commander
 * turns it on for the orders pipeline, each of its root-cause alert groups becomes one incident
 * opened by Reparo, and a second pass opens no twin.
 */
describe.each(providersUnderTest())("incidents opened for you (%s)", (provider) => {
  let t: TestDatabase;
  const saved = process.env.DATABASE_URL;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
    process.env.DATABASE_URL = t.target.url;
  }, 180_000);
  afterAll(async () => {
    process.env.DATABASE_URL = saved;
    await t?.drop();
  });

  const put = (pipeline: string, body: unknown, user = "demo-commander") =>
    (autoIncidents.PUT as Handler)(
      new Request(`http://console.test/api/v1/pipelines/${pipeline}/auto-incidents`, {
        method: "PUT",
        body: JSON.stringify(body),
        headers: { host: "console.test", "content-type": "application/json", "x-reparo-user": user },
      }),
      { params: Promise.resolve({ id: pipeline }) },
    );

  const autoIncidentsPut = (pipeline: string, body: { enabled: boolean; reason: string }, actor: Actor) =>
    putAutoIncidents(pipeline, body, actor, new Date(), t.db).catch((e: unknown) => errorResponse(e));

  it("is off by default: nothing is opened", async () => {
    expect(await openIncidentsForYou(new Date(), t.db)).toEqual({ opened: [], left: [] });
    expect(await t.db.incident.count()).toBe(0);
  });

  it("is turned on by a commander with a reason, audited; bad input and an operator are refused, nothing written", async () => {
    const before = await t.db.auditEntry.count();
    const bad = await put("orders", { enabled: "yes", reason: "we want them" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("enabled");
    expect((await put("orders", { enabled: true, reason: "we want them" }, "demo-operator")).status).toBe(403);
    expect((await put("no-such-pipeline", { enabled: true, reason: "we want them" })).status).toBe(404);
    const limited = await autoIncidentsPut(
      "orders",
      { enabled: true, reason: "we want them" },
      { id: "meters-lead", role: "commander", source: "demo", namespaces: ["meters"] },
    );
    expect(limited).toMatchObject({ status: 403 });
    expect(await t.db.auditEntry.count()).toBe(before);

    const ok = await put("orders", { enabled: true, reason: "the orders team wants its failures opened at once" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ pipeline: "orders", enabled: true });
    const entry = await t.db.auditEntry.findFirst({ where: { kind: "pipeline.auto_incidents_set" } });
    expect(entry).toMatchObject({ actor: "demo-commander", reason: "the orders team wants its failures opened at once" });
    expect(JSON.parse(entry!.before)).toEqual({ pipeline: "orders", enabled: false });
    expect(JSON.parse(entry!.after)).toEqual({ pipeline: "orders", enabled: true });
  });

  it("opens one incident per root-cause group of orders, by Reparo; a group they already hold is left to them; no twin on the next pass", async () => {
    const first = await openIncidentsForYou(new Date(), t.db);
    // The demo's orders failures group as: the failed 08-17 and 08-23, the duplicated 08-10, and
    // running_balance's group reaching all three — held by the first two once they are open.
    expect(first.opened.map((o) => o.group)).toEqual([
      expect.stringMatching(/^stg_orders 2026-08-17 half-written .*, 2026-08-23 failed$/),
      "stg_orders 2026-08-10: duplicated",
    ]);
    expect(first.left).toEqual([
      { group: expect.stringContaining("stg_orders 2026-08-10 duplicated, 2026-08-17"), why: `held by the open incident ${first.opened[1]!.incidentId}` },
    ]);
    const incident = await getIncident(first.opened[0]!.incidentId, t.db);
    expect(incident.failedPairs).toEqual([{ nodeId: STG, units: ["2026-08-17", "2026-08-23"] }]);
    expect(incident.timeline[0]).toMatchObject({
      kind: "incident.opened",
      actor: "reparo",
      reason: expect.stringContaining("opened by Reparo for the alert group"),
    });
    // Only pipelines that asked: the meters pipeline's half-written landing stays an alert.
    expect(await t.db.incident.count()).toBe(2);

    const second = await openIncidentsForYou(new Date(), t.db);
    expect(second.opened).toEqual([]);
    expect(await t.db.incident.count()).toBe(2);
  });
});
