import { compositeKey } from "@/lib/domain/composite-key";
import type { NodeId } from "@/lib/domain/ids";
import { holds, sideEffects } from "@/lib/domain/preconditions";
import { windowRanges } from "@/lib/domain/window-ranges";
import type { OrchestratorConnection } from "@/lib/contracts/orchestrators";
import type { Db } from "../repositories/database";
import type { RepairRunRecord } from "../repositories/repair/repair-runs";
import type { LocalRunContext } from "../orchestrators/local";
import { orchestratorFor } from "../orchestrators/orchestrator-for";
import type { DispatchPlan, Orchestrator, PairRef, TaskFacts } from "../orchestrators/port";
import { databricksJobRunOf } from "../orchestrators/databricks-job-run";
import { dbtRetrySourceOf } from "../orchestrators/dbt-retry-source";
import { listConnections, listPipelines } from "../repositories/pipelines/orchestrator-connections";
import type { RepairContext } from "./load-repair-context";

/** One pipeline's share of a repair: its connection, its adapter, and the plan as that adapter sees it. */
export interface DispatchGroup {
  readonly pipelineId: string;
  readonly pipeline: string;
  readonly connection: OrchestratorConnection;
  /** null: the pipeline has no connection (`none`): its share can be exported, not dispatched. */
  readonly orchestrator: Orchestrator | null;
  readonly plan: DispatchPlan;
}

export interface DispatchInput {
  incidentId: string;
  runId: string | null;
  repairNumber: number;
  pairs: readonly (readonly [string, string, number])[];
  parameterOverrides: Record<string, string>;
  idempotencyKeys: Record<string, string>;
  /** Tasks the plan leaves out on purpose (side effects). */
  excluded: readonly string[];
  /** A run's snapshot of its connections (by pipeline id); without it, the connections stored now. */
  connections?: Readonly<Record<string, OrchestratorConnection>>;
  /** Ids earlier repairs kept, per pipeline id. */
  previous?: Readonly<Record<string, Record<string, unknown>>>;
  /** The run the failure happened in (the incident's origin): a Databricks repair repairs its job run. */
  failedRunId?: string | null;
  /** When the run was launched (null while previewing). */
  launchedAt?: Date | null;
}

const NO_PIPELINE = "";

/**
 * Splits a repair's pairs by the pipeline of their task and gives each share its adapter: the
 * connection decides where it runs. A run launched before connections existed (no snapshot)
 * runs every pipeline locally.
 */
export async function dispatchGroups(db: Db, ctx: RepairContext, input: DispatchInput, local: LocalRunContext | null): Promise<DispatchGroup[]> {
  const [pipelines, stored] = await Promise.all([listPipelines(db), input.connections ? Promise.resolve(null) : listConnections(db)]);
  const nameOf = new Map(pipelines.map((p) => [p.id, p.name]));
  const connectionOf = (pipelineId: string): OrchestratorConnection =>
    input.connections ? (input.connections[pipelineId] ?? { kind: "local" }) : (stored!.get(pipelineId)?.connection ?? { kind: "none" });
  // Side effects as the planner counts them (preconditions.ts sideEffects: undeclared is external), so
  // an adapter never dispatches, or exports, a replay the plan calls side-effecting as if it were not.
  const facts = (t: {
    nodeId: string;
    name: string;
    namespace: string;
    pipeline: string | null;
    sideEffect: "none" | "external" | null;
    writeMode: string | null;
  }): TaskFacts => ({
    taskNodeId: t.nodeId,
    name: t.name,
    namespace: t.namespace,
    pipeline: t.pipeline ?? "",
    sideEffect: holds(sideEffects({ sideEffect: t.sideEffect ?? undefined })) ? "none" : "external",
    writeMode: t.writeMode,
  });
  const byPipeline = new Map<string, PairRef[]>();
  for (const [taskNodeId, unitKey, wave] of input.pairs) {
    const pipelineId = ctx.tasks.get(taskNodeId)?.pipelineId ?? NO_PIPELINE;
    byPipeline.set(pipelineId, [...(byPipeline.get(pipelineId) ?? []), { taskNodeId, unitKey, wave }]);
  }
  const waves = Math.max(0, ...input.pairs.map(([, , w]) => w + 1));
  const spaceOf = (taskNodeId: string) => {
    const i = ctx.graph.index.get(taskNodeId as NodeId);
    return i === undefined ? undefined : ctx.graph.nodes[i]!.space;
  };
  const groups = [...byPipeline].map(([pipelineId, pairs]) => ({
    pipelineId,
    pairs,
    connection: pipelineId === NO_PIPELINE ? ({ kind: "none" } as const) : connectionOf(pipelineId),
  }));
  // A Databricks pipeline's job run, from ingested run facets (the connection's jobRunId is the fallback).
  const jobRuns = new Map(
    await Promise.all(
      groups
        .filter((g) => g.connection.kind === "databricks")
        .map(async (g) => [g.pipelineId, await databricksJobRunOf(db, g.pipelineId, input.failedRunId ?? null)] as const),
    ),
  );
  // A dbt pipeline's failed invocation, for `dbt retry` (offered when it does exactly the plan).
  const retries = new Map(
    await Promise.all(
      groups
        .filter((g) => g.connection.kind === "dbt")
        .map(async (g) => [g.pipelineId, await dbtRetrySourceOf(db, g.pipelineId, input.failedRunId ?? null)] as const),
    ),
  );
  return groups.map(({ pipelineId, pairs, connection }) => {
    const tasks = new Map([...ctx.tasks.values()].filter((t) => (t.pipelineId ?? NO_PIPELINE) === pipelineId).map((t) => [t.nodeId, facts(t)]));
    const plan: DispatchPlan = {
      incidentId: input.incidentId,
      runId: input.runId,
      repairNumber: input.repairNumber,
      pairs,
      waves,
      tasks,
      excludedTasks: new Set(input.excluded.filter((t) => tasks.has(t))),
      windowOf(taskNodeId, unitKey) {
        const space = spaceOf(taskNodeId);
        const v = space?.validate(unitKey);
        if (!space?.time || !v?.valid) return null;
        return { start: new Date(space.time.windowStartMs(v.ordinal)), end: new Date(space.time.windowStartMs(v.ordinal + 1)) };
      },
      windowRanges(taskNodeId, unitKeys) {
        const space = spaceOf(taskNodeId);
        return space ? windowRanges(space, unitKeys) : null;
      },
      unitAt(taskNodeId, at) {
        const space = spaceOf(taskNodeId);
        if (!space?.time) return null;
        const ordinal = space.time.ordinalAtMs(at.getTime());
        if (ordinal < 0 || space.time.windowStartMs(ordinal) !== at.getTime()) return null;
        const key = space.keyAt(ordinal);
        return space.validate(key).valid ? key : null;
      },
      parameterOverrides: input.parameterOverrides,
      idempotencyKeys: input.idempotencyKeys,
      launchedAt: input.launchedAt ?? null,
      previous: {
        ...(jobRuns.get(pipelineId) != null ? { "databricks.runId": jobRuns.get(pipelineId) } : {}),
        ...(retries.get(pipelineId) ? { "dbt.retry": retries.get(pipelineId) } : {}),
        ...input.previous?.[pipelineId],
      },
    };
    return { pipelineId, pipeline: nameOf.get(pipelineId) ?? "(no pipeline)", connection, orchestrator: orchestratorFor(connection, local), plan };
  });
}

/** A launched run's pipelines with their adapters, as its connections were at launch. */
export function runDispatchGroups(db: Db, ctx: RepairContext, run: RepairRunRecord, local: LocalRunContext | null): Promise<DispatchGroup[]> {
  return dispatchGroups(
    db,
    ctx,
    {
      incidentId: run.incidentId ?? "",
      runId: run.id,
      repairNumber: run.repairNumber,
      pairs: run.params.pairs,
      parameterOverrides: run.params.parameterOverrides,
      idempotencyKeys: run.params.idempotencyKeys,
      excluded: [],
      connections: run.params.connections,
      failedRunId: run.rootRunId,
      launchedAt: run.createdAt,
    },
    local,
  );
}

export const progressKey = (taskNodeId: string, unitKey: string) => compositeKey(taskNodeId, unitKey);
