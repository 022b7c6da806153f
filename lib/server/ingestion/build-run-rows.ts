import { UNPARTITIONED_KEY } from "@/lib/domain/partitions";
import type { DatasetHandle, TaskHandle } from "../repositories/lineage/catalog-writes";
import type { AttemptRow, InvalidKeyRow, PublishRow, RunRow } from "../repositories/ledger/ingested-runs";
import type { FoldedOutput, FoldedRun, FoldedTry } from "./fold-run-events";
import type { RunLineage } from "./lineage-history";
import type { UnitKeyResolver, UnitVerdict } from "./resolve-unit-keys";
import { runRowIdOf, stableId } from "./stable-id";

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
 * producer's run id alone). A completed try publishes each valid output unit once: the producer
 * said the run completed it. With the latest row count the run reported when the output names
 * that one unit; without one (dbt-ol's empty outputFacets, Airflow's SQL operators) or when one
 * event names several units of an output (a count cannot be split), rows unknown — present,
 * never missing, and not reconciled. An output whose lifecycleStateChange says the run only
 * changed the table's shape (DROP, ALTER, RENAME, or a CREATE that wrote no counted rows: Spark
 * reports a CREATE TABLE, a DROP, and a CTAS around its counted insert as jobs writing the
 * table) published no data; a TRUNCATE published it empty.
 */
export function buildRunRows(run: FoldedRun, ctx: RowContext): RunRows {
  const id = runRowIdOf(run);
  const tries = unitsOfTries(run, ctx);
  const attempts = tries.flatMap(({ t, tryNumber, verdicts }) => {
    const unitKeys = [...new Set([...verdicts.values()].flat().map((v) => v.key))];
    return (unitKeys.length > 0 ? unitKeys : [UNPARTITIONED_KEY]).map((unitKey) => attemptRow(run, t, tryNumber, id, ctx.task.id, unitKey, verdicts));
  });
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
    publishes: publishRows(run, id, ctx, tries, attempts),
    invalidKeys: [...invalidKeyRows(run, id, tries), ...invalidInputKeys(run, id, ctx)],
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

/** A try with the units its outputs name, and its try number for those units. */
interface TryUnits {
  t: FoldedTry;
  tryNumber: number;
  verdicts: Map<string, UnitVerdict[]>;
}

/**
 * Every try names the run's units — except a dbt microbatch model's, where each try is one batch
 * and names the unit its window starts in (FoldedTry.window): batch 2026-08-17 of a month is try 1
 * of unit 2026-08-17, not try 17 of every unit. A try whose window is unknown names the run's units.
 */
function unitsOfTries(run: FoldedRun, ctx: RowContext): TryUnits[] {
  const resolve = (hints: FoldedRun) =>
    new Map(run.outputs.map((o) => [o.nodeId, ctx.resolver.resolve(o.nodeId, ctx.datasets.get(o.nodeId)!.partitionDef, o.keys, hints)]));
  const whole = resolve(run);
  if (!run.tries.some((t) => t.window)) return run.tries.map((t) => ({ t, tryNumber: t.tryNumber, verdicts: whole }));
  const seen = new Map<string, number>();
  return run.tries.map((t) => {
    const verdicts = t.window ? resolve({ ...run, partitionKey: null, partitionDate: null, nominalStart: t.window.start }) : whole;
    const key = JSON.stringify([...verdicts.values()].flat().map((v) => v.key));
    const tryNumber = (seen.get(key) ?? 0) + 1;
    seen.set(key, tryNumber);
    return { t, tryNumber, verdicts };
  });
}

function runStatus(t: FoldedTry): string {
  if (t.terminal === "ABORT") return "cancelled";
  return t.status;
}

function attemptRow(
  run: FoldedRun,
  t: FoldedTry,
  tryNumber: number,
  runId: string,
  taskId: string,
  unitKey: string,
  verdicts: Map<string, UnitVerdict[]>,
): AttemptRow {
  return {
    id: stableId("olatt", runId, taskId, unitKey, tryNumber),
    runId,
    taskId,
    unitKey,
    tryNumber,
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

function publishRows(run: FoldedRun, runId: string, ctx: RowContext, tries: TryUnits[], attempts: AttemptRow[]): PublishRow[] {
  const inputVersion = run.inputs
    .filter((i) => i.version !== null)
    .map((i) => `${i.namespace}/${i.name}@${i.version}`)
    .sort()
    .join(",");
  const rows: PublishRow[] = [];
  // A test's outputs (a store-failures table) are not datasets to complete: it publishes nothing.
  if (run.isCheck) return rows;
  for (const { t, tryNumber, verdicts } of tries) {
    if (t.terminal !== "COMPLETE" || t.endedAt === null) continue;
    for (const o of run.outputs) {
      if (o.lifecycle !== null && SCHEMA_ONLY.has(o.lifecycle) && !(o.lifecycle === "CREATE" && o.rowCount !== null)) continue;
      const keys = verdicts.get(o.nodeId)!;
      const datasetId = ctx.datasets.get(o.nodeId)!.id;
      for (const unit of keys) {
        if (!unit.valid) continue;
        const attempt = attempts.find((a) => a.tryNumber === tryNumber && a.unitKey === unit.key)!;
        rows.push({
          id: stableId("olpub", attempt.id, datasetId, unit.key),
          datasetId,
          unitKey: unit.key,
          runId,
          attemptId: attempt.id,
          publishedAt: new Date(t.endedAt),
          inputVersion,
          codeVersion: run.codeVersion,
          rowCount: keys.length === 1 ? (o.rowCount ?? (o.lifecycle === "TRUNCATE" ? 0 : null)) : null,
        });
      }
    }
  }
  return rows;
}

const SCHEMA_ONLY = new Set(["CREATE", "DROP", "ALTER", "RENAME"]);

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

function invalidKeyRows(run: FoldedRun, runId: string, tries: TryUnits[]): InvalidKeyRow[] {
  const at = new Date(run.tries[run.tries.length - 1]!.lastEventAt);
  const rows = new Map<string, InvalidKeyRow>();
  for (const { verdicts } of tries)
    for (const [nodeId, vs] of verdicts)
      for (const v of vs)
        if (!v.valid) rows.set(JSON.stringify([nodeId, v.key]), { nodeId, unitKey: v.key, reason: v.reason, source: "ingestion", runId, observedAt: at });
  return [...rows.values()];
}
