import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { AirflowConnectionSchema } from "@/lib/contracts/orchestrators";
import { resolvePartitions } from "@/lib/domain/partitions";
import { windowRanges } from "@/lib/domain/window-ranges";
import { startFakeAirflow, type FakeAirflow } from "@/test/peers/fake-airflow";
import { airflowOrchestrator } from "./airflow";
import { OrchestratorError, type DispatchPlan, type PairRef, type TaskFacts } from "./port";

/**
 * The faults a commander meets in Airflow 3, against the fake calibrated on the real one: each
 * names Airflow by its address and the cause in words, and nothing counts as done that did not run.
 */

const DAILY = resolvePartitions({ kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-31", timezone: "UTC" });
const DAY = (d: number) => `2026-08-${String(d).padStart(2, "0")}T00:00:00.000Z`;
const TASK: TaskFacts = {
  taskNodeId: "task:stg_orders",
  name: "orders.stg_orders",
  namespace: "airflow://lab",
  pipeline: "orders",
  sideEffect: "none",
  writeMode: "append",
};
const ENV = "REPARO_SECRET_TEST_AIRFLOW_FAULTS";

function plan(units: readonly string[]): DispatchPlan {
  const pairs: PairRef[] = units.map((unitKey) => ({ taskNodeId: TASK.taskNodeId, unitKey, wave: 0 }));
  return {
    incidentId: "inc_faults",
    runId: null,
    repairNumber: 1,
    pairs,
    waves: 1,
    tasks: new Map([[TASK.taskNodeId, TASK]]),
    excludedTasks: new Set(),
    windowOf: (_t, unit) => {
      const v = DAILY.validate(unit);
      return v.valid ? { start: new Date(DAILY.time!.windowStartMs(v.ordinal)), end: new Date(DAILY.time!.windowStartMs(v.ordinal + 1)) } : null;
    },
    windowRanges: (_t, keys) => windowRanges(DAILY, keys),
    unitAt: () => null,
    parameterOverrides: {},
    idempotencyKeys: {},
    previous: {},
    launchedAt: null,
  };
}

let airflow: FakeAirflow;
const adapter = () =>
  airflowOrchestrator(AirflowConnectionSchema.parse({ kind: "airflow", baseUrl: airflow.url, username: "reparo", credentials: { env: ENV } }));
const refusal = (p: Promise<unknown>) => p.then(() => null).catch((e: unknown) => e as OrchestratorError);

/** Dispatches wave 0 with Airflow gone after its first clear: the second clear's connection is refused. */
async function dispatchCutAfterFirstClear(p: DispatchPlan): Promise<OrchestratorError | null> {
  const realFetch = fetch;
  let clears = 0;
  vi.stubGlobal("fetch", (input: string | URL | Request, init?: RequestInit) => {
    if (String(input).endsWith("/clearTaskInstances") && ++clears === 2)
      return Promise.reject(new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) }));
    return realFetch(input, init);
  });
  try {
    return await refusal(adapter().dispatchWave(p, 0));
  } finally {
    vi.unstubAllGlobals();
  }
}

beforeAll(async () => {
  airflow = await startFakeAirflow({
    version: "3.2.1",
    users: { reparo: "right-password" },
    advanceOnPoll: false,
    dags: { orders: { tasks: [{ taskId: "stg_orders" }], runs: [16, 17, 18].map((d) => ({ logicalDate: DAY(d) })) } },
    // 08-18's task instance is running when the repair clears it.
    initialState: (ti) => (ti.logicalDate.startsWith("2026-08-18") ? "running" : "success"),
  });
});
afterAll(() => airflow?.close());
afterEach(() => {
  process.env[ENV] = "right-password";
  airflow.forbid(null);
  airflow.setPaused("orders", false);
  vi.useRealTimers();
});

describe("Airflow's faults, as a commander meets them", () => {
  it("a wrong password: Airflow at its address refused the password of the user (401)", async () => {
    process.env[ENV] = "wrong-password";
    const e = await refusal(adapter().preview(plan(["2026-08-17"])));
    expect(e).toBeInstanceOf(OrchestratorError);
    expect(e!.message).toBe(`Airflow at ${airflow.url} refused the password of user reparo (401) while signing in to Airflow as reparo`);
  });

  it("a missing permission: the user lacks the permission for what was asked (403); nothing was cleared", async () => {
    process.env[ENV] = "right-password";
    airflow.forbid(["post_clear_task_instances"]);
    const e = await refusal(adapter().dispatchWave(plan(["2026-08-17"]), 0));
    expect(e!.message).toBe(`Airflow at ${airflow.url}: the user reparo lacks the permission for clearing stg_orders in DAG orders (403): "Forbidden"`);
    expect(airflow.taskInstance("orders", "stg_orders", DAY(17))).toMatchObject({ state: "success", clearedAt: null });
  });

  it("Airflow down: not reachable, connection refused; up again on the same address, it answers", async () => {
    process.env[ENV] = "right-password";
    await airflow.stop();
    try {
      const e = await refusal(adapter().preview(plan(["2026-08-17"])));
      expect(e!.message).toBe(`Airflow at ${airflow.url} is not reachable: connection refused`);
      expect(e!.call).toMatchObject({ status: null, error: "connection refused" });
    } finally {
      await airflow.start();
    }
    expect((await adapter().preview(plan(["2026-08-17"]))).unsupported).toEqual([]);
  });

  it("Airflow gone halfway through a wave: the error carries what was cleared, and a cancel stops exactly that", async () => {
    process.env[ENV] = "right-password";
    const p = plan(["2026-08-16", "2026-08-18"]); // two ranges: two clears
    const e = await dispatchCutAfterFirstClear(p);
    expect(e!.message).toBe(`Airflow at ${airflow.url} is not reachable: connection refused`);
    const started = e!.started as { groups: { start: string }[] } | null;
    expect(started?.groups).toHaveLength(1);
    expect(airflow.taskInstance("orders", "stg_orders", DAY(16))).toMatchObject({ state: null });
    const { calls } = await adapter().cancel(p, e!.started!);
    expect(calls.filter((c) => c.method === "PATCH").map((c) => [c.url.includes("2026-08-16"), c.status])).toEqual([[true, 200]]);
    expect(airflow.taskInstance("orders", "stg_orders", DAY(16))).toMatchObject({ state: "failed" });
  });

  it("a paused DAG: its pairs cannot be dispatched, in words, before launch; unpaused, the dry run is clean", async () => {
    process.env[ENV] = "right-password";
    airflow.setPaused("orders", true);
    const paused = await adapter().preview(plan(["2026-08-16", "2026-08-17"]));
    expect(paused.unsupported).toEqual([
      { taskNodeId: "task:stg_orders", units: ["2026-08-16", "2026-08-17"], reason: "DAG orders is paused: cleared tasks will not run until it is unpaused" },
    ]);
    expect(paused.missing).toEqual([]);
    expect(paused.calls[0]).toMatchObject({ method: "GET", url: `${airflow.url}/api/v2/dags/orders`, status: 200, ids: { dagId: "orders", isPaused: "true" } });
    airflow.setPaused("orders", false);
    expect((await adapter().preview(plan(["2026-08-16", "2026-08-17"]))).unsupported).toEqual([]);
    expect(airflow.violations).toEqual([]);
  });

  it("a DAG paused after the launch: its cleared pairs stay pending, saying why, until it is unpaused", async () => {
    process.env[ENV] = "right-password";
    const p = plan(["2026-08-16"]);
    const { handle } = await adapter().dispatchWave(p, 0);
    airflow.setPaused("orders", true);
    await airflow.advance();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 11_000 });
    const polled = await adapter().poll(p, 0, handle, { deadline: Date.now() + 60_000 });
    expect(polled.pairs).toEqual([
      expect.objectContaining({ status: "pending", detail: "DAG orders is paused: cleared tasks will not run until it is unpaused" }),
    ]);
    airflow.setPaused("orders", false);
    for (let i = 0; i < 3; i++) await airflow.advance();
    expect((await adapter().poll(p, 0, handle, { deadline: Date.now() + 60_000 })).pairs[0]).toMatchObject({ status: "succeeded" });
  });

  it("a task instance running when cleared: the running try does not count; the pair is done once the new try ran", async () => {
    process.env[ENV] = "right-password";
    const p = plan(["2026-08-18"]);
    const { handle } = await adapter().dispatchWave(p, 0);
    expect(airflow.taskInstance("orders", "stg_orders", DAY(18))).toMatchObject({ state: "restarting", tryNumber: 1 });
    const statuses: string[] = [];
    for (let i = 0; i < 4; i++) {
      const [pair] = (await adapter().poll(p, 0, handle, { deadline: Date.now() + 60_000 })).pairs;
      statuses.push(`${pair!.status} (${pair!.detail})`);
      await airflow.advance();
    }
    expect(statuses).toEqual(["running (restarting)", "running (queued)", "running (running)", "succeeded (success)"]);
    expect(airflow.taskInstance("orders", "stg_orders", DAY(18))).toMatchObject({ state: "success", tryNumber: 2 });
    expect(airflow.violations).toEqual([]);
  });
});

// Last: it clears 08-18, which the tests above expect running.
describe("a wave cut off halfway, sent again", () => {
  it("the wave sent again after a partial failure clears only what did not go through", async () => {
    process.env[ENV] = "right-password";
    const p = plan(["2026-08-16", "2026-08-18"]);
    const e = await dispatchCutAfterFirstClear(p);
    const before = airflow.requests.filter((r) => r.path.endsWith("/clearTaskInstances")).length;
    const again = await adapter().dispatchWave(p, 0, e!.started);
    const clearedNow = airflow.requests.filter((r) => r.path.endsWith("/clearTaskInstances")).slice(before);
    expect(clearedNow.map((r) => (r.requestBody as { start_date: string }).start_date)).toEqual([DAY(18)]);
    const handle = again.handle as { groups: unknown[]; cleared: Record<string, number> };
    expect(handle.groups).toHaveLength(2);
    expect(Object.keys(handle.cleared)).toHaveLength(2);
  });
});
