import { describe, expect, it } from "vitest";
import { compositeKey } from "@/lib/domain/composite-key";
import { dbtOrchestrator } from "./dbt";
import type { DispatchPlan, TaskFacts } from "./port";

const task = (name: string): TaskFacts => ({
  taskNodeId: `job:dbt:${name}`,
  name,
  namespace: "dbt",
  pipeline: "jaffle_shop",
  sideEffect: "none",
  writeMode: "replace",
});
const tasks = new Map(
  [
    task("model.jaffle_shop.stg_orders"),
    task("model.jaffle_shop.orders"),
    task("model.jaffle_shop.customers"),
    task("model.jaffle_shop.revenue_daily"),
    task("model.jaffle_shop.running_balance"),
  ].map((t) => [t.taskNodeId, t]),
);
const DAY = 86_400_000;
/** Daily windows for revenue_daily's units (a microbatch model); no window for the others. */
const daily = (taskNodeId: string, unitKey: string) =>
  taskNodeId.endsWith(".revenue_daily") && /^\d{4}-\d{2}-\d{2}$/.test(unitKey)
    ? { start: new Date(`${unitKey}T00:00:00Z`), end: new Date(Date.parse(`${unitKey}T00:00:00Z`) + DAY) }
    : null;
const plan = (
  pairs: [string, string, number][],
  overrides: Record<string, string> = {},
  previous: Record<string, unknown> = {},
  windowOf: DispatchPlan["windowOf"] = () => null,
): DispatchPlan => ({
  incidentId: "i",
  runId: null,
  repairNumber: 1,
  pairs: pairs.map(([t, unitKey, wave]) => ({ taskNodeId: `job:dbt:model.jaffle_shop.${t}`, unitKey, wave })),
  waves: Math.max(...pairs.map(([, , w]) => w)) + 1,
  tasks,
  excludedTasks: new Set(),
  windowOf,
  unitAt: () => null,
  parameterOverrides: overrides,
  idempotencyKeys: {},
  previous,
  launchedAt: null,
});
const key = (t: string, u: string) => compositeKey(`job:dbt:model.jaffle_shop.${t}`, u);

describe("the dbt adapter's commands", () => {
  const dbt = dbtOrchestrator(
    { kind: "dbt", unitsVar: "reparo_units", tasks: { "job:dbt:model.jaffle_shop.customers": "tag:customers" }, target: "prod" },
    null,
  );
  it("one dbt build per wave, the units of partitioned models in --vars, shell-quoted", () => {
    const { requests, unsupported } = dbt.requests(
      plan(
        [
          ["stg_orders", "2026-08-17", 0],
          ["stg_orders", "2026-08-23", 0],
          ["orders", "2026-08-17", 1],
          ["customers", "*", 1],
        ],
        { run_mode: "repair" },
      ),
    );
    expect(unsupported).toEqual([]);
    expect(requests.map((r) => [r.wave, r.method, r.path])).toEqual([
      [0, "RUN", `dbt build --select stg_orders --vars '{"run_mode":"repair","reparo_units":{"stg_orders":["2026-08-17","2026-08-23"]}}' --target prod`],
      [1, "RUN", `dbt build --select orders tag:customers --vars '{"run_mode":"repair","reparo_units":{"orders":["2026-08-17"]}}' --target prod`],
    ]);
  });
  it("an unpartitioned model builds whole: no --vars", () => {
    expect(dbt.requests(plan([["customers", "*", 0]])).requests[0]!.path).toBe("dbt build --select tag:customers --target prod");
  });
  it("a model partitioned by time is built with dbt's own --event-time-start/--event-time-end, one invocation per range of consecutive units", () => {
    const lab = dbtOrchestrator(
      { kind: "dbt", unitsVar: "reparo_units", tasks: {}, executable: "dbt-ol", flags: ["--consume-structured-logs"], projectDir: "/srv/dbt/lab" },
      null,
    );
    const p = plan(
      [
        ["revenue_daily", "2026-08-17", 0],
        ["revenue_daily", "2026-08-23", 0],
        ["revenue_daily", "2026-08-18", 0],
        ["running_balance", "*", 1],
      ],
      {},
      {},
      daily,
    );
    const { requests } = lab.requests(p);
    // 08-17 and 08-18 are one range; 08-23 another — never 08-17 … 08-24, which would rebuild the days between.
    expect(requests.map((r) => [r.wave, r.path])).toEqual([
      [0, "dbt-ol build --consume-structured-logs --select revenue_daily --event-time-start 2026-08-17 --event-time-end 2026-08-19 --project-dir /srv/dbt/lab"],
      [0, "dbt-ol build --consume-structured-logs --select revenue_daily --event-time-start 2026-08-23 --event-time-end 2026-08-24 --project-dir /srv/dbt/lab"],
      [1, "dbt-ol build --consume-structured-logs --select running_balance --project-dir /srv/dbt/lab"],
    ]);
    // No variable the team's models would have to read.
    expect(requests.some((r) => r.path.includes("--vars"))).toBe(false);
  });
  it("a wave's invocations are handed out as one shell line, each after the one before succeeded", async () => {
    const lab = dbtOrchestrator({ kind: "dbt", unitsVar: "reparo_units", tasks: {} }, null);
    const p = plan(
      [
        ["revenue_daily", "2026-08-17", 0],
        ["revenue_daily", "2026-08-23", 0],
        ["customers", "*", 0],
      ],
      { run_mode: "repair" },
      {},
      daily,
    );
    const { handle } = await lab.dispatchWave(p, 0);
    expect(handle.command).toBe(
      [
        `dbt build --select customers --vars '{"run_mode":"repair"}'`,
        `dbt build --select revenue_daily --event-time-start 2026-08-17 --event-time-end 2026-08-18 --vars '{"run_mode":"repair"}'`,
        `dbt build --select revenue_daily --event-time-start 2026-08-23 --event-time-end 2026-08-24 --vars '{"run_mode":"repair"}'`,
      ].join(" && "),
    );
  });
  it("its progress needs the ledger: outside a repair run, polling says so", async () => {
    await expect(dbt.poll(plan([["orders", "*", 0]]), 0, { dispatchedAt: new Date().toISOString(), command: "x" }, { deadline: 0 })).rejects.toThrow(
      /inside a repair run/,
    );
  });
  it("`dbt retry` is offered beside the first wave only when it does exactly the plan", () => {
    const failed = { invocation: "inv-1", pairs: [key("stg_orders", "2026-08-17"), key("orders", "2026-08-17")] };
    const pairs: [string, string, number][] = [
      ["stg_orders", "2026-08-17", 0],
      ["orders", "2026-08-17", 1],
    ];
    const withRetry = dbt.requests(plan(pairs, {}, { "dbt.retry": failed })).requests;
    expect(withRetry.map((r) => r.alternative)).toEqual(["dbt retry --target prod", undefined]);
    // More than the failed run left (a downstream model it never reached), an override, or no failed invocation: no retry.
    expect(dbt.requests(plan([...pairs, ["customers", "*", 1]], {}, { "dbt.retry": failed })).requests.some((r) => r.alternative)).toBe(false);
    expect(dbt.requests(plan(pairs, { run_mode: "repair" }, { "dbt.retry": failed })).requests.some((r) => r.alternative)).toBe(false);
    expect(dbt.requests(plan(pairs)).requests.some((r) => r.alternative)).toBe(false);
  });
});
