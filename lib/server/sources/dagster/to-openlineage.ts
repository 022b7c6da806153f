import crypto from "node:crypto";
import type { SourceAssetNode, SourceMaterialization, SourceRun, SourceStep, StepFailure } from "./dagster-answers";

/**
 * Dagster's records as the OpenLineage events Reparo's ingestion already folds into runs,
 * attempts and publishes (lib/server/ingestion): pure, and deterministic — the same Dagster run
 * always gives the same events, byte for byte, so a poll that reads a run again stores nothing
 * new (an event already stored is a duplicate). Per Dagster run:
 *
 *   the run        job <pipeline namespace>:<pipeline name> (the asset group), run id = Dagster's;
 *                  START at its start, COMPLETE / FAIL / ABORT at its end (SUCCESS / FAILURE / CANCELED)
 *   each step of   one run per (step, asset) of the pipeline — job <namespace>:<asset key joined
 *   one of its     by "/"> (the name the repair adapter turns back into the asset key), a run id
 *   assets         derived from Dagster's run id, step key and asset key, its parent and root the
 *                  Dagster run: START, then COMPLETE with what it materialized (the output's
 *                  partition keys in a subset facet; the row count from `dagster/partition_row_count`,
 *                  or `dagster/row_count` for an unpartitioned asset — else none: rows unknown) or
 *                  FAIL with Dagster's error (the innermost cause: the user code's own words);
 *                  a step left in progress by a run that ended ends with it (ABORT, FAIL).
 *                  A SKIPPED step never ran: nothing (its units stay missing, downstream of the
 *                  failed unit in the lineage). Inputs: the asset's dependencies, itself included.
 *
 * Which partitions a step wrote: its materializations' partitions; else the run's
 * `dagster/partition` tag; else its `dagster/asset_partition_range_start/end` tags resolved with
 * the asset's partition keys (`partitionKeysOf`). An unpartitioned asset names none.
 */

export interface PipelineRef {
  readonly namespace: string;
  readonly name: string;
}

export interface RunConversion {
  readonly pipeline: PipelineRef;
  /** The pipeline's assets (its asset group, plus the connection's mapped assets). */
  readonly assets: readonly SourceAssetNode[];
  readonly run: SourceRun;
  /** The run's step failures (logsForRun), for the error of each failed step. */
  readonly failures: readonly StepFailure[];
  /** An asset's partition keys in order (only asked for runs over a range of partitions); null: unknown. */
  readonly partitionKeysOf?: (assetKey: string) => readonly string[] | null;
}

/** An OpenLineage RunEvent as sent to /api/v1/lineage. */
export type OpenLineageRunEvent = Record<string, unknown> & { eventType: string; eventTime: string; run: { runId: string; facets: Record<string, unknown> } };

export const PRODUCER = "urn:reparo:source:dagster";
const SCHEMA = "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent";
const facet = (name: string, version: string) => ({
  _producer: PRODUCER,
  _schemaURL: `https://openlineage.io/spec/facets/${version}/${name}.json#/$defs/${name}`,
});

const PARTITION_TAG = "dagster/partition";
const RANGE_START_TAG = "dagster/asset_partition_range_start";
const RANGE_END_TAG = "dagster/asset_partition_range_end";
/** Error texts are cut here: the console shows them, the stack stays in Dagster. */
const ERROR_MAX = 4_000;

/** One key for an asset key's path (the node ids use the joined name). */
export const assetName = (path: readonly string[]): string => path.join("/");

export function runToEvents(c: RunConversion): OpenLineageRunEvent[] {
  const { run, pipeline } = c;
  const byName = new Map(c.assets.map((a) => [assetName(a.assetKey.path), a]));
  const steps = run.stepStats.flatMap((step) => assetsOfStep(step, c.assets, byName).map((asset) => ({ step, asset })));
  if (steps.length === 0 || run.startTime === null) return [];
  const root = { namespace: pipeline.namespace, name: pipeline.name };
  const events: OpenLineageRunEvent[] = [event("START", run.startTime, root, run.runId, {})];
  for (const { step, asset } of steps) events.push(...stepEvents(c, step, asset, root));
  const end = runEnd(run);
  if (end) events.push(event(end.type, run.endTime ?? run.updateTime ?? run.startTime, root, run.runId, end.facets));
  return events;
}

/** The pipeline's assets a step materializes: by its materializations, else by the ops of the asset nodes. */
function assetsOfStep(step: SourceStep, assets: readonly SourceAssetNode[], byName: Map<string, SourceAssetNode>): SourceAssetNode[] {
  const materialized = step.materializations.flatMap((m) => (m.assetKey ? [byName.get(assetName(m.assetKey.path))] : [])).filter((a) => a !== undefined);
  if (materialized.length > 0) return [...new Set(materialized)];
  return assets.filter((a) => a.opNames.includes(step.stepKey));
}

function runEnd(run: SourceRun): { type: string; facets: Record<string, unknown> } | null {
  switch (run.status) {
    case "SUCCESS":
      return { type: "COMPLETE", facets: {} };
    case "FAILURE":
      return { type: "FAIL", facets: {} };
    case "CANCELED":
      return { type: "ABORT", facets: {} };
    default:
      return null;
  }
}

function stepEvents(c: RunConversion, step: SourceStep, asset: SourceAssetNode, root: PipelineRef): OpenLineageRunEvent[] {
  if (step.status === "SKIPPED" || (step.startTime === null && step.status !== "FAILURE")) return [];
  const name = assetName(asset.assetKey.path);
  const job = { namespace: c.pipeline.namespace, name, facets: jobFacets(asset) };
  const runId = stepRunId(c.run.runId, step.stepKey, name);
  const parent = { ...facet("ParentRunFacet", "1-1-0"), job: root, run: { runId: c.run.runId }, root: { job: root, run: { runId: c.run.runId } } };
  const started = step.startTime ?? c.run.startTime!;
  const keys = partitionKeys(c, step, asset);
  const inputs = asset.dependencyKeys.map((d) => ({ namespace: c.pipeline.namespace, name: assetName(d.path) }));
  const output = (rowCount: number | null) => ({
    namespace: c.pipeline.namespace,
    name,
    outputFacets: {
      ...(keys.length > 0
        ? {
            subset: {
              ...facet("OutputSubsetOutputDatasetFacet", "1-0-0"),
              outputCondition: { type: "partition", partitions: keys.map((identifier) => ({ identifier })) },
            },
          }
        : {}),
      ...(rowCount !== null ? { outputStatistics: { ...facet("OutputStatisticsOutputDatasetFacet", "1-0-2"), rowCount } } : {}),
    },
  });
  const start = { ...event("START", started, job, runId, { parent }), inputs, outputs: [output(null)] };
  if (step.status === "SUCCESS") {
    const end = { ...event("COMPLETE", step.endTime ?? started, job, runId, { parent }), inputs, outputs: [output(rowCountOf(step, asset, keys))] };
    return [start, end];
  }
  if (step.status === "FAILURE") {
    const error = errorOf(c.failures, step.stepKey);
    const end = { ...event("FAIL", step.endTime ?? c.run.endTime ?? started, job, runId, { parent, errorMessage: error }), inputs, outputs: [output(null)] };
    return [start, end];
  }
  const cut = unfinished(c.run, step.stepKey);
  if (cut)
    return [
      start,
      { ...event(cut.type, c.run.endTime ?? c.run.updateTime ?? started, job, runId, { parent, errorMessage: cut.error }), inputs, outputs: [output(null)] },
    ];
  return [start];
}

/**
 * A step still in progress when its run has ended (the run was canceled, or its process died):
 * it will never finish, so it ends with the run — ABORT for a canceled run, else FAIL — rather
 * than stay running in Reparo for ever.
 */
function unfinished(run: SourceRun, stepKey: string): { type: "ABORT" | "FAIL"; error: Record<string, unknown> } | null {
  if (run.status !== "FAILURE" && run.status !== "CANCELED" && run.status !== "SUCCESS") return null;
  const message = `the Dagster run ${run.runId} ended ${run.status} before step ${stepKey} finished`;
  return { type: run.status === "CANCELED" ? "ABORT" : "FAIL", error: { ...facet("ErrorMessageRunFacet", "1-0-1"), message, programmingLanguage: "python" } };
}

function event(type: string, seconds: number, job: Record<string, unknown>, runId: string, facets: Record<string, unknown>): OpenLineageRunEvent {
  return { eventType: type, eventTime: isoOf(seconds), producer: PRODUCER, schemaURL: SCHEMA, job, run: { runId, facets }, inputs: [], outputs: [] };
}

function jobFacets(asset: SourceAssetNode): Record<string, unknown> {
  const owners = asset.owners.map((o) => ({ name: o.__typename === "TeamAssetOwner" ? `team:${o.team}` : o.email }));
  return {
    jobType: { ...facet("JobTypeJobFacet", "2-0-3"), processingType: "BATCH", integration: "DAGSTER", jobType: "ASSET" },
    ...(owners.length > 0 ? { ownership: { ...facet("OwnershipJobFacet", "1-0-1"), owners } } : {}),
  };
}

/** The partitions the step wrote (or was to write). */
function partitionKeys(c: RunConversion, step: SourceStep, asset: SourceAssetNode): string[] {
  if (!asset.isPartitioned) return [];
  const name = assetName(asset.assetKey.path);
  const materialized = step.materializations.filter((m) => m.assetKey && assetName(m.assetKey.path) === name && m.partition !== null).map((m) => m.partition!);
  if (materialized.length > 0) return [...new Set(materialized)];
  const tag = (key: string) => c.run.tags.find((t) => t.key === key)?.value;
  const single = tag(PARTITION_TAG);
  if (single !== undefined) return [single];
  const start = tag(RANGE_START_TAG);
  const end = tag(RANGE_END_TAG);
  const all = start !== undefined && end !== undefined ? c.partitionKeysOf?.(name) : null;
  if (!all) return [];
  const from = all.indexOf(start!);
  const to = all.indexOf(end!);
  return from >= 0 && to >= from ? all.slice(from, to + 1) : [];
}

/**
 * The rows the step wrote, when Dagster's metadata says: `dagster/partition_row_count` (rows of
 * the partition), or for an unpartitioned asset `dagster/row_count` (rows of the table, its one
 * unit). A count for several partitions at once cannot be split: unknown. Else unknown.
 */
export function rowCountOf(step: SourceStep, asset: SourceAssetNode, keys: readonly string[]): number | null {
  if (keys.length > 1) return null;
  const name = assetName(asset.assetKey.path);
  const mine = step.materializations.filter((m) => m.assetKey && assetName(m.assetKey.path) === name);
  if (mine.length !== 1) return null;
  const count = intEntry(mine[0]!, "dagster/partition_row_count") ?? (asset.isPartitioned ? null : intEntry(mine[0]!, "dagster/row_count"));
  return count;
}

function intEntry(m: SourceMaterialization, label: string): number | null {
  const entry = m.metadataEntries.find((e) => e.label === label && e.__typename === "IntMetadataEntry");
  const n = entry?.intRepr !== undefined ? Number(entry.intRepr) : Number.NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

/** The step's error: the innermost cause (the user code's exception), Dagster's wrapper as the trace. */
function errorOf(failures: readonly StepFailure[], stepKey: string): Record<string, unknown> {
  const failure = failures.filter((f) => f.stepKey === stepKey).at(-1);
  let error = failure?.error ?? null;
  while (error?.cause) error = error.cause;
  const message = (error?.message ?? failure?.message ?? `Dagster step ${stepKey} failed`).trim();
  const outer = failure?.error?.message.trim();
  return {
    ...facet("ErrorMessageRunFacet", "1-0-1"),
    message: message.slice(0, ERROR_MAX),
    programmingLanguage: "python",
    ...(outer && outer !== message ? { stackTrace: outer.slice(0, ERROR_MAX) } : {}),
  };
}

/** A UUID (version 8: derived, not random) for one (Dagster run, step, asset). */
export function stepRunId(runId: string, stepKey: string, asset: string): string {
  const hex = crypto
    .createHash("sha256")
    .update(JSON.stringify(["dagster", runId, stepKey, asset]))
    .digest("hex");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const isoOf = (seconds: number) => new Date(Math.round(seconds * 1000)).toISOString();
