import type { Db } from "../db/client";
import { pairContext, runStatus, splitValid, type RunRequest, type RunResult } from "./execute-run";
import { loadExecutorLineage } from "./load-executor-lineage";
import { planRunPairs } from "./plan-run-pairs";
import { recordInvalidKeys } from "./record-invalid-keys";
import { runPair } from "./run-pair";
import { runWithConcurrency } from "./run-with-concurrency";

export type ExistingRunRequest = Omit<RunRequest, "pipelineId" | "kind" | "rootRunId" | "parentRunId" | "repairNumber" | "incidentId" | "nominalTime" | "codeVersion" | "triggeredBy"> & { runId: string };

/**
 * executeRun for a Run row that already exists: a repair's run is created in the same
 * transaction that takes its claims (so two overlapping launches cannot both start), and only
 * then executed here — same waves, concurrency, attempts and publishes as executeRun.
 */
export async function executeExistingRun(db: Db, req: ExistingRunRequest): Promise<RunResult> {
  const startedAt = req.clock({ phase: "run-start" });
  const lineage = req.lineage ?? (await loadExecutorLineage(db, startedAt));
  const { valid, rejected } = splitValid(lineage, req.pairs);
  await db.$transaction((tx) => tx.run.update({ where: { id: req.runId }, data: { status: "running", startedAt } }));
  await recordInvalidKeys(db, req.runId, rejected, req.invalidKeySource ?? "api", startedAt);
  const waves = planRunPairs(lineage, valid);
  const ctx = pairContext({ ...req, pipelineId: null, kind: "repair", triggeredBy: "" }, req.runId, lineage);
  for (const wave of waves) {
    const outcomes = await runWithConcurrency(wave, req.concurrency ?? 4, (pair) => runPair(db, ctx, pair));
    wave.forEach((pair, i) => ctx.outcomes.set(pair.key, outcomes[i]!));
  }
  const status = runStatus([...ctx.outcomes.values()], valid.length);
  const endedAt = req.clock({ phase: "run-end", waves: waves.length });
  await db.$transaction((tx) => tx.run.update({ where: { id: req.runId }, data: { status, endedAt } }));
  return { runId: req.runId, status, outcomes: ctx.outcomes, rejected, waves: waves.length };
}
