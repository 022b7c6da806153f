import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as abandon from "@/app/api/v1/incidents/[id]/abandon/route";
import * as cleanUnit from "@/app/api/v1/incidents/[id]/clean-unit/route";
import * as commander from "@/app/api/v1/incidents/[id]/commander/route";
import * as declareReplace from "@/app/api/v1/incidents/[id]/declare-replace/route";
import * as dryRun from "@/app/api/v1/incidents/[id]/dry-run/route";
import * as launch from "@/app/api/v1/incidents/[id]/launch/route";
import * as marks from "@/app/api/v1/incidents/[id]/marks/route";
import * as notes from "@/app/api/v1/incidents/[id]/notes/route";
import * as override from "@/app/api/v1/incidents/[id]/override/route";
import * as plan from "@/app/api/v1/incidents/[id]/plan/route";
import * as preview from "@/app/api/v1/incidents/[id]/plan/preview/route";
import * as preconditions from "@/app/api/v1/incidents/[id]/preconditions/route";
import * as resolve from "@/app/api/v1/incidents/[id]/resolve/route";
import * as scope from "@/app/api/v1/incidents/[id]/scope/route";
import * as severity from "@/app/api/v1/incidents/[id]/severity/route";
import * as incidents from "@/app/api/v1/incidents/route";
import type { Db } from "../db/client";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { plannedIncident, STG } from "./testing/journey-steps";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
interface Case {
  name: string;
  handler: Handler;
  withId: boolean;
  body: unknown;
  bad: unknown;
  badFields: string[];
  role: "operator" | "commander";
}

const reason = "a reason that is long enough";
const CASES: Case[] = [
  {
    name: "POST /incidents",
    handler: incidents.POST,
    withId: false,
    body: { taskNodeId: STG, units: ["2026-08-17"], reason },
    bad: { taskNodeId: "stg_orders", units: [], reason: "" },
    badFields: ["body.taskNodeId", "body.units", "body.reason"],
    role: "operator",
  },
  {
    name: "POST scope",
    handler: scope.POST,
    withId: true,
    body: { reason, addPairs: [] },
    bad: { reason: "", addPairs: [{ taskNodeId: "x", units: [] }] },
    badFields: ["body.reason", "body.addPairs.0.taskNodeId", "body.addPairs.0.units"],
    role: "operator",
  },
  { name: "POST preconditions", handler: preconditions.POST, withId: true, body: { reason }, bad: {}, badFields: ["body.reason"], role: "operator" },
  {
    name: "POST plan",
    handler: plan.POST,
    withId: true,
    body: { strategy: "targeted_with_closure", reason },
    bad: { strategy: "yolo", reason },
    badFields: ["body.strategy"],
    role: "operator",
  },
  { name: "POST launch", handler: launch.POST, withId: true, body: {}, bad: { concurrency: 99 }, badFields: ["body.concurrency"], role: "operator" },
  { name: "POST dry-run", handler: dryRun.POST, withId: true, body: {}, bad: { resume: "yes" }, badFields: ["body.resume"], role: "operator" },
  {
    name: "POST launch (preview digest)",
    handler: launch.POST,
    withId: true,
    body: {},
    bad: { preview: "not-a-digest" },
    badFields: ["body.preview"],
    role: "operator",
  },
  { name: "POST resolve", handler: resolve.POST, withId: true, body: { reason }, bad: { reason: "" }, badFields: ["body.reason"], role: "operator" },
  { name: "POST abandon", handler: abandon.POST, withId: true, body: { reason }, bad: { reason: 42 }, badFields: ["body.reason"], role: "operator" },
  {
    name: "POST severity",
    handler: severity.POST,
    withId: true,
    body: { severity: "SEV1", reason },
    bad: { severity: "critical", reason: "" },
    badFields: ["body.severity", "body.reason"],
    role: "operator",
  },
  {
    name: "POST commander",
    handler: commander.POST,
    withId: true,
    body: { userId: "demo-operator" },
    bad: { userId: "" },
    badFields: ["body.userId"],
    role: "operator",
  },
  { name: "POST notes", handler: notes.POST, withId: true, body: { note: "finance told" }, bad: { note: "" }, badFields: ["body.note"], role: "operator" },
  {
    name: "POST clean-unit",
    handler: cleanUnit.POST,
    withId: true,
    body: { taskNodeId: STG, unitKey: "2026-08-10", reason },
    bad: { taskNodeId: STG, unitKey: "", reason },
    badFields: ["body.unitKey"],
    role: "operator",
  },
  {
    name: "POST declare-replace",
    handler: declareReplace.POST,
    withId: true,
    body: { taskNodeId: STG, reason },
    bad: { taskNodeId: "not-a-task", reason },
    badFields: ["body.taskNodeId"],
    role: "operator",
  },
  { name: "POST override", handler: override.POST, withId: true, body: { reason }, bad: {}, badFields: ["body.reason"], role: "commander" },
  {
    name: "POST marks",
    handler: marks.POST,
    withId: true,
    body: { kind: "known_bad", taskNodeId: STG, units: ["2026-08-17"], reason },
    bad: { kind: "deleted", taskNodeId: STG, units: ["2026-08-17"], reason },
    badFields: ["body.kind"],
    role: "commander",
  },
];

/** Everything a mutation could write, as one comparable value. */
async function snapshot(db: Db) {
  const [audit, incidentRows, runs, claims, unitMarks, plans, rows, tasks, attempts] = await Promise.all([
    db.auditEntry.count(),
    db.incident.findMany({ orderBy: { id: "asc" } }),
    db.run.count(),
    db.repairClaim.count(),
    db.unitMark.count(),
    db.repairPlan.findMany({ select: { id: true, status: true } }),
    db.warehouseRow.count(),
    db.task.findMany({ select: { nodeId: true, writeMode: true }, orderBy: { nodeId: "asc" } }),
    db.attempt.count(),
  ]);
  return { audit, incidentRows, runs, claims, unitMarks, plans, rows, tasks, attempts };
}

describe.each(providersUnderTest())("every mutating incident route (%s)", (provider) => {
  let t: TestDatabase;
  let id = "";
  const saved = process.env.DATABASE_URL;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
    process.env.DATABASE_URL = t.target.url;
    id = await plannedIncident(t.db);
  }, 180_000);
  afterAll(async () => {
    process.env.DATABASE_URL = saved;
    await t?.drop();
  });

  const call = (c: Case, body: unknown, user: string) =>
    c.handler(
      new Request("http://console.test/api/v1/x", {
        method: "POST",
        body: JSON.stringify(body),
        headers: { host: "console.test", "content-type": "application/json", "x-reparo-user": user },
      }),
      { params: Promise.resolve<Record<string, string>>(c.withId ? { id } : {}) },
    );

  it.each(CASES)("$name: a viewer is refused with 403 and nothing is written", async (c) => {
    const before = await snapshot(t.db);
    const res = await call(c, c.body, "demo-viewer");
    expect(res.status).toBe(403);
    expect((await res.json()).message).toContain(`this needs the ${c.role} role`);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it.each(CASES.filter((c) => c.role === "commander"))("$name: an operator is refused too (commanders only)", async (c) => {
    const before = await snapshot(t.db);
    expect((await call(c, c.body, "demo-operator")).status).toBe(403);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it.each(CASES)("$name: bad input is a 400 naming each field, and nothing is written", async (c) => {
    const before = await snapshot(t.db);
    const res = await call(c, c.bad, "demo-commander");
    expect(res.status).toBe(400);
    const paths = (await res.json()).details.issues.map((i: { path: string }) => i.path);
    for (const f of c.badFields) expect(paths).toContain(f);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it("a key the partition definition rejects is a 400 naming it, and nothing is written", async () => {
    const before = await snapshot(t.db);
    const res = await call(CASES[0]!, { taskNodeId: STG, units: ["2026-08-17", "2026-8-18"], reason }, "demo-operator");
    expect(res.status).toBe(400);
    expect((await res.json()).message).toContain("body.units.1");
    expect(await snapshot(t.db)).toEqual(before);
  });

  it("the plan preview writes nothing, so a viewer may see it", async () => {
    const before = await snapshot(t.db);
    const res = await call({ ...CASES[0]!, handler: preview.POST, withId: true }, {}, "demo-viewer");
    expect(res.status).toBe(200);
    expect((await res.json()).runnable).toBe(true);
    expect(await snapshot(t.db)).toEqual(before);
  });

  it("a cross-site request is refused before anything else", async () => {
    const res = await notes.POST(
      new Request("http://console.test/x", {
        method: "POST",
        body: JSON.stringify({ note: "hi" }),
        headers: { host: "console.test", origin: "https://evil.example", "content-type": "application/json" },
      }),
      { params: Promise.resolve({ id }) },
    );
    expect(res.status).toBe(403);
  });
});
