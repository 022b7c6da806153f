import { compositeKey } from "@/lib/domain/composite-key";
import type { Db, Tx } from "../repositories/database";
import { countRunsStartedAfter, pipelineRunFacts } from "../repositories/pipelines/pipeline-runs";
import { attemptsOfRun } from "../repositories/repair/repair-runs";
import type { DbtRetrySource } from "./dbt";

/** What `dbt retry` would re-run of an invocation: its failed and skipped (model, unit) pairs; null when none. */
export function retrySourceOf(invocation: string, attempts: readonly { taskNodeId: string; unitKey: string; status: string }[]): DbtRetrySource | null {
  const pairs = attempts.filter((a) => a.status !== "succeeded").map((a) => compositeKey(a.taskNodeId, a.unitKey));
  return pairs.length === 0 ? null : { invocation, pairs: [...new Set(pairs)] };
}

/**
 * The failed run of a dbt pipeline as `dbt retry` would take it up: its invocation id and its
 * failed and skipped (model, unit) pairs. Null unless it is this pipeline's run and still its
 * latest — `dbt retry` retries the last invocation in the project's target/, so once anything ran
 * since (a repair's own `dbt build`, a scheduled run) it would retry that instead.
 */
export async function dbtRetrySourceOf(db: Db | Tx, pipelineId: string, failedRunId: string | null): Promise<DbtRetrySource | null> {
  if (!failedRunId) return null;
  const run = await pipelineRunFacts(db, failedRunId);
  if (!run || run.pipelineId !== pipelineId || !run.externalId || !run.startedAt) return null;
  // Reparo's own repair runs invoke nothing in dbt; what dbt ran since is ingested as runs of its own.
  if ((await countRunsStartedAfter(db, pipelineId, run.startedAt, { runId: failedRunId, kind: "repair" })) > 0) return null;
  return retrySourceOf(run.externalId, await attemptsOfRun(db, failedRunId));
}
