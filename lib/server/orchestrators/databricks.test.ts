import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DatabricksConnectionSchema } from "@/lib/contracts/orchestrators";
import { databricksOrchestrator, NO_RUN_ID, type DatabricksRepairRun, type DatabricksWaveHandle } from "./databricks";
import { OrchestratorError, type DispatchPlan, type OrchestratorCall, type PairProgress, type PairRef, type TaskFacts } from "./port";
import { resolvePartitions } from "@/lib/domain/partitions";
import { windowRanges } from "@/lib/domain/window-ranges";
import { startFakeDatabricks, type FakeDatabricks, type TaskResult } from "@/test/peers/fake-databricks";

const TOKEN = "dapi-test-token-4b1e0d";
const TOKEN_ENV = "REPARO_SECRET_TEST_DATABRICKS_TOKEN";
const RUN_ID = 731_155_402;
const DAY = 86_400_000;
const DAILY = resolvePartitions({ kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-31", timezone: "UTC" });

const task = (taskNodeId: string, name: string, sideEffect: string | null = "none"): TaskFacts => ({
  taskNodeId,
  name,
  namespace: "databricks://adb-1",
  pipeline: "orders",
  sideEffect,
  writeMode: "overwrite",
});

const TASKS = [
  task("task:stg_orders", "stg_orders"),
  task("task:stg_payments", "orders.stg_payments"),
  task("task:fct_orders", "fct_orders"),
  task("task:ghost", "ghost_task"),
  task("task:notify_finance", "notify_finance", "external"),
];

/** A plan by hand: wave 0 stg_orders {17, 23} and stg_payments {17, 18}, wave 1 fct_orders {17, 23}. */
function buildPlan(
  pairs: readonly [string, string, number][] = [
    ["task:stg_orders", "2026-08-17", 0],
    ["task:stg_orders", "2026-08-23", 0],
    ["task:stg_payments", "2026-08-17", 0],
    ["task:stg_payments", "2026-08-18", 0],
    ["task:fct_orders", "2026-08-17", 1],
    ["task:fct_orders", "2026-08-23", 1],
  ],
  previous: Record<string, unknown> = { "databricks.runId": RUN_ID },
): DispatchPlan {
  const refs: PairRef[] = pairs.map(([taskNodeId, unitKey, wave]) => ({ taskNodeId, unitKey, wave }));
  return {
    incidentId: "inc_42",
    runId: "run_7",
    repairNumber: 1,
    pairs: refs,
    waves: Math.max(...refs.map((p) => p.wave)) + 1,
    tasks: new Map(TASKS.map((t) => [t.taskNodeId, t])),
    excludedTasks: new Set(["task:notify_finance"]),
    windowOf: (_t, unit) => ({ start: new Date(`${unit}T00:00:00Z`), end: new Date(Date.parse(`${unit}T00:00:00Z`) + DAY) }),
    windowRanges: (_t, units) => windowRanges(DAILY, units),
    unitAt: (_t, at) => at.toISOString().slice(0, 10),
    parameterOverrides: { env: "prod" },
    idempotencyKeys: {},
    previous,
    launchedAt: null,
  };
}

const connectionFor = (fake: FakeDatabricks, extra: Record<string, unknown> = {}) =>
  DatabricksConnectionSchema.parse({
    kind: "databricks",
    baseUrl: fake.url,
    credentials: { env: TOKEN_ENV },
    tasks: { "task:stg_payments": "stg_payments" },
    ...extra,
  });

async function pollUntilDone(run: () => Promise<{ pairs: readonly PairProgress[]; calls: readonly OrchestratorCall[] }>, calls: OrchestratorCall[]) {
  const seen: PairProgress[][] = [];
  for (let i = 0; i < 10; i++) {
    const r = await run();
    calls.push(...r.calls);
    seen.push([...r.pairs]);
    if (r.pairs.length > 0 && r.pairs.every((p) => p.status === "succeeded" || p.status === "failed")) break;
  }
  return seen;
}

const statusOf = (pairs: readonly PairProgress[]) => Object.fromEntries(pairs.map((p) => [`${p.taskNodeId}@${p.unitKey}`, p.status]));
const repairBodies = (fake: FakeDatabricks) =>
  fake.requests.filter((r) => r.path === "/api/2.2/jobs/runs/repair").map((r) => r.body as Record<string, unknown>);

describe("databricksOrchestrator against a fake Jobs API validated with databricks-sdk-go's model.go", () => {
  let fake: FakeDatabricks;
  const finished: { taskKey: string; result: TaskResult; units: string | undefined }[] = [];
  const outcomes = new Map<string, TaskResult>();

  beforeAll(() => {
    process.env[TOKEN_ENV] = TOKEN;
  });
  beforeEach(async () => {
    await fake?.close();
    finished.length = 0;
    outcomes.clear();
    fake = await startFakeDatabricks({
      token: TOKEN,
      runs: [
        {
          runId: RUN_ID,
          tasks: [
            { taskKey: "stg_orders" },
            { taskKey: "stg_payments", result: "FAILED" },
            { taskKey: "fct_orders", result: "FAILED" },
            { taskKey: "notify_finance" },
          ],
        },
      ],
      outcome: (taskKey) => outcomes.get(taskKey) ?? "SUCCESS",
      onTaskFinished: (taskKey, result, repair) => {
        finished.push({ taskKey, result, units: repair.jobParameters.reparo_units });
      },
    });
  });
  afterAll(async () => {
    await fake.close();
    delete process.env[TOKEN_ENV];
  });

  it("parses the RepairRun struct from model.go: run_id required, the rest omitempty, job_parameters a map of strings", () => {
    const fields = new Map(fake.model.structs.get("RepairRun")!.map((f) => [f.json, f]));
    expect(fields.get("run_id")).toMatchObject({ omitempty: false, type: { kind: "integer" } });
    expect(fields.get("latest_repair_id")).toMatchObject({ omitempty: true, type: { kind: "integer" } });
    expect(fields.get("rerun_tasks")).toMatchObject({ omitempty: true, type: { kind: "array", of: { kind: "string" } } });
    expect(fields.get("job_parameters")).toMatchObject({ type: { kind: "map", of: { kind: "string" } } });
    expect(fake.model.enums.get("RepairHistoryItemType")).toEqual(["ORIGINAL", "REPAIR"]);
  });

  it("requests: one runs/repair per wave, exact tasks, dependents off, units as one JSON job parameter", () => {
    const { requests, unsupported } = databricksOrchestrator(connectionFor(fake)).requests(buildPlan());
    expect(unsupported).toEqual([]);
    expect(requests.map((r) => [r.wave, r.method, r.path, r.pipeline])).toEqual([
      [0, "POST", "/api/2.2/jobs/runs/repair", "orders"],
      [1, "POST", "/api/2.2/jobs/runs/repair", "orders"],
    ]);
    const [w0, w1] = requests.map((r) => r.body as DatabricksRepairRun);
    expect(w0).toEqual({
      run_id: RUN_ID,
      rerun_tasks: ["stg_orders", "stg_payments"],
      rerun_dependent_tasks: false,
      job_parameters: { env: "prod", reparo_units: JSON.stringify({ stg_orders: ["2026-08-17", "2026-08-23"], stg_payments: ["2026-08-17..2026-08-18"] }) },
    });
    expect(w1!.rerun_tasks).toEqual(["fct_orders"]);
    expect("latest_repair_id" in w1!).toBe(false);
  });

  it("requests: without a job run id every pair is unsupported; a side-effecting replay is unsupported; the connection's jobRunId is the fallback", async () => {
    const none = databricksOrchestrator(connectionFor(fake)).requests(buildPlan(undefined, {}));
    expect(none.requests).toEqual([]);
    expect(none.unsupported.map((u) => [u.taskNodeId, u.units, u.reason])).toEqual([
      ["task:stg_orders", ["2026-08-17", "2026-08-23"], NO_RUN_ID],
      ["task:stg_payments", ["2026-08-17", "2026-08-18"], NO_RUN_ID],
      ["task:fct_orders", ["2026-08-17", "2026-08-23"], NO_RUN_ID],
    ]);
    const fallback = databricksOrchestrator(connectionFor(fake, { jobRunId: 42 })).requests(buildPlan(undefined, {}));
    expect(fallback.requests.map((r) => (r.body as DatabricksRepairRun).run_id)).toEqual([42, 42]);
    const plan = buildPlan([
      ["task:fct_orders", "2026-08-17", 0],
      ["task:notify_finance", "2026-08-17", 0],
    ]);
    const withSideEffect = databricksOrchestrator(connectionFor(fake)).requests(plan);
    expect(withSideEffect.unsupported).toEqual([
      { taskNodeId: "task:notify_finance", units: ["2026-08-17"], reason: expect.stringContaining("side-effecting") },
    ]);
    await expect(databricksOrchestrator(connectionFor(fake)).dispatchWave(plan, 0)).rejects.toThrow(/cannot run: task:notify_finance/);
  });

  it("preview: runs/get with include_history; a task key the run does not have is missing", async () => {
    const plan = buildPlan([
      ["task:stg_orders", "2026-08-17", 0],
      ["task:ghost", "2026-08-17", 0],
      ["task:ghost", "2026-08-23", 0],
    ]);
    const preview = await databricksOrchestrator(connectionFor(fake)).preview(plan);
    expect(preview.missing).toEqual([
      { taskNodeId: "task:ghost", unitKey: "2026-08-17", wave: 0 },
      { taskNodeId: "task:ghost", unitKey: "2026-08-23", wave: 0 },
    ]);
    expect(preview.extra).toEqual([]);
    expect(preview.calls).toEqual([
      { orchestrator: "databricks", method: "GET", url: `${fake.url}/api/2.2/jobs/runs/get`, status: 200, dryRun: true, ids: { run_id: RUN_ID } },
    ]);
    expect(fake.requests[0]!.query).toEqual({ run_id: String(RUN_ID), include_history: "true" });
    expect(fake.violations).toEqual([]);
  });

  it("runs the plan wave by wave; the second repair carries latest_repair_id, which the fake requires", async () => {
    const orchestrator = databricksOrchestrator(connectionFor(fake));
    const plan = buildPlan();
    outcomes.set("fct_orders", "FAILED");
    const calls: OrchestratorCall[] = [];

    const w0 = await orchestrator.dispatchWave(plan, 0);
    calls.push(...w0.calls);
    const h0 = w0.handle as unknown as DatabricksWaveHandle;
    expect(h0).toEqual({ runId: RUN_ID, repairId: expect.any(Number), taskKeys: ["stg_orders", "stg_payments"] });
    expect(w0.calls.map((c) => [c.method, c.url.replace(fake.url, ""), c.status, c.ids])).toEqual([
      ["GET", "/api/2.2/jobs/runs/get", 200, { run_id: RUN_ID }],
      ["POST", "/api/2.2/jobs/runs/repair", 200, { run_id: RUN_ID, repair_id: h0.repairId }],
    ]);
    expect("latest_repair_id" in repairBodies(fake)[0]!).toBe(false);

    const seen0 = await pollUntilDone(() => orchestrator.poll(plan, 0, w0.handle, { deadline: Date.now() + 60_000 }), calls);
    expect(seen0.map((s) => [...new Set(s.map((p) => p.status))])).toEqual([["running"], ["succeeded"]]);
    expect(statusOf(seen0.at(-1)!)).toEqual({
      "task:stg_orders@2026-08-17": "succeeded",
      "task:stg_orders@2026-08-23": "succeeded",
      "task:stg_payments@2026-08-17": "succeeded",
      "task:stg_payments@2026-08-18": "succeeded",
    });
    const taskRuns = new Set(fake.runs[0]!.history.find((h) => h.id === h0.repairId)!.taskRunIds.map(String));
    expect(seen0.at(-1)!.every((p) => p.externalId !== undefined && taskRuns.has(p.externalId))).toBe(true);
    expect(finished.map((f) => [f.taskKey, f.result])).toEqual([
      ["stg_orders", "SUCCESS"],
      ["stg_payments", "SUCCESS"],
    ]);
    expect(JSON.parse(finished[0]!.units!)).toEqual({ stg_orders: ["2026-08-17", "2026-08-23"], stg_payments: ["2026-08-17..2026-08-18"] });

    // Databricks refuses a second repair of the run without latest_repair_id: so does the fake.
    const refused = await fetch(`${fake.url}/api/2.2/jobs/runs/repair`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ run_id: RUN_ID, rerun_tasks: ["fct_orders"], rerun_dependent_tasks: false }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error_code: "INVALID_PARAMETER_VALUE", message: expect.stringContaining("latest_repair_id") });
    expect(fake.violations).toHaveLength(1);
    fake.violations.length = 0;

    const w1 = await orchestrator.dispatchWave(plan, 1);
    calls.push(...w1.calls);
    const h1 = w1.handle as unknown as DatabricksWaveHandle;
    expect(repairBodies(fake).at(-1)).toMatchObject({
      run_id: RUN_ID,
      rerun_tasks: ["fct_orders"],
      rerun_dependent_tasks: false,
      latest_repair_id: h0.repairId,
    });
    expect(h1.repairId).not.toBe(h0.repairId);
    const seen1 = await pollUntilDone(() => orchestrator.poll(plan, 1, w1.handle, { deadline: Date.now() + 60_000 }), calls);
    expect(statusOf(seen1[0]!)).toEqual({ "task:fct_orders@2026-08-17": "running", "task:fct_orders@2026-08-23": "running" });
    expect(statusOf(seen1.at(-1)!)).toEqual({ "task:fct_orders@2026-08-17": "failed", "task:fct_orders@2026-08-23": "failed" });
    expect(seen1.at(-1)![0]!.detail).toContain("RUN_EXECUTION_ERROR");

    for (const c of calls) {
      expect(c.status).toBe(200);
      expect(c.ids?.run_id).toBe(RUN_ID);
      expect(JSON.stringify(c)).not.toContain(TOKEN);
    }
    expect(calls.filter((c) => c.method === "POST").map((c) => c.ids?.repair_id)).toEqual([h0.repairId, h1.repairId]);
    expect(fake.requests.every((r) => r.authorized)).toBe(true);
    expect(fake.violations).toEqual([]);
  });

  it("cancel: runs/cancel of the run", async () => {
    const orchestrator = databricksOrchestrator(connectionFor(fake));
    const plan = buildPlan();
    const { handle } = await orchestrator.dispatchWave(plan, 0);
    const { calls } = await orchestrator.cancel(plan, handle);
    expect(calls.map((c) => [c.method, c.url.replace(fake.url, ""), c.status])).toEqual([["POST", "/api/2.2/jobs/runs/cancel", 200]]);
    expect(fake.requests.at(-1)!.body).toEqual({ run_id: RUN_ID });
    const { pairs } = await orchestrator.poll(plan, 0, handle, { deadline: Date.now() + 60_000 });
    expect(new Set(pairs.map((p) => p.status))).toEqual(new Set(["failed"]));
    expect(fake.violations).toEqual([]);
  });

  it("a repair of task keys the run does not have is refused (400) and surfaces as OrchestratorError", async () => {
    const error = await databricksOrchestrator(connectionFor(fake))
      .dispatchWave(buildPlan([["task:ghost", "2026-08-17", 0]]), 0)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrchestratorError);
    expect((error as OrchestratorError).call).toMatchObject({
      status: 400,
      error: expect.stringMatching(/^INVALID_PARAMETER_VALUE: .*ghost_task/),
      ids: { run_id: RUN_ID },
    });
  });

  it("a wrong token is a 401 surfaced as OrchestratorError, the token kept out of the call", async () => {
    process.env[TOKEN_ENV] = "dapi-wrong";
    try {
      const error = await databricksOrchestrator(connectionFor(fake))
        .dispatchWave(buildPlan(), 0)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OrchestratorError);
      expect((error as OrchestratorError).call.status).toBe(401);
      expect(JSON.stringify((error as OrchestratorError).call)).not.toContain("dapi-wrong");
      expect(repairBodies(fake)).toEqual([]);
    } finally {
      process.env[TOKEN_ENV] = TOKEN;
    }
  });

  it("the fake refuses what the RepairRun and GetRunRequest structs refuse: a wrong type, an unknown field, a bad query parameter", async () => {
    const post = (body: unknown) =>
      fetch(`${fake.url}/api/2.2/jobs/runs/repair`, {
        method: "POST",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const wrongType = await post({ run_id: RUN_ID, rerun_tasks: "stg_orders" });
    expect(wrongType.status).toBe(400);
    expect(await wrongType.json()).toMatchObject({
      error_code: "INVALID_PARAMETER_VALUE",
      message: expect.stringContaining("RepairRun.rerun_tasks: expected an array"),
    });
    const unknown = await post({ run_id: RUN_ID, rerun_tasks: ["stg_orders"], include_downstream: true, job_parameters: { n: 3 } });
    expect(unknown.status).toBe(400);
    const get = await fetch(`${fake.url}/api/2.2/jobs/runs/get?run_id=abc&history=true`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(get.status).toBe(400);
    expect(fake.violations.join("\n")).toMatch(/unknown field "include_downstream"/);
    expect(fake.violations.join("\n")).toMatch(/job_parameters\.n: expected a string/);
    expect(fake.violations.join("\n")).toMatch(/query\.run_id: expected an integer/);
    expect(fake.violations.join("\n")).toMatch(/unknown parameter "history"/);
    expect(fake.runs[0]!.history.filter((h) => h.type === "REPAIR")).toEqual([]);
  });
});

describe("databricksOrchestrator when the workspace answers a repair without its body", () => {
  // A proxy or a workspace mid-upgrade can answer 200 with an empty or non-JSON body: the repair
  // may have started, so the wave fails as an audited OrchestratorError naming what was missing.
  let server: Server;
  let url: string;
  beforeAll(async () => {
    process.env[TOKEN_ENV] = TOKEN;
    server = createServer((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(req.url?.startsWith("/api/2.2/jobs/runs/get") ? JSON.stringify({ run_id: RUN_ID, tasks: [] }) : "");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    delete process.env[TOKEN_ENV];
  });

  it("fails the wave as an OrchestratorError that names Databricks and the missing repair_id, the calls kept", async () => {
    const connection = DatabricksConnectionSchema.parse({ kind: "databricks", baseUrl: url, credentials: { env: TOKEN_ENV }, tasks: {} });
    const error = await databricksOrchestrator(connection)
      .dispatchWave(buildPlan([["task:stg_orders", "2026-08-17", 0]]), 0)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrchestratorError);
    expect((error as OrchestratorError).message).toMatch(/Databricks answered without a body.*repair_id/);
    expect((error as OrchestratorError).call).toMatchObject({ method: "POST", status: 200, error: "no body", ids: { run_id: RUN_ID } });
    expect((error as OrchestratorError).earlier.map((c) => c.method)).toEqual(["GET"]);
  });
});
