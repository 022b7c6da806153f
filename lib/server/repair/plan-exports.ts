import { nodeName, type NodeId } from "@/lib/domain/ids";
import type { RepairPlan } from "@/lib/domain/repair-planner";
import type { OrchestratorConnection, PlanExport } from "@/lib/contracts/orchestrators";
import type { Db } from "../repositories/database";
import { orchestratorFor } from "../orchestrators/orchestrator-for";
import { dispatchGroups } from "./dispatch-groups";
import { planPairs } from "./launch-input";
import type { RepairContext } from "./load-repair-context";

const KINDS = ["airflow", "dagster", "databricks", "dbt"] as const;

/** A connection of `kind` for a pipeline that has none of that kind: the default names, a secret named only. */
const defaults: Record<(typeof KINDS)[number], OrchestratorConnection> = {
  airflow: { kind: "airflow", baseUrl: "https://airflow.invalid", credentials: { env: "REPARO_SECRET_AIRFLOW_TOKEN" }, tasks: {} },
  dagster: { kind: "dagster", baseUrl: "https://dagster.invalid", assets: {} },
  databricks: {
    kind: "databricks",
    baseUrl: "https://databricks.invalid",
    credentials: { env: "REPARO_SECRET_DATABRICKS_TOKEN" },
    tasks: {},
    unitsParameter: "reparo_units",
  },
  dbt: { kind: "dbt", unitsVar: "reparo_units", tasks: {} },
};

/**
 * The plan as each orchestrator's own requests, for an operator to copy — built by the same
 * adapters that dispatch it (lib/server/orchestrators), so an export is exactly what would be
 * sent: the real requests (Airflow `dry_run: false`; the dry run is its own step), every
 * pipeline of the plan, each pipeline's connection names where it has one. Every planned task
 * is in a request or listed unsupported with why. A blocked plan exports nothing runnable.
 */
export async function planExports(
  db: Db,
  ctx: RepairContext,
  plan: RepairPlan,
  failedRunId: string | null = null,
): Promise<Record<(typeof KINDS)[number], PlanExport>> {
  if (!plan.runnable) {
    const why = `the plan is blocked: ${plan.blockers.map((b) => b.message).join(" ")}`;
    const blocked: PlanExport = {
      requests: [],
      unsupported: plan.waves.flat().map((p) => ({
        taskNodeId: p.task,
        name: nodeName(p.task),
        pipeline: p.pipeline,
        units: p.keyRanges.map(([a, b]) => (a === b ? a : `${a}..${b}`)),
        reason: why,
      })),
    };
    return { airflow: blocked, dagster: blocked, databricks: blocked, dbt: blocked };
  }
  const pairs = planPairs(ctx, plan);
  const groups = await dispatchGroups(
    db,
    ctx,
    {
      incidentId: "",
      runId: null,
      repairNumber: 0,
      pairs,
      parameterOverrides: { ...plan.parameterOverrides },
      idempotencyKeys: {},
      excluded: plan.excluded.map((e) => e.task),
      failedRunId,
    },
    null,
  );
  const out = {} as Record<(typeof KINDS)[number], PlanExport>;
  for (const kind of KINDS) {
    const result: PlanExport = { requests: [], unsupported: [] };
    for (const g of groups) {
      const connection = g.connection.kind === kind ? g.connection : defaults[kind];
      const { requests, unsupported } = orchestratorFor(connection, null)!.requests(g.plan);
      result.requests.push(...requests.map((r) => ({ ...r, pipeline: g.pipeline })));
      result.unsupported.push(
        ...unsupported.map((u) => ({
          taskNodeId: u.taskNodeId,
          name: nodeName(u.taskNodeId as NodeId),
          pipeline: g.pipeline,
          units: [...u.units],
          reason: u.reason,
        })),
      );
    }
    out[kind] = result;
  }
  return out;
}
