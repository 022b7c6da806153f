import type { Submitter } from "../auth/roles";
import { refuseHeldPublishes } from "../incidents/held-units";
import type { Tx } from "../repositories/database";
import type { DatasetHandle, TaskHandle } from "../repositories/lineage/catalog-writes";
import {
  appendPublishes,
  reportInvalidKeys,
  runsByIds,
  upsertAttempts,
  upsertRuns,
  type AttemptRow,
  type InvalidKeyRow,
  type PublishRow,
} from "../repositories/ledger/ingested-runs";
import type { DbtGraph } from "./dbt-graph";
import type { DbtRunPlan } from "./dbt-run";
import { UNPARTITIONED_KEY, type PartitionDef } from "@/lib/domain/partitions";
import { UnitKeyResolver, type UnitVerdict } from "./resolve-unit-keys";
import type { DbtAttemptPlan, DbtBatch } from "./dbt-run";
import { stableId } from "./stable-id";

export interface DbtRunWrite {
  runId: string;
  externalId: string;
  pipelineId: string;
  tasks: Map<string, TaskHandle>;
  datasets: Map<string, DatasetHandle>;
}

export interface DbtRunWritten {
  runs: number;
  attempts: number;
  publishes: number;
  invalidKeys: number;
  byStatus: Record<string, number>;
  unknownNodes: string[];
}

/**
 * The run one `dbt run|build|test` was: one attempt per node (try 1; a new invocation is a new
 * run), and a publish for each model, seed or snapshot that succeeded — with the rows it reported
 * writing, or rows unknown when the adapter reports none (a view). Units come from the output's partition definition as for OpenLineage: an
 * unpartitioned relation has the one unit `*`; a partitioned one cannot be told from
 * run_results, so its key is reported invalid rather than guessed.
 */
export async function writeDbtRun(tx: Tx, graph: DbtGraph, plan: DbtRunPlan, w: DbtRunWrite, submitter?: Submitter): Promise<DbtRunWritten> {
  const rows = rowsOfRun(graph, plan, w);
  const { attempts, invalid, unknownNodes } = rows;
  const publishes = rows.publishes.map((p) => ({ ...p, submittedBy: submitter?.id ?? null }));
  const nodeIdOf = new Map([...w.datasets].map(([nodeId, d]) => [d.id, nodeId]));
  await refuseHeldPublishes(tx, publishes, submitter, (id) => nodeIdOf.get(id) ?? id);
  const stored = await runsByIds(tx, [w.runId]);
  const runs = await upsertRuns(
    tx,
    [
      {
        id: w.runId,
        externalId: w.externalId,
        pipelineId: w.pipelineId,
        kind: "manual",
        status: plan.status,
        rootRunId: null,
        parentRunId: null,
        codeVersion: "",
        triggeredBy: "dbt",
        nominalTime: null,
        startedAt: new Date(plan.startedAt),
        endedAt: new Date(plan.endedAt),
      },
    ],
    stored,
  );
  const byStatus: Record<string, number> = {};
  for (const a of attempts) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  return {
    runs,
    attempts: await upsertAttempts(tx, attempts),
    publishes: await appendPublishes(tx, publishes),
    invalidKeys: await reportInvalidKeys(tx, invalid),
    byStatus,
    unknownNodes,
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
    const taskId = w.tasks.get(node.task.nodeId)!.id;
    const attemptOf = (unitKey: string, status: DbtAttemptPlan["status"], rowsWritten: number | null, error: string | null): AttemptRow => ({
      id: stableId("dbtatt", w.runId, taskId, unitKey, 1),
      runId: w.runId,
      taskId,
      unitKey,
      tryNumber: 1,
      status,
      rowsWritten,
      error,
      codeVersion: "",
      startedAt: date(a.startedAt),
      endedAt: date(a.endedAt),
    });
    // A test is a check of what it reads: its attempt is its verdict, on its one unit.
    if (!node.output) {
      attempts.push(attemptOf(UNPARTITIONED_KEY, a.status, null, a.error));
      continue;
    }
    const output = node.output;
    const dataset = w.datasets.get(output.nodeId)!;
    const units = a.batches ? batchUnits(resolver, output.nodeId, dataset.partitionDef, a.batches) : null;
    if (units) {
      for (const b of units) {
        if (!b.verdict.valid)
          invalid.push({
            nodeId: output.nodeId,
            unitKey: b.verdict.key,
            reason: b.verdict.reason,
            source: "ingestion",
            runId: w.runId,
            observedAt: new Date(plan.endedAt),
          });
        else attempts.push(attemptOf(b.verdict.key, b.ok ? "succeeded" : "failed", null, b.ok ? null : (a.error ?? "the batch failed")));
      }
      // Each successful batch published its unit; one count for several batches cannot be split,
      // so only a lone batch carries the model's count — the others are published, rows unknown.
      const batchAttempts = attempts.slice(attempts.length - units.filter((b) => b.verdict.valid).length);
      for (const attempt of batchAttempts)
        if (attempt.status === "succeeded")
          publishes.push(publishOf(attempt, dataset.id, units.length === 1 ? a.rowsWritten : null, a.endedAt ?? plan.endedAt));
      continue;
    }
    const [verdict] = resolver.resolve(output.nodeId, dataset.partitionDef, []);
    const attempt = attemptOf(verdict!.key, a.status, a.rowsWritten, a.error);
    attempts.push(attempt);
    if (a.status !== "succeeded") continue;
    if (!verdict!.valid)
      invalid.push({
        nodeId: output.nodeId,
        unitKey: verdict!.key,
        reason: verdict!.reason,
        source: "ingestion",
        runId: w.runId,
        observedAt: new Date(plan.endedAt),
      });
    // A model that succeeded published its unit, with dbt's rows_affected when the adapter reports it.
    else publishes.push(publishOf(attempt, dataset.id, a.rowsWritten, a.endedAt ?? plan.endedAt));
  }
  return { attempts, publishes, invalid, unknownNodes };
}

function publishOf(attempt: AttemptRow, datasetId: string, rowCount: number | null, at: number): PublishRow {
  return {
    id: stableId("dbtpub", attempt.id, datasetId, attempt.unitKey),
    datasetId,
    unitKey: attempt.unitKey,
    runId: attempt.runId,
    attemptId: attempt.id,
    publishedAt: new Date(at),
    inputVersion: "",
    codeVersion: "",
    rowCount,
  };
}

/**
 * A microbatch model's batches as units: each batch is the window of the output's time
 * definition that contains the batch's start. Without a time definition the batches name no
 * unit, and the model is one attempt like any other (failed when any batch failed).
 */
function batchUnits(resolver: UnitKeyResolver, nodeId: string, def: PartitionDef, batches: DbtBatch[]): { verdict: UnitVerdict; ok: boolean }[] | null {
  if (def.kind !== "time") return null;
  return batches.map((b) => ({ verdict: resolver.resolve(nodeId, def, [], { partitionKey: null, partitionDate: b.start, nominalStart: null })[0]!, ok: b.ok }));
}

const date = (ms: number | null) => (ms === null ? null : new Date(ms));
