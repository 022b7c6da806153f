import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { AirflowConnectionSchema } from "@/lib/contracts/orchestrators";
import { resolvePartitions, type PartitionSpace } from "@/lib/domain/partitions";
import { windowRanges } from "@/lib/domain/window-ranges";
import { airflowContract } from "@/test/peers/fake-airflow";
import { pairProgress } from "./airflow-answers";
import { airflowRequests, clearGroups, listClearedBody, markFailed, type AirflowClearBody, type TaskInstanceCollection } from "./airflow-requests";
import type { DispatchPlan, PairRef, TaskFacts } from "./port";

const DAILY = resolvePartitions({ kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-31", timezone: "UTC" });
const REGIONS = resolvePartitions({ kind: "static", keys: ["eu", "us"] });

const task = (taskNodeId: string, name: string): TaskFacts => ({
  taskNodeId,
  name,
  namespace: "airflow://prod",
  pipeline: "orders",
  sideEffect: "none",
  writeMode: "overwrite",
});
const TASKS = [
  task("task:stg_orders", "orders.stg_orders"),
  task("task:stg_payments", "orders.stg_payments"),
  task("task:fct_orders", "orders.fct_orders"),
  task("task:by_region", "orders.by_region"),
];
const SPACE: Record<string, PartitionSpace> = { "task:by_region": REGIONS };

/** A plan by hand, its windows and ranges from real partition spaces (daily in UTC unless named). */
function plan(pairs: readonly [string, string, number][], extra: Partial<DispatchPlan> = {}): DispatchPlan {
  const refs: PairRef[] = pairs.map(([taskNodeId, unitKey, wave]) => ({ taskNodeId, unitKey, wave }));
  const spaceOf = (t: string) => SPACE[t] ?? DAILY;
  return {
    incidentId: "inc_42",
    runId: "run_7",
    repairNumber: 1,
    pairs: refs,
    waves: Math.max(...refs.map((p) => p.wave)) + 1,
    tasks: new Map(TASKS.map((t) => [t.taskNodeId, t])),
    excludedTasks: new Set(),
    windowOf: (t, unit) => {
      const v = spaceOf(t).validate(unit);
      const time = spaceOf(t).time;
      return v.valid && time ? { start: new Date(time.windowStartMs(v.ordinal)), end: new Date(time.windowStartMs(v.ordinal + 1)) } : null;
    },
    windowRanges: (t, units) => windowRanges(spaceOf(t), units),
    unitAt: () => null,
    parameterOverrides: {},
    idempotencyKeys: {},
    previous: {},
    launchedAt: null,
    ...extra,
  };
}

const connection = AirflowConnectionSchema.parse({ kind: "airflow", baseUrl: "http://airflow:8080", credentials: { env: "AIRFLOW_TOKEN" } });
const clear = (taskIds: string[], start: string, end: string): AirflowClearBody => ({
  dry_run: false,
  task_ids: taskIds,
  start_date: start,
  end_date: end,
  only_failed: false,
  only_running: false,
  reset_dag_runs: true,
  include_upstream: false,
  include_downstream: false,
  include_future: false,
  include_past: false,
});
const DAY = (d: number) => `2026-08-${String(d).padStart(2, "0")}T00:00:00.000Z`;

describe("Airflow's requests, from the plan's ranges", () => {
  it.each([
    [
      "one unit: one clear of that logical date",
      [["task:stg_orders", "2026-08-17", 0]],
      [[0, "/api/v2/dags/orders/clearTaskInstances", clear(["stg_orders"], DAY(17), DAY(17))]],
    ],
    [
      "consecutive days are one range; a gap starts another",
      [
        ["task:stg_orders", "2026-08-18", 0],
        ["task:stg_orders", "2026-08-17", 0],
        ["task:stg_orders", "2026-08-23", 0],
      ],
      [
        [0, "/api/v2/dags/orders/clearTaskInstances", clear(["stg_orders"], DAY(17), DAY(18))],
        [0, "/api/v2/dags/orders/clearTaskInstances", clear(["stg_orders"], DAY(23), DAY(23))],
      ],
    ],
    [
      "tasks of one DAG over the same range share a clear; each wave has its own",
      [
        ["task:stg_orders", "2026-08-17", 0],
        ["task:stg_orders", "2026-08-18", 0],
        ["task:stg_payments", "2026-08-17", 0],
        ["task:stg_payments", "2026-08-18", 0],
        ["task:fct_orders", "2026-08-17", 1],
      ],
      [
        [0, "/api/v2/dags/orders/clearTaskInstances", clear(["stg_orders", "stg_payments"], DAY(17), DAY(18))],
        [1, "/api/v2/dags/orders/clearTaskInstances", clear(["fct_orders"], DAY(17), DAY(17))],
      ],
    ],
  ] as const)("%s", (_name, pairs, expected) => {
    const { requests, unsupported } = airflowRequests(connection, plan(pairs as unknown as [string, string, number][]));
    expect(unsupported).toEqual([]);
    expect(requests.map((r) => [r.wave, r.path, r.body])).toEqual(expected);
    expect(requests.every((r) => r.method === "POST" && r.pipeline === "orders" && r.orchestrator === "airflow")).toBe(true);
  });

  it("names what it cannot clear: units that are not time windows, an idempotency key, parameter overrides", () => {
    expect(clearGroups(connection, plan([["task:by_region", "eu", 0]])).unsupported).toEqual([
      { taskNodeId: "task:by_region", units: ["eu"], reason: "Airflow clears task instances by logical date, and this task's units are not time windows" },
    ]);
    const keyed = plan([["task:stg_orders", "2026-08-17", 0]], { idempotencyKeys: { "task:stg_orders": "k-1" } });
    expect(clearGroups(connection, keyed).unsupported[0]!.reason).toMatch(/idempotency key/);
    const overridden = plan([["task:stg_orders", "2026-08-17", 0]], { parameterOverrides: { env: "prod" } });
    expect(clearGroups(connection, overridden)).toMatchObject({ groups: [], unsupported: [{ reason: expect.stringContaining("overrides (env)") }] });
    expect(clearGroups(connection, plan([["task:gone", "2026-08-17", 0]])).unsupported[0]!.reason).toBe("the task is not in the catalog");
  });

  it("a connection's DAG and task names win over the OpenLineage name", () => {
    const mapped = AirflowConnectionSchema.parse({ ...connection, dagId: "nightly", tasks: { "task:stg_orders": "load_orders" } });
    expect(airflowRequests(mapped, plan([["task:stg_orders", "2026-08-17", 0]])).requests.map((r) => r.path)).toEqual([
      "/api/v2/dags/nightly/clearTaskInstances",
    ]);
  });

  it("every request it builds is one Airflow 3's published document accepts", () => {
    const contract = airflowContract("3.2.1");
    const p = plan([
      ["task:stg_orders", "2026-08-17", 0],
      ["task:stg_orders", "2026-08-18", 0],
    ]);
    const g = clearGroups(connection, p).groups[0]!;
    const sent = [
      { method: "POST", path: airflowRequests(connection, p).requests[0]!.path, body: airflowRequests(connection, p).requests[0]!.body },
      { method: "POST", path: "/api/v2/dags/~/dagRuns/~/taskInstances/list", body: listClearedBody(g, 100) },
      { method: "PATCH", ...markFailed({ dag_id: "orders", dag_run_id: "scheduled__2026-08-17T00:00:00+00:00", task_id: "stg_orders" }) },
    ];
    for (const r of sent) expect(contract.validateRequest({ ...r, contentType: "application/json" }).violations).toEqual([]);
  }, 60_000);
});

describe("Airflow's answers, as the real Airflow gave them", () => {
  const recorded = (name: string) =>
    JSON.parse(readFileSync(`test/fixtures/peers/airflow/spike/${name}`, "utf8")) as { response: { body: TaskInstanceCollection } };
  it("a pair succeeded once its task instance ran again and succeeded; before that it is pending; none is a failure", () => {
    // The real Airflow's task instances of a DAG run after its failed `load` was cleared and ran again (try 2).
    const tis = recorded("26-list-task-instances-repaired.json").response.body.task_instances.filter((ti) => ti.task_id === "load");
    const at = { dagId: "reparo_spike", taskId: "load", start: "2026-08-02T00:00:00.000Z" };
    const pair = { taskNodeId: "task:load", unitKey: "2026-08-02", wave: 0 };
    expect(
      pairProgress(
        pair,
        at,
        tis,
        () => true,
        () => false,
      ),
    ).toEqual({
      taskNodeId: "task:load",
      unitKey: "2026-08-02",
      status: "succeeded",
      externalId: "reparo_spike · reparo_spike_fail_2026-08-02 · try 2",
      detail: "success",
    });
    expect(
      pairProgress(
        pair,
        at,
        tis,
        () => false,
        () => false,
      ).status,
    ).toBe("pending");
    expect(
      pairProgress(
        pair,
        at,
        tis,
        () => true,
        () => true,
      ).externalId,
    ).toBe("reparo_spike · reparo_spike_fail_2026-08-02 · try 2 · cleared again: its DAG run had ended");
    expect(
      pairProgress(
        pair,
        at,
        [],
        () => true,
        () => false,
      ),
    ).toMatchObject({
      status: "failed",
      detail: "Airflow has no task instance reparo_spike.load at 2026-08-02T00:00:00.000Z: nothing ran this unit",
    });
  });
});
