import { describe, expect, it } from "vitest";
import { toAirflowClear, toDagsterBackfills, toDatabricksRepair } from "./plan-exports";
import { planRepair } from "./repair-planner";
import { dayOrdinal, ordersGraph, T } from "./test-fixtures/orders-graph";
import { UnitSet } from "./unit-set";

// raw_orders ─► stg_orders (failed 2026-08-17) ─► fct_orders ─► revenue_daily ─► executive_dashboard
//                                                  │   └─► running_balance⟲   └─day→week─► finance_weekly_export (external)
//                                                  └─► ml_features (pipeline ml)
const graph = ordersGraph();
const plan = planRepair({
  graph,
  targets: [{ node: T.stg, units: UnitSet.of(dayOrdinal("2026-08-17")) }],
  options: { resolutions: [{ kind: "fixed_to_replace", task: T.stg }], parameterOverrides: { spark_executors: "8" } },
});

describe("plan exports", () => {
  it("seed 001: Airflow clear lists the closure explicitly, with downstream OFF so the excluded export is not re-sent", () => {
    const { requests, unsupported } = toAirflowClear(plan, graph);
    expect(unsupported).toEqual([]);
    expect(requests.map((r) => [r.path, r.wave, r.body.task_ids, r.body.start_date, r.body.end_date])).toEqual([
      ["/api/v2/dags/orders/clearTaskInstances", 0, ["stg_orders"], "2026-08-17T00:00:00.000Z", "2026-08-17T00:00:00.000Z"],
      ["/api/v2/dags/orders/clearTaskInstances", 1, ["fct_orders"], "2026-08-17T00:00:00.000Z", "2026-08-17T00:00:00.000Z"],
      ["/api/v2/dags/orders/clearTaskInstances", 2, ["revenue_daily"], "2026-08-17T00:00:00.000Z", "2026-08-17T00:00:00.000Z"],
      ["/api/v2/dags/orders/clearTaskInstances", 2, ["running_balance"], "2026-08-17T00:00:00.000Z", "2026-08-25T00:00:00.000Z"],
      ["/api/v2/dags/ml/clearTaskInstances", 2, ["ml_features"], "2026-08-17T00:00:00.000Z", "2026-08-17T00:00:00.000Z"],
      ["/api/v2/dags/orders/clearTaskInstances", 3, ["executive_dashboard"], "2026-08-17T00:00:00.000Z", "2026-08-17T00:00:00.000Z"],
    ]);
    expect(requests[0]!.body).toMatchObject({ dry_run: true, include_downstream: false, include_upstream: false, only_failed: false, reset_dag_runs: true });
    expect(requests.flatMap((r) => r.body.task_ids)).not.toContain("finance_weekly_export");
  });

  it("Dagster: one partition-subset backfill per distinct partition set, never fromFailure", () => {
    const backfills = toDagsterBackfills(plan, graph);
    expect(backfills.map((b) => [b.assetSelection.map((a) => a.path.join("/")), b.partitionNames.length])).toEqual([
      [["stg_orders", "fct_orders", "revenue_daily", "ml_features", "executive_dashboard"], 1],
      [["running_balance"], 9],
    ]);
    expect(backfills[1]!.partitionNames[8]).toBe("2026-08-25");
    expect(backfills[0]!.fromFailure).toBe(false);
    expect(backfills[0]!.description).toContain("finance_weekly_export");
  });

  it("Databricks runs/repair: rerun_tasks from the plan, dependents off, overrides as job_parameters", () => {
    const body = toDatabricksRepair(plan, { runId: 4242, pipeline: "orders", latestRepairId: 7, unitsParameter: "reparo_units" });
    expect(body).toEqual({
      run_id: 4242,
      rerun_tasks: ["stg_orders", "fct_orders", "revenue_daily", "running_balance", "executive_dashboard"],
      rerun_dependent_tasks: false,
      latest_repair_id: 7,
      job_parameters: {
        spark_executors: "8",
        reparo_units: JSON.stringify({
          stg_orders: ["2026-08-17"],
          fct_orders: ["2026-08-17"],
          revenue_daily: ["2026-08-17"],
          running_balance: ["2026-08-17..2026-08-25"],
          executive_dashboard: ["2026-08-17"],
        }),
      },
    });
  });
});
