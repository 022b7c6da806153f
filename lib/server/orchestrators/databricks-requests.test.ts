import { describe, expect, it } from "vitest";
import { DatabricksConnectionSchema } from "@/lib/contracts/orchestrators";
import { resolvePartitions, type PartitionSpace } from "@/lib/domain/partitions";
import { windowRanges } from "@/lib/domain/window-ranges";
import { databricksRequests, NO_RUN_ID, repairBody, unitsOf, type DatabricksRepairRun } from "./databricks-requests";
import type { DispatchPlan, PairRef, TaskFacts } from "./port";

const RUN_ID = 731_155_402;
const DAILY = resolvePartitions({ kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-31", timezone: "UTC" });
const REGIONS = resolvePartitions({ kind: "static", keys: ["eu", "us", "apac"] });

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
  task("task:fct_orders", "fct_orders"),
  task("task:by_region", "by_region"),
  task("task:notify", "notify", "external"),
];
const SPACE: Record<string, PartitionSpace> = { "task:by_region": REGIONS };

function plan(pairs: readonly (readonly [string, string, number])[], extra: Partial<DispatchPlan> = {}): DispatchPlan {
  const refs: PairRef[] = pairs.map(([taskNodeId, unitKey, wave]) => ({ taskNodeId, unitKey, wave }));
  return {
    incidentId: "inc_42",
    runId: "run_7",
    repairNumber: 1,
    pairs: refs,
    waves: Math.max(...refs.map((p) => p.wave)) + 1,
    tasks: new Map(TASKS.map((t) => [t.taskNodeId, t])),
    excludedTasks: new Set(),
    windowOf: () => null,
    windowRanges: (t, units) => windowRanges(SPACE[t] ?? DAILY, units),
    unitAt: () => null,
    parameterOverrides: {},
    idempotencyKeys: {},
    previous: { "databricks.runId": RUN_ID },
    launchedAt: null,
    ...extra,
  };
}

const connection = DatabricksConnectionSchema.parse({
  kind: "databricks",
  baseUrl: "https://adb-1.azuredatabricks.net",
  credentials: { env: "DATABRICKS_TOKEN" },
});
const repair = (rerun: string[], units: Record<string, string[]>, parameters: Record<string, string> = {}): DatabricksRepairRun => ({
  run_id: RUN_ID,
  rerun_tasks: rerun,
  rerun_dependent_tasks: false,
  job_parameters: { ...parameters, [connection.unitsParameter]: JSON.stringify(units) },
});

describe("Databricks' requests, from the plan's ranges", () => {
  it.each([
    ["one unit", [["task:stg_orders", "2026-08-17", 0]], [repair(["stg_orders"], { stg_orders: ["2026-08-17"] })]],
    [
      "consecutive days are one lo..hi range, a gap another, in time order",
      [
        ["task:stg_orders", "2026-08-23", 0],
        ["task:stg_orders", "2026-08-18", 0],
        ["task:stg_orders", "2026-08-17", 0],
        ["task:stg_orders", "2026-08-19", 0],
      ],
      [repair(["stg_orders"], { stg_orders: ["2026-08-17..2026-08-19", "2026-08-23"] })],
    ],
    [
      "units that are not time windows are listed one by one, never merged",
      [
        ["task:by_region", "eu", 0],
        ["task:by_region", "us", 0],
      ],
      [repair(["by_region"], { by_region: ["eu", "us"] })],
    ],
    [
      "one repair per wave, each with its own tasks",
      [
        ["task:stg_orders", "2026-08-17", 0],
        ["task:fct_orders", "2026-08-17", 1],
        ["task:fct_orders", "2026-08-18", 1],
      ],
      [repair(["stg_orders"], { stg_orders: ["2026-08-17"] }), repair(["fct_orders"], { fct_orders: ["2026-08-17..2026-08-18"] })],
    ],
  ] as const)("%s", (_name, pairs, expected) => {
    const { requests, unsupported } = databricksRequests(connection, plan(pairs));
    expect(unsupported).toEqual([]);
    expect(requests.map((r) => r.body)).toEqual(expected);
    expect(requests.map((r) => [r.method, r.path])).toEqual(expected.map(() => ["POST", "/api/2.2/jobs/runs/repair"]));
  });

  it("two Reparo tasks mapped to one task key share its entry; the plan's overrides ride along", () => {
    const mapped = DatabricksConnectionSchema.parse({ ...connection, tasks: { "task:fct_orders": "stg_orders" } });
    const p = plan(
      [
        ["task:stg_orders", "2026-08-17", 0],
        ["task:fct_orders", "2026-08-18", 0],
      ],
      { parameterOverrides: { env: "prod" } },
    );
    expect(databricksRequests(mapped, p).requests.map((r) => r.body)).toEqual([
      repair(["stg_orders"], { stg_orders: ["2026-08-17", "2026-08-18"] }, { env: "prod" }),
    ]);
  });

  it("what it cannot repair: no job run, a side-effecting replay", () => {
    expect(databricksRequests(connection, plan([["task:stg_orders", "2026-08-17", 0]], { previous: {} })).unsupported).toEqual([
      { taskNodeId: "task:stg_orders", units: ["2026-08-17"], reason: NO_RUN_ID },
    ]);
    expect(databricksRequests(connection, plan([["task:notify", "2026-08-17", 0]])).unsupported[0]!.reason).toMatch(/side-effecting/);
  });

  it("the second repair of a run names the latest; units without ranges stay keys", () => {
    const [first] = databricksRequests(connection, plan([["task:stg_orders", "2026-08-17", 0]])).requests;
    const planned = { wave: 0, pipeline: "orders", pairs: [], body: first!.body as DatabricksRepairRun };
    expect(repairBody(planned, 77)).toEqual({ ...planned.body, latest_repair_id: 77 });
    expect("latest_repair_id" in repairBody(planned, undefined)).toBe(false);
    expect(unitsOf(plan([]), "task:stg_orders", ["2026-09-40"])).toEqual(["2026-09-40"]);
  });
});
