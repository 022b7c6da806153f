import type { Tx } from "../db/client";
import type { DatasetHandle, TaskHandle } from "../repositories/catalog-writes";
import { appendPublishes, reportInvalidKeys, runsByIds, upsertAttempts, upsertRuns, type AttemptRow, type InvalidKeyRow, type PublishRow } from "../repositories/run-writes";
import type { DbtGraph } from "./dbt-graph";
import type { DbtRunPlan } from "./dbt-run";
import { UnitKeyResolver } from "./resolve-unit-keys";
import { stableId } from "./stable-id";

export interface DbtRunWrite {
  runId: string;
  externalId: string;
  pipelineId: string;
  tasks: Map<string, TaskHandle>;
  datasets: Map<string, DatasetHandle>;
}

export interface DbtRunWritten { runs: number; attempts: number; publishes: number; invalidKeys: number; byStatus: Record<string, number>; unknownNodes: string[] }

/**
 * The run one `dbt run|build|test` was: one attempt per node (try 1; a new invocation is a new
 * run), and a publish for each model, seed or snapshot that succeeded and reported how many rows
 * it wrote. Units come from the output's partition definition as for OpenLineage: an
 * unpartitioned relation has the one unit `*`; a partitioned one cannot be told from
 * run_results, so its key is reported invalid rather than guessed.
 */
export async function writeDbtRun(tx: Tx, graph: DbtGraph, plan: DbtRunPlan, w: DbtRunWrite): Promise<DbtRunWritten> {
  const { attempts, publishes, invalid, unknownNodes } = rowsOfRun(graph, plan, w);
  const stored = await runsByIds(tx, [w.runId]);
  const runs = await upsertRuns(tx, [{
    id: w.runId, externalId: w.externalId, pipelineId: w.pipelineId, kind: "manual", status: plan.status, rootRunId: null, parentRunId: null,
    codeVersion: "", triggeredBy: "dbt", nominalTime: null, startedAt: new Date(plan.startedAt), endedAt: new Date(plan.endedAt),
  }], stored);
  const byStatus: Record<string, number> = {};
  for (const a of attempts) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  return {
    runs, attempts: await upsertAttempts(tx, attempts), publishes: await appendPublishes(tx, publishes),
    invalidKeys: await reportInvalidKeys(tx, invalid), byStatus, unknownNodes,
  };
}

function rowsOfRun(graph: DbtGraph, plan: DbtRunPlan, w: DbtRunWrite) {
  const planOf = new Map(graph.tasks.map((t) => [t.uniqueId, t]));
  const resolver = new UnitKeyResolver();
  const attempts: AttemptRow[] = [];
  const publishes: PublishRow[] = [];
  const invalid: InvalidKeyRow[] = [];
  const unknownNodes: string[] = [];
  for (const a of plan.attempts) {
    const node = planOf.get(a.uniqueId);
    if (!node) {
      unknownNodes.push(a.uniqueId);
      continue;
    }
    const dataset = w.datasets.get(node.output.nodeId)!;
    const [verdict] = resolver.resolve(node.output.nodeId, dataset.partitionDef, []);
    const taskId = w.tasks.get(node.task.nodeId)!.id;
    const attempt: AttemptRow = {
      id: stableId("dbtatt", w.runId, taskId, verdict!.key, 1), runId: w.runId, taskId, unitKey: verdict!.key, tryNumber: 1, status: a.status,
      rowsWritten: a.rowsWritten, error: a.error, codeVersion: "", startedAt: date(a.startedAt), endedAt: date(a.endedAt),
    };
    attempts.push(attempt);
    if (node.resourceType === "test" || a.status !== "succeeded") continue;
    if (!verdict!.valid) invalid.push({ nodeId: node.output.nodeId, unitKey: verdict!.key, reason: verdict!.reason, source: "ingestion", runId: w.runId, observedAt: new Date(plan.endedAt) });
    else if (a.rowsWritten !== null) {
      publishes.push({
        id: stableId("dbtpub", attempt.id, dataset.id, verdict!.key), datasetId: dataset.id, unitKey: verdict!.key, runId: w.runId, attemptId: attempt.id,
        publishedAt: new Date(a.endedAt ?? plan.endedAt), inputVersion: "", codeVersion: "", rowCount: a.rowsWritten,
      });
    }
  }
  return { attempts, publishes, invalid, unknownNodes };
}

const date = (ms: number | null) => (ms === null ? null : new Date(ms));
