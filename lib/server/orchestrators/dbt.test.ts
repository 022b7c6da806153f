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
  [task("model.jaffle_shop.stg_orders"), task("model.jaffle_shop.orders"), task("model.jaffle_shop.customers")].map((t) => [t.taskNodeId, t]),
);
const plan = (pairs: [string, string, number][], overrides: Record<string, string> = {}, previous: Record<string, unknown> = {}): DispatchPlan => ({
  incidentId: "i",
  runId: null,
  repairNumber: 1,
  pairs: pairs.map(([t, unitKey, wave]) => ({ taskNodeId: `job:dbt:model.jaffle_shop.${t}`, unitKey, wave })),
  waves: Math.max(...pairs.map(([, , w]) => w)) + 1,
  tasks,
  excludedTasks: new Set(),
  windowOf: () => null,
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
