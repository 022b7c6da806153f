import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DagsterConnectionSchema } from "@/lib/contracts/orchestrators";
import { dagsterOrchestrator, type DagsterBackfillParams, type DagsterWaveHandle } from "./dagster";
import { OrchestratorError, type DispatchPlan, type OrchestratorCall, type PairProgress, type PairRef, type TaskFacts } from "./port";
import { startFakeDagster, type FakeDagster } from "@/test/peers/fake-dagster";

const TOKEN = "dagster-test-token-7f3a9c";
const TOKEN_ENV = "REPARO_SECRET_TEST_DAGSTER_TOKEN";
const DAY = 86_400_000;

const august = Array.from({ length: 31 }, (_, i) => `2026-08-${String(i + 1).padStart(2, "0")}`);

const task = (taskNodeId: string, name: string, sideEffect: string | null = "none"): TaskFacts => ({
  taskNodeId,
  name,
  namespace: "dagster://analytics",
  pipeline: "orders",
  sideEffect,
  writeMode: "overwrite",
});

const TASKS = [
  task("task:stg_orders", "orders.stg_orders"),
  task("task:stg_payments", "analytics/stg_payments"),
  task("task:fct_orders", "fct_orders"),
  task("task:notify_finance", "analytics/notify_finance", "external"),
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
): DispatchPlan {
  const refs: PairRef[] = pairs.map(([taskNodeId, unitKey, wave]) => ({ taskNodeId, unitKey, wave }));
  return {
    incidentId: "inc_42",
    runId: "run_7",
    repairNumber: 1,
    pairs: refs,
    waves: Math.max(...refs.map((p) => p.wave)) + 1,
    tasks: new Map(TASKS.map((t) => [t.taskNodeId, t])),
    excludedTasks: new Set(["task:email_report"]),
    windowOf: (_t, unit) => ({ start: new Date(`${unit}T00:00:00Z`), end: new Date(Date.parse(`${unit}T00:00:00Z`) + DAY) }),
    unitAt: (_t, at) => at.toISOString().slice(0, 10),
    parameterOverrides: {},
    idempotencyKeys: {},
    previous: {},
    launchedAt: null,
  };
}

const connectionFor = (fake: FakeDagster, assets: Record<string, string> = {}) =>
  DagsterConnectionSchema.parse({
    kind: "dagster",
    baseUrl: fake.url,
    credentials: { env: TOKEN_ENV },
    assets: { "task:stg_orders": "analytics/stg_orders", fct_orders: "analytics/fct_orders", ...assets },
  });

async function pollUntilDone(run: () => Promise<{ pairs: readonly PairProgress[]; calls: readonly OrchestratorCall[] }>, calls: OrchestratorCall[]) {
  const seen: PairProgress[][] = [];
  for (let i = 0; i < 10; i++) {
    const r = await run();
    calls.push(...r.calls);
    seen.push([...r.pairs]);
    if (r.pairs.every((p) => p.status === "succeeded" || p.status === "failed")) break;
  }
  return seen;
}

const statusOf = (pairs: readonly PairProgress[]) => Object.fromEntries(pairs.map((p) => [`${p.taskNodeId}@${p.unitKey}`, p.status]));

describe("dagsterOrchestrator against a fake Dagster executing its own schema.graphql", () => {
  let fake: FakeDagster;
  const materialized: string[] = [];
  const failing = new Set<string>();

  beforeAll(async () => {
    process.env[TOKEN_ENV] = TOKEN;
    fake = await startFakeDagster({
      token: TOKEN,
      assets: [
        { path: ["analytics", "stg_orders"], partitionKeys: august },
        { path: ["analytics", "stg_payments"], partitionKeys: august },
        { path: ["analytics", "fct_orders"], partitionKeys: august, multiAsset: "orders_marts" },
        { path: ["analytics", "orders_kpis"], partitionKeys: august, multiAsset: "orders_marts" },
      ],
      outcome: (asset, partition) => (failing.has(`${asset.join("/")}@${partition}`) ? "failed" : "materialized"),
      onMaterialized: async (asset, partition) => {
        await new Promise((r) => setTimeout(r, 1));
        materialized.push(`${asset.join("/")}@${partition}`);
      },
    });
  });
  afterAll(async () => {
    await fake.close();
    delete process.env[TOKEN_ENV];
  });
  afterEach(() => {
    failing.clear();
  });

  it("requests: one launchPartitionBackfill per wave and distinct partition set, downstream off", () => {
    const { requests, unsupported } = dagsterOrchestrator(connectionFor(fake)).requests(buildPlan());
    expect(unsupported).toEqual([]);
    expect(requests.map((r) => [r.wave, r.method, r.path, r.pipeline])).toEqual([
      [0, "POST", "/graphql", "orders"],
      [0, "POST", "/graphql", "orders"],
      [1, "POST", "/graphql", "orders"],
    ]);
    const params = requests.map((r) => (r.body as { variables: { backfillParams: DagsterBackfillParams } }).variables.backfillParams);
    expect(params.map((p) => [p.assetSelection, p.partitionNames, p.fromFailure])).toEqual([
      [[{ path: ["analytics", "stg_orders"] }], ["2026-08-17", "2026-08-23"], false],
      [[{ path: ["analytics", "stg_payments"] }], ["2026-08-17", "2026-08-18"], false],
      [[{ path: ["analytics", "fct_orders"] }], ["2026-08-17", "2026-08-23"], false],
    ]);
    expect(params[0]!.title).toContain("inc_42");
    expect((requests[0]!.body as { query: string }).query).toContain("launchPartitionBackfill(backfillParams: $backfillParams)");
  });

  it("requests: tasks with the same partitions in a wave share one backfill; a side-effecting replay is unsupported", async () => {
    const plan = buildPlan([
      ["task:stg_orders", "2026-08-17", 0],
      ["task:stg_payments", "2026-08-17", 0],
      ["task:fct_orders", "2026-08-17", 1],
      ["task:notify_finance", "2026-08-17", 1],
    ]);
    const orchestrator = dagsterOrchestrator(connectionFor(fake));
    const { requests, unsupported } = orchestrator.requests(plan);
    expect(requests).toHaveLength(2);
    expect((requests[0]!.body as { variables: { backfillParams: DagsterBackfillParams } }).variables.backfillParams.assetSelection).toEqual([
      { path: ["analytics", "stg_orders"] },
      { path: ["analytics", "stg_payments"] },
    ]);
    expect(unsupported).toEqual([{ taskNodeId: "task:notify_finance", units: ["2026-08-17"], reason: expect.stringContaining("side-effecting") }]);
    await expect(orchestrator.dispatchWave(plan, 1)).rejects.toThrow(/cannot run: task:notify_finance/);
  });

  it("preview: existing assets and partitions are not missing; a multi-asset sibling is extra", async () => {
    const preview = await dagsterOrchestrator(connectionFor(fake)).preview(buildPlan());
    expect(preview.missing).toEqual([]);
    expect(preview.calls).toEqual([{ orchestrator: "dagster", method: "POST", url: `${fake.url}/graphql`, status: 200, dryRun: true }]);
    expect(preview.extra.map((e) => [e.label, e.unitKey])).toEqual([
      ["analytics/orders_kpis @ 2026-08-17 (materialized with the selection)", "2026-08-17"],
      ["analytics/orders_kpis @ 2026-08-23 (materialized with the selection)", "2026-08-23"],
    ]);
    expect(fake.violations).toEqual([]);
  });

  it("preview: an unknown asset key and an unknown partition are missing", async () => {
    const plan = buildPlan([
      ["task:stg_orders", "2026-08-17", 0],
      ["task:stg_orders", "2026-09-05", 0],
      ["task:stg_payments", "2026-08-17", 0],
    ]);
    const preview = await dagsterOrchestrator(connectionFor(fake, { "task:stg_payments": "analytics/stg_payments_v2" })).preview(plan);
    expect(preview.missing).toEqual([
      { taskNodeId: "task:stg_orders", unitKey: "2026-09-05", wave: 0 },
      { taskNodeId: "task:stg_payments", unitKey: "2026-08-17", wave: 0 },
    ]);
    expect(fake.violations).toEqual([]);
  });

  it("runs the plan wave by wave: dispatch, poll to the end, per-pair progress; no secret in any call", async () => {
    const orchestrator = dagsterOrchestrator(connectionFor(fake));
    const plan = buildPlan();
    failing.add("analytics/fct_orders@2026-08-23");
    const before = fake.backfills.length;
    const calls: OrchestratorCall[] = [];

    const w0 = await orchestrator.dispatchWave(plan, 0);
    calls.push(...w0.calls);
    const h0 = w0.handle as unknown as DagsterWaveHandle;
    expect(h0.backfillIds).toHaveLength(2);
    expect(w0.calls.map((c) => c.ids?.backfillId)).toEqual(h0.backfillIds);
    const launched = fake.backfills.slice(before);
    expect(launched.map((b) => b.id)).toEqual(h0.backfillIds);
    expect(h0.pairsByBackfill[h0.backfillIds[0]!]).toEqual([
      ["task:stg_orders", "2026-08-17"],
      ["task:stg_orders", "2026-08-23"],
    ]);
    expect(h0.pairsByBackfill[h0.backfillIds[1]!]).toEqual([
      ["task:stg_payments", "2026-08-17"],
      ["task:stg_payments", "2026-08-18"],
    ]);
    expect(launched.map((b) => [b.assets, b.partitionNames, b.fromFailure])).toEqual([
      [[["analytics", "stg_orders"]], ["2026-08-17", "2026-08-23"], false],
      [[["analytics", "stg_payments"]], ["2026-08-17", "2026-08-18"], false],
    ]);

    const seen0 = await pollUntilDone(() => orchestrator.poll(plan, 0, w0.handle, { deadline: Date.now() + 60_000 }), calls);
    // As the real daemon: the run of each partition queued, then started, then its asset materialized.
    expect(seen0.map((s) => [...new Set(s.map((p) => p.status))])).toEqual([["pending"], ["running"], ["succeeded"]]);
    expect(statusOf(seen0.at(-1)!)).toEqual({
      "task:stg_orders@2026-08-17": "succeeded",
      "task:stg_orders@2026-08-23": "succeeded",
      "task:stg_payments@2026-08-17": "succeeded",
      "task:stg_payments@2026-08-18": "succeeded",
    });
    expect(seen0[1]!.every((p) => p.externalId?.startsWith("run-"))).toBe(true);
    expect(materialized).toEqual(
      expect.arrayContaining([
        "analytics/stg_orders@2026-08-17",
        "analytics/stg_orders@2026-08-23",
        "analytics/stg_payments@2026-08-17",
        "analytics/stg_payments@2026-08-18",
      ]),
    );

    const w1 = await orchestrator.dispatchWave(plan, 1);
    calls.push(...w1.calls);
    const h1 = w1.handle as unknown as DagsterWaveHandle;
    expect(h1.backfillIds).toHaveLength(1);
    const seen1 = await pollUntilDone(() => orchestrator.poll(plan, 1, w1.handle, { deadline: Date.now() + 60_000 }), calls);
    expect(statusOf(seen1[1]!)).toEqual({ "task:fct_orders@2026-08-17": "running", "task:fct_orders@2026-08-23": "running" });
    expect(statusOf(seen1.at(-1)!)).toEqual({ "task:fct_orders@2026-08-17": "succeeded", "task:fct_orders@2026-08-23": "failed" });
    expect(seen1.at(-1)!.find((p) => p.status === "failed")!.detail).toContain("FAILURE");
    expect(fake.backfills.at(-1)!.status).toBe("COMPLETED_FAILED");

    expect(calls.length).toBe(3 + 2 * 3 + 3);
    for (const c of calls) {
      expect(c).toMatchObject({ orchestrator: "dagster", method: "POST", url: `${fake.url}/graphql`, status: 200 });
      expect(typeof c.ids?.backfillId).toBe("string");
      expect(JSON.stringify(c)).not.toContain(TOKEN);
    }
    expect(fake.requests.every((r) => r.authorized)).toBe(true);
    expect(fake.violations).toEqual([]);
  });

  it("cancel: cancelPartitionBackfill of each backfill of the wave", async () => {
    const orchestrator = dagsterOrchestrator(connectionFor(fake));
    const plan = buildPlan();
    const { handle } = await orchestrator.dispatchWave(plan, 0);
    const { calls } = await orchestrator.cancel(plan, handle);
    const ids = (handle as unknown as DagsterWaveHandle).backfillIds;
    expect(calls.map((c) => [c.status, c.ids?.backfillId])).toEqual(ids.map((id) => [200, id]));
    expect(ids.map((id) => fake.backfills.find((b) => b.id === id)!.status)).toEqual(["CANCELED", "CANCELED"]);
    const after = await orchestrator.poll(plan, 0, handle, { deadline: Date.now() + 60_000 });
    expect(new Set(after.pairs.map((p) => p.status))).toEqual(new Set(["failed"]));
    expect(fake.violations).toEqual([]);
  });

  it("an unknown asset key is a PythonError with HTTP 500: an OrchestratorError in Dagster's words, and the wave's launched backfills are cancelled", async () => {
    const orchestrator = dagsterOrchestrator(connectionFor(fake, { "task:stg_payments": "analytics/nope" }));
    const before = fake.backfills.length;
    const error = await orchestrator.dispatchWave(buildPlan(), 0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrchestratorError);
    expect((error as OrchestratorError).message).toMatch(/PythonError: KeyError/);
    expect((error as OrchestratorError).call).toMatchObject({ status: 500, error: "PythonError: KeyError: AssetKey(['analytics', 'nope'])" });
    expect(fake.backfills.slice(before).map((b) => b.status)).toEqual(["CANCELED"]);
    expect(fake.violations).toEqual([]);
  });

  it("a refused launch names Dagster and the cause in plain words, and launches nothing", async () => {
    const plan = buildPlan();
    const before = fake.backfills.length;
    try {
      fake.refuseLaunches("UnauthorizedError");
      const unauthorized = (await dagsterOrchestrator(connectionFor(fake))
        .dispatchWave(plan, 0)
        .catch((e: unknown) => e)) as OrchestratorError;
      expect(unauthorized.message).toBe(
        `Dagster at ${fake.url} refused launching the backfill of wave 1: Reparo's token lacks the permission to launch backfills ` +
          "(UnauthorizedError: Authorization failed: the user lacks the LAUNCH_PARTITION_BACKFILL permission)",
      );
      fake.refuseLaunches("PartitionSetNotFoundError");
      await expect(dagsterOrchestrator(connectionFor(fake)).dispatchWave(plan, 0)).rejects.toThrow(
        /does not know the partition set .*PartitionSetNotFoundError/,
      );
      fake.refuseLaunches("PythonError");
      await expect(dagsterOrchestrator(connectionFor(fake)).dispatchWave(plan, 0)).rejects.toThrow(
        /^Dagster at \S+ failed on its side \(500\) while launching the backfill of wave 1: "PythonError: .*DagsterUserCodeUnreachableError/,
      );
      expect(fake.backfills.length).toBe(before);
    } finally {
      fake.refuseLaunches(null);
    }
    const { handle } = await dagsterOrchestrator(connectionFor(fake)).dispatchWave(plan, 0);
    expect((handle as unknown as DagsterWaveHandle).backfillIds.length).toBeGreaterThan(0);
    expect(fake.violations).toEqual([]);
  });

  it("an unknown partition is Dagster 1.13's failed invariant (a PythonError), not PartitionKeysNotFoundError", async () => {
    const plan = buildPlan([["task:stg_orders", "2026-09-05", 0]]);
    await expect(dagsterOrchestrator(connectionFor(fake)).dispatchWave(plan, 0)).rejects.toThrow(
      /failed on its side \(500\) while launching the backfill of wave 1: "PythonError: dagster_shared.check.functions.CheckError/,
    );
  });

  it("a wrong token is a 401 surfaced as OrchestratorError, the token kept out of the call", async () => {
    process.env[TOKEN_ENV] = "not-the-token";
    try {
      const error = await dagsterOrchestrator(connectionFor(fake))
        .dispatchWave(buildPlan(), 0)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OrchestratorError);
      expect((error as OrchestratorError).call.status).toBe(401);
      expect(JSON.stringify((error as OrchestratorError).call)).not.toContain("not-the-token");
      expect(fake.requests.at(-1)!.authorized).toBe(false);
    } finally {
      process.env[TOKEN_ENV] = TOKEN;
    }
  });

  it("the fake refuses what Dagster's schema refuses: a field that does not exist, a variable of the wrong type", async () => {
    const before = fake.violations.length;
    const post = (body: unknown) =>
      fetch(`${fake.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", "Dagster-Cloud-Api-Token": TOKEN },
        body: JSON.stringify(body),
      });
    const noField = await post({ query: `query { partitionBackfillOrError(backfillId: "x") { ... on PartitionBackfill { id numPartitionsDone } } }` });
    expect(noField.status).toBe(400);
    expect(JSON.stringify(await noField.json())).toContain("numPartitionsDone");
    const badVariable = await post({
      query: "mutation M($p: LaunchBackfillParams!) { launchPartitionBackfill(backfillParams: $p) { __typename } }",
      variables: { p: { partitionNames: ["2026-08-17"], assetSelection: [{ path: ["analytics", "stg_orders"] }], fromFailure: "no", downstream: false } },
    });
    expect(badVariable.status).toBe(400);
    const added = fake.violations.slice(before);
    expect(added.some((v) => v.includes("numPartitionsDone"))).toBe(true);
    expect(added.some((v) => v.includes("fromFailure") || v.includes("Boolean"))).toBe(true);
    expect(added.some((v) => v.includes("downstream"))).toBe(true);
    fake.violations.splice(before);
  });
});
