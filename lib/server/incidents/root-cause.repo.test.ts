import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as incidents from "@/app/api/v1/incidents/route";
import * as rootCause from "@/app/api/v1/root-cause/route";
import type { Db } from "../db/client";
import { METER_TASKS } from "../executor/task-code/node-ids";
import { OPERATOR, STG } from "../repair/testing/journey-steps";
import { cleanUnit } from "../repair/clean-unit";
import { confirmPlan } from "../repair/confirm-plan";
import { launchRepair } from "../repair/launch-repair";
import { previewPlan } from "../repair/preview-plan";
import { recordPreconditions } from "../repair/record-preconditions";
import { recordScope } from "../repair/record-scope";
import { resolveIncident } from "./resolve-incident";
import { validateIncident } from "../repair/validate-incident";
import { getIncident } from "./get-incident";
import { openIncident } from "./open-incident";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const reason = "opened from the alert on the demo";
const noOptions = { replay: [], parameterOverrides: {} };

async function written(db: Db) {
  const [audit, open] = await Promise.all([db.auditEntry.count(), db.incident.count()]);
  return { audit, open };
}

/**
 * Root cause first, through the HTTP API on the demo world (issue #33's bars): an incident opened
 * on a symptom holds its root causes and keeps the symptom in its title and timeline; a second
 * open on what an open incident holds answers with that incident, never a twin.
 */
describe.each(providersUnderTest())("root cause first (%s)", (provider) => {
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

  const post = (body: unknown, user = "demo-operator") =>
    (incidents.POST as Handler)(
      new Request("http://console.test/api/v1/incidents", {
        method: "POST",
        body: JSON.stringify(body),
        headers: { host: "console.test", "content-type": "application/json", "x-reparo-user": user },
      }),
      { params: Promise.resolve({}) },
    );
  const get = (query: string) =>
    (rootCause.GET as Handler)(
      new Request(`http://console.test/api/v1/root-cause?${query}`, { headers: { host: "console.test", "x-reparo-user": "demo-viewer" } }),
      {
        params: Promise.resolve({}),
      },
    );

  it("the half-written meters landing is named from dedupe_readings 2026-07, before and when the incident is opened", async () => {
    const res = await get(`taskNodeId=${encodeURIComponent(METER_TASKS.dedupe)}&units=2026-07`);
    expect(res.status).toBe(200);
    const view = await res.json();
    expect(view.symptom.wrong).toEqual([
      expect.objectContaining({ datasetNodeId: "dataset:warehouse:meter_readings_deduped", key: "2026-07", state: "divergent" }),
    ]);
    expect(view.roots).toEqual([
      {
        taskNodeId: METER_TASKS.land,
        datasetNodeId: "dataset:warehouse:meter_readings_raw",
        units: [expect.objectContaining({ key: "2026-07", state: "failed", words: expect.stringMatching(/^half-written \(\d+ rows left by failed tries\)$/) })],
      },
    ]);
    expect(view).toMatchObject({ followable: true, symptomIsRoot: false, proposedPairs: [{ nodeId: METER_TASKS.land, units: ["2026-07"] }], heldBy: [] });

    const before = await written(t.db);
    const opened = await post({ taskNodeId: METER_TASKS.dedupe, units: ["2026-07"], reason });
    expect(opened.status).toBe(201);
    const incident = await opened.json();
    expect(incident.failedPairs).toEqual([{ nodeId: METER_TASKS.land, units: ["2026-07"] }]);
    expect(incident.title).toMatch(/^meter_readings_deduped 2026-07 divergent from its source count, caused by land_meter_readings 2026-07: half-written/);
    expect(incident.opened).toBe(true);
    const entry = await t.db.auditEntry.findFirstOrThrow({ where: { incidentId: incident.id, kind: "incident.opened" } });
    expect(JSON.parse(entry.after!)).toMatchObject({
      failedPairs: [{ nodeId: METER_TASKS.land, units: ["2026-07"] }],
      symptom: { nodeId: METER_TASKS.dedupe, units: ["2026-07"], states: ["2026-07 divergent from its source count"] },
    });
    expect(await written(t.db)).toEqual({ audit: before.audit + 1, open: before.open + 1 });

    // The same failure again — from the symptom or from its cause — is that incident, not a twin.
    for (const body of [
      { taskNodeId: METER_TASKS.dedupe, units: ["2026-07"], reason },
      { taskNodeId: METER_TASKS.land, units: ["2026-07"], reason },
      { taskNodeId: METER_TASKS.summary, units: ["2026-07"], reason },
    ]) {
      const again = await post(body);
      expect(again.status, JSON.stringify(body)).toBe(200);
      expect(await again.json()).toMatchObject({ id: incident.id, opened: false });
    }
    expect(await written(t.db)).toEqual({ audit: before.audit + 1, open: before.open + 1 });
    // The form says so before anyone submits.
    const held = await (await get(`taskNodeId=${encodeURIComponent(METER_TASKS.dedupe)}&units=2026-07`)).json();
    expect(held.heldBy).toEqual([{ id: incident.id, title: incident.title, pairs: [{ nodeId: METER_TASKS.land, units: ["2026-07"] }] }]);
  });

  it("the meters journey: opened from the symptom, the half-written landing is repaired with its closure and validates", async () => {
    const now = new Date();
    const incident = await openIncident({ taskNodeId: METER_TASKS.dedupe, units: ["2026-07"], reason }, OPERATOR, now, t.db);
    expect(incident.failedPairs).toEqual([{ nodeId: METER_TASKS.land, units: ["2026-07"] }]);
    const id = incident.id;
    await recordScope(id, { reason: "the landing and everything built on it", addPairs: [] }, OPERATOR, now, t.db);
    await recordPreconditions(id, "landing appends; the rest replace", OPERATOR, now, t.db);
    const plan = await previewPlan(id, noOptions, now, t.db);
    const clean = plan.blockers.find((b) => b.code === "append_unresolved");
    if (clean) await cleanUnit(id, { taskNodeId: METER_TASKS.land, unitKey: "2026-07", reason: "remove the 120 rows of the half-write" }, OPERATOR, now, t.db);
    const ready = await previewPlan(id, noOptions, now, t.db);
    expect(ready.blockers).toEqual([]);
    await confirmPlan(id, { ...noOptions, strategy: ready.strategy, reason: "repair the landing and its closure" }, OPERATOR, now, t.db);
    const launched = await launchRepair(id, { resume: false, concurrency: 4 }, OPERATOR, now, t.db);
    expect(await launched.execution).toBe("succeeded");
    const v = await validateIncident(id, new Date(), t.db);
    expect(v.units.filter((u) => !u.passed).map((u) => `${u.name} ${u.unitKey} ${u.state}: ${u.failures.join("; ")}`)).toEqual([]);
    expect(v.units.map((u) => u.name)).toEqual(expect.arrayContaining(["meter_readings_raw", "meter_readings_screened", "meter_readings_deduped"]));
    await resolveIncident(id, "validated: the landing and its closure converged", OPERATOR, new Date(), t.db);
    expect((await getIncident(id, t.db)).status).toBe("resolved");
  });

  it("a blocked unit opens on the failed unit it waits on; asked as given, on itself", async () => {
    const res = await post({ taskNodeId: "job:orders:revenue_daily", units: ["2026-08-17"], reason });
    expect(res.status).toBe(201);
    const incident = await res.json();
    expect(incident.failedPairs).toEqual([{ nodeId: STG, units: ["2026-08-17"] }]);
    expect(incident.title).toBe(
      "revenue_daily 2026-08-17 blocked by a failed upstream unit, caused by stg_orders 2026-08-17: half-written (20 rows left by failed tries)",
    );

    const given = await post({ taskNodeId: "job:orders:revenue_daily", units: ["2026-08-17"], rootCause: "as_given", reason });
    expect(given.status).toBe(201);
    expect(await given.json()).toMatchObject({
      failedPairs: [{ nodeId: "job:orders:revenue_daily", units: ["2026-08-17"] }],
      title: "revenue_daily 2026-08-17 blocked by a failed upstream unit",
    });
  });

  it("two people opening on the same failure at once make one incident", async () => {
    const body = { taskNodeId: STG, units: ["2026-08-23"], reason };
    const before = await written(t.db);
    const answers = await Promise.all([post(body), post(body), post(body)]);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 201]);
    const ids = new Set(await Promise.all(answers.map(async (r) => (await r.json()).id)));
    expect(ids.size).toBe(1);
    expect(await written(t.db)).toEqual({ audit: before.audit + 1, open: before.open + 1 });
  });

  it("part of the units held elsewhere: the new incident takes only the rest", async () => {
    const res = await post({ taskNodeId: STG, units: ["2026-08-10", "2026-08-23"], rootCause: "as_given", reason });
    expect(res.status).toBe(201);
    expect((await res.json()).failedPairs).toEqual([{ nodeId: STG, units: ["2026-08-10"] }]);
  });

  it("a bad key or task is a 400 naming the field, and nothing is written", async () => {
    const before = await written(t.db);
    const bad = await get(`taskNodeId=${encodeURIComponent(STG)}&units=2026-13-01`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("query.units.0");
    const noTask = await get(`taskNodeId=${encodeURIComponent("job:orders:nothing")}&units=2026-08-17`);
    expect(noTask.status).toBe(400);
    expect(JSON.stringify(await noTask.json())).toContain("query.taskNodeId");
    const badOpen = await post({ taskNodeId: STG, units: ["2026-08-17", "2026-8-18"], reason });
    expect(badOpen.status).toBe(400);
    expect(JSON.stringify(await badOpen.json())).toContain("body.units.1");
    expect(await written(t.db)).toEqual(before);
  });
});
