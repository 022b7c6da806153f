import { UNPARTITIONED_KEY } from "@/lib/domain/partitions";
import type { DatasetHandle, TaskHandle } from "../repositories/catalog/catalog-writes";
import type { AttemptRow, InvalidKeyRow, PublishRow, RunRow } from "../repositories/ledger/ingested-runs";
import type { FoldedOutput, FoldedRun, FoldedTry } from "./fold-run-events";
import type { RunLineage } from "./lineage-history";
import type { UnitKeyResolver, UnitVerdict } from "./resolve-unit-keys";
import { runRowId, stableId } from "./stable-id";

export interface RunRows {
  run: RunRow;
  attempts: AttemptRow[];
  publishes: PublishRow[];
  invalidKeys: InvalidKeyRow[];
  lineage: RunLineage;
}

export interface RowContext {
  task: TaskHandle;
  datasets: Map<string, DatasetHandle>;
  resolver: UnitKeyResolver;
  parentRunId: string | null;
  rootRunId: string | null;
  pipelineId: string | null;
}

/**
 * The rows one folded run maps to. Attempts are keyed by job, unit and try (never by the
 * producer's run id alone). A completed try publishes each output unit once, with the latest
 * row count the run reported; an output without a row count, or one event naming several units
 * of one output (the count cannot be split), is not published — POST /api/v1/publishes can.
 */
export function buildRunRows(run: FoldedRun, ctx: RowContext): RunRows {
  const id = runRowId(run.jobNodeId, run.runId);
  const verdicts = new Map(run.outputs.map((o) => [o.nodeId, ctx.resolver.resolve(o.nodeId, ctx.datasets.get(o.nodeId)!.partitionDef, o.keys, run)]));
  const unitKeys = [...new Set([...verdicts.values()].flat().map((v) => v.key))];
  const attemptKeys = unitKeys.length > 0 ? unitKeys : [UNPARTITIONED_KEY];
  const attempts = run.tries.flatMap((t) => attemptKeys.map((unitKey) => attemptRow(run, t, id, ctx.task.id, unitKey, verdicts)));
  const last = run.tries[run.tries.length - 1]!;
  return {
    run: {
      id,
      externalId: run.runId,
      pipelineId: ctx.pipelineId,
      kind: run.kind,
      status: runStatus(last),
      rootRunId: ctx.rootRunId,
      parentRunId: ctx.parentRunId,
      codeVersion: run.codeVersion,
      triggeredBy: "openlineage",
      nominalTime: run.nominalStart === null ? null : new Date(run.nominalStart),
      startedAt: new Date(run.tries[0]!.startedAt),
      endedAt: last.endedAt === null ? null : new Date(last.endedAt),
      ...(run.databricksJobRunId !== null ? { parameters: JSON.stringify({ databricks: { jobRunId: run.databricksJobRunId } }) } : {}),
    },
    attempts,
    publishes: publishRows(run, id, ctx, verdicts, attempts),
    invalidKeys: [...invalidKeyRows(run, id, verdicts), ...invalidInputKeys(run, id, ctx)],
    lineage: {
      runId: id,
      taskId: ctx.task.id,
      at: run.tries[0]!.startedAt,
      authoritative: last.terminal === "COMPLETE",
      edges: [
        ...run.inputs.map((i) => ({ datasetId: ctx.datasets.get(i.nodeId)!.id, direction: "read" as const })),
        ...run.outputs.map((o) => ({ datasetId: ctx.datasets.get(o.nodeId)!.id, direction: "write" as const })),
      ],
    },
  };
}

function runStatus(t: FoldedTry): string {
  if (t.terminal === "ABORT") return "cancelled";
  return t.status;
}

function attemptRow(run: FoldedRun, t: FoldedTry, runId: string, taskId: string, unitKey: string, verdicts: Map<string, UnitVerdict[]>): AttemptRow {
  return {
    id: stableId("olatt", runId, taskId, unitKey, t.tryNumber),
    runId,
    taskId,
    unitKey,
    tryNumber: t.tryNumber,
    status: t.status,
    rowsWritten: rowsFor(run.outputs, verdicts, unitKey),
    error: t.error,
    codeVersion: run.codeVersion,
    startedAt: new Date(t.startedAt),
    endedAt: t.endedAt === null ? null : new Date(t.endedAt),
  };
}

/** Rows written to a unit: the sum over outputs that name exactly that one unit and report a count. */
function rowsFor(outputs: FoldedOutput[], verdicts: Map<string, UnitVerdict[]>, unitKey: string): number | null {
  let total: number | null = null;
  for (const o of outputs) {
    const keys = verdicts.get(o.nodeId)!;
    if (o.rowCount !== null && keys.length === 1 && keys[0]!.key === unitKey) total = (total ?? 0) + o.rowCount;
  }
  return total;
}

function publishRows(run: FoldedRun, runId: string, ctx: RowContext, verdicts: Map<string, UnitVerdict[]>, attempts: AttemptRow[]): PublishRow[] {
  const inputVersion = run.inputs
    .filter((i) => i.version !== null)
    .map((i) => `${i.namespace}/${i.name}@${i.version}`)
    .sort()
    .join(",");
  const rows: PublishRow[] = [];
  for (const t of run.tries) {
    if (t.terminal !== "COMPLETE" || t.endedAt === null) continue;
    for (const o of run.outputs) {
      const keys = verdicts.get(o.nodeId)!;
      const only = keys.length === 1 ? keys[0]! : null;
      if (o.rowCount === null || !only?.valid) continue;
      const attempt = attempts.find((a) => a.tryNumber === t.tryNumber && a.unitKey === only.key)!;
      const datasetId = ctx.datasets.get(o.nodeId)!.id;
      rows.push({
        id: stableId("olpub", attempt.id, datasetId, only.key),
        datasetId,
        unitKey: only.key,
        runId,
        attemptId: attempt.id,
        publishedAt: new Date(t.endedAt),
        inputVersion,
        codeVersion: run.codeVersion,
        rowCount: o.rowCount,
      });
    }
  }
  return rows;
}

/** Input units a subset facet names that the input's definition rejects: reported (seed 002), as outputs' are. */
function invalidInputKeys(run: FoldedRun, runId: string, ctx: RowContext): InvalidKeyRow[] {
  const at = new Date(run.tries[run.tries.length - 1]!.lastEventAt);
  return run.inputs.flatMap((i) => {
    if (i.keys.length === 0) return [];
    const verdicts = ctx.resolver.resolve(i.nodeId, ctx.datasets.get(i.nodeId)!.partitionDef, i.keys);
    return verdicts.flatMap((v) =>
      v.valid ? [] : [{ nodeId: i.nodeId, unitKey: v.key, reason: `read by ${run.jobNodeId}: ${v.reason}`, source: "ingestion", runId, observedAt: at }],
    );
  });
}

function invalidKeyRows(run: FoldedRun, runId: string, verdicts: Map<string, UnitVerdict[]>): InvalidKeyRow[] {
  const at = new Date(run.tries[run.tries.length - 1]!.lastEventAt);
  return [...verdicts].flatMap(([nodeId, vs]) =>
    vs.flatMap((v) => (v.valid ? [] : [{ nodeId, unitKey: v.key, reason: v.reason, source: "ingestion", runId, observedAt: at }])),
  );
}
