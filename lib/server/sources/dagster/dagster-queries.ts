/**
 * What the Dagster source asks Dagster's webserver (POST {baseUrl}/graphql): pure request
 * builders, each checked against Dagster 1.13.27's own schema by graphql-js in the tests
 * (test/fixtures/peers/dagster/schema-1.13.27.graphql). The answers are read with the zod
 * schemas of dagster-answers.ts.
 *
 *   assets        every asset node: its key, group, ops, partitioning, dependencies and owners —
 *                 a pipeline's assets are its Dagster asset group (the pipeline's name)
 *   runs          runs changed since the cursor (RunsFilter.updatedAfter), newest first, a page at
 *                 a time, each with its steps and their materializations (partition, metadata)
 *   failures      a failed run's step failures (logsForRun: ExecutionStepFailureEvent, with the
 *                 error and its cause — Dagster's own message only wraps the user's)
 *   partitionKeys the partition keys of assets a run materialized as a range of partitions
 */

export const SOURCE_ASSETS_QUERY = `query ReparoSourceAssets {
  assetNodes {
    assetKey { path }
    groupName
    opNames
    isPartitioned
    dependencyKeys { path }
    owners { __typename ... on TeamAssetOwner { team } ... on UserAssetOwner { email } }
  }
}`;

export const SOURCE_RUNS_QUERY = `query ReparoSourceRuns($filter: RunsFilter, $cursor: String, $limit: Int) {
  runsOrError(filter: $filter, cursor: $cursor, limit: $limit) {
    __typename
    ... on Runs {
      results {
        runId status jobName creationTime startTime endTime updateTime
        tags { key value }
        assetSelection { path }
        stepStats {
          stepKey status startTime endTime
          materializations {
            assetKey { path } partition timestamp
            metadataEntries { __typename label ... on IntMetadataEntry { intRepr } }
          }
        }
      }
    }
    ... on InvalidPipelineRunsFilterError { message }
    ... on PythonError { message }
  }
}`;

export const SOURCE_RUN_FAILURES_QUERY = `query ReparoSourceRunFailures($runId: ID!, $afterCursor: String, $limit: Int) {
  logsForRun(runId: $runId, afterCursor: $afterCursor, limit: $limit) {
    __typename
    ... on EventConnection {
      cursor hasMore
      events {
        __typename
        ... on ExecutionStepFailureEvent {
          stepKey timestamp message
          error { message className cause { message className cause { message className } } }
        }
      }
    }
    ... on RunNotFoundError { message }
    ... on PythonError { message }
  }
}`;

export const SOURCE_PARTITION_KEYS_QUERY = `query ReparoSourcePartitionKeys($assetKeys: [AssetKeyInput!]!) {
  assetNodes(assetKeys: $assetKeys) { assetKey { path } partitionKeys }
}`;

/** Runs per page, and pages per poll: a longer backlog is read on over the next polls (the cursor's `page`). */
export const RUNS_PAGE = 50;
export const MAX_PAGES = 10;
/** Events per page of a failed run's log, and pages read at most (a run's failures come early in its log). */
export const LOG_PAGE = 1_000;
export const MAX_LOG_PAGES = 20;

/**
 * Runs Dagster changed after `after` (all, when null), a page after the run id `page` (Dagster
 * pages newest-created first; the first page when null). E.g. (1796427000.5, "8fc457b7-…") →
 * { filter: { updatedAfter: 1796427000.5 }, limit: 50, cursor: "8fc457b7-…" }.
 */
export function runsVariables(after: number | null, page: string | null): Record<string, unknown> {
  return { filter: after === null ? {} : { updatedAfter: after }, limit: RUNS_PAGE, ...(page !== null ? { cursor: page } : {}) };
}
