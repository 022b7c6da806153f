import type { z } from "zod";
import type { DagsterConnection } from "@/lib/contracts/orchestrators";
import type { DagsterCursor } from "../../repositories/sources/source-cursors";
import type { PipelineRecord } from "../../repositories/pipelines/orchestrator-connections";
import { dagsterTransport } from "../../orchestrators/dagster-transport";
import { OrchestratorError, type OrchestratorCall } from "../../orchestrators/port";
import {
  PartitionKeysAnswerSchema,
  RunFailuresAnswerSchema,
  SourceAssetsAnswerSchema,
  SourceRunsAnswerSchema,
  type SourceAssetNode,
  type SourceRun,
  type StepFailure,
} from "./dagster-answers";
import {
  LOG_PAGE,
  MAX_LOG_PAGES,
  MAX_PAGES,
  RUNS_PAGE,
  runsVariables,
  SOURCE_ASSETS_QUERY,
  SOURCE_PARTITION_KEYS_QUERY,
  SOURCE_RUN_FAILURES_QUERY,
  SOURCE_RUNS_QUERY,
} from "./dagster-queries";
import type { RunsRead } from "./dagster-cursor";
import { assetName } from "./to-openlineage";

/** Runs changed this close before the cursor are read again: a re-read stores nothing, a missed run would be lost. */
const OVERLAP_SECONDS = 1;

export interface DagsterRead extends RunsRead {
  /** The pipeline's assets: its asset group's, and the connection's mapped ones. */
  readonly assets: SourceAssetNode[];
  /** The pipeline's runs among those read, oldest first. */
  readonly runs: SourceRun[];
  readonly runsRead: number;
  readonly failures: Map<string, StepFailure[]>;
  readonly partitionKeys: Map<string, readonly string[]>;
}

/**
 * Everything one poll reads of a pipeline's Dagster, every answer checked (dagster-answers.ts)
 * as it comes: the assets, the runs changed since the cursor (a page at a time, from the
 * cursor's page), the step failures of the pipeline's failed runs, and the partition keys of
 * assets a run wrote as a range. Each call is added to `calls` (the poll logs them).
 */
export async function readDagster(
  connection: DagsterConnection,
  pipeline: PipelineRecord,
  cursor: DagsterCursor,
  calls: OrchestratorCall[],
  clock: () => number,
): Promise<DagsterRead> {
  const { graphql } = dagsterTransport(connection);
  const startedAt = clock();
  const assetsAnswer = await graphql(SOURCE_ASSETS_QUERY, {}, "reading Dagster's assets", { check: SourceAssetsAnswerSchema });
  calls.push({ ...assetsAnswer.call, ids: { assets: assetsAnswer.data.assetNodes.length } });
  const mapped = new Set(Object.values(connection.assets));
  const assets = assetsAnswer.data.assetNodes.filter((a) => a.groupName === pipeline.name || mapped.has(assetName(a.assetKey.path)));
  if (assets.length === 0)
    throw new Error(`Dagster has no asset group named ${pipeline.name} (the pipeline's name) and none of the connection's assets: nothing of it can be read`);

  const after = cursor.after === null ? null : cursor.after - OVERLAP_SECONDS;
  const read: SourceRun[] = [];
  let exhausted = false;
  let page = cursor.page;
  for (let n = 0; n < MAX_PAGES && !exhausted; n++) {
    const { data, call } = await runsPage(graphql, after, page);
    const answer = data.runsOrError;
    if (answer.__typename !== "Runs")
      throw new OrchestratorError(`reading Dagster's runs: ${answer.__typename}: ${answer.message}`, { ...call, error: answer.message });
    calls.push({ ...call, ids: { runs: answer.results.map((r) => r.runId) } });
    read.push(...answer.results);
    exhausted = answer.results.length < RUNS_PAGE;
    page = answer.results.at(-1)?.runId ?? page;
  }
  const endedAt = clock();
  const names = new Set(assets.map((a) => assetName(a.assetKey.path)));
  const ops = new Set(assets.flatMap((a) => a.opNames));
  const runs = read
    .filter((r) => r.stepStats.some((s) => ops.has(s.stepKey) || s.materializations.some((m) => m.assetKey && names.has(assetName(m.assetKey.path)))))
    .sort((a, b) => a.creationTime - b.creationTime || a.runId.localeCompare(b.runId));
  const failures = new Map<string, StepFailure[]>();
  for (const run of runs) if (run.stepStats.some((s) => s.status === "FAILURE")) failures.set(run.runId, await stepFailures(graphql, run.runId, calls));
  return {
    assets,
    runs,
    runsRead: read.length,
    updateTimes: read.map((r) => r.updateTime ?? r.endTime ?? r.creationTime),
    lastRunId: read.at(-1)?.runId ?? null,
    exhausted,
    startedAt,
    endedAt,
    failures,
    partitionKeys: await rangeKeys(graphql, runs, assets, calls),
  };
}

type Graphql = ReturnType<typeof dagsterTransport>["graphql"];
type Answer<T> = Promise<{ data: T; call: OrchestratorCall }>;

const runsPage = (graphql: Graphql, after: number | null, page: string | null): Answer<z.infer<typeof SourceRunsAnswerSchema>> =>
  graphql(SOURCE_RUNS_QUERY, runsVariables(after, page), "reading Dagster's runs", { check: SourceRunsAnswerSchema });

const failuresPage = (graphql: Graphql, runId: string, afterCursor: string | null): Answer<z.infer<typeof RunFailuresAnswerSchema>> =>
  graphql(
    SOURCE_RUN_FAILURES_QUERY,
    { runId, limit: LOG_PAGE, ...(afterCursor !== null ? { afterCursor } : {}) },
    `reading the failures of Dagster run ${runId}`,
    {
      check: RunFailuresAnswerSchema,
    },
  );

/** A failed run's step failures, from its event log (a page at a time). */
async function stepFailures(graphql: Graphql, runId: string, calls: OrchestratorCall[]): Promise<StepFailure[]> {
  const out: StepFailure[] = [];
  let afterCursor: string | null = null;
  for (let page = 0; page < MAX_LOG_PAGES; page++) {
    const { data, call } = await failuresPage(graphql, runId, afterCursor);
    const answer = data.logsForRun;
    if (answer.__typename !== "EventConnection")
      throw new OrchestratorError(`reading the failures of Dagster run ${runId}: ${answer.__typename}: ${answer.message}`, { ...call, error: answer.message });
    calls.push({ ...call, ids: { runId } });
    out.push(...answer.events.filter((e): e is StepFailure => e.__typename === "ExecutionStepFailureEvent"));
    if (!answer.hasMore) break;
    afterCursor = answer.cursor;
  }
  return out;
}

/** The partition keys of the assets a run over a range of partitions wrote (asked only then). */
async function rangeKeys(graphql: Graphql, runs: SourceRun[], assets: SourceAssetNode[], calls: OrchestratorCall[]): Promise<Map<string, readonly string[]>> {
  const ranged = runs.some((r) => r.tags.some((t) => t.key === "dagster/asset_partition_range_start") && !r.tags.some((t) => t.key === "dagster/partition"));
  const partitioned = assets.filter((a) => a.isPartitioned);
  if (!ranged || partitioned.length === 0) return new Map();
  const { data, call } = await graphql(
    SOURCE_PARTITION_KEYS_QUERY,
    { assetKeys: partitioned.map((a) => ({ path: a.assetKey.path })) },
    "reading Dagster's partition keys",
    {
      check: PartitionKeysAnswerSchema,
    },
  );
  calls.push(call);
  return new Map(data.assetNodes.map((n) => [assetName(n.assetKey.path), n.partitionKeys]));
}
