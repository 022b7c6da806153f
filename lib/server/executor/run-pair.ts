import { compositeKey, partsOf } from "@/lib/domain/composite-key";
import type { Db } from "../repositories/database";
import { publishCounts } from "../repositories/ledger/executor-runs";
import type { ExecutorDataset } from "./executor-lineage";
import type { PlannedPair } from "./plan-run-pairs";
import { recordBlockedAttempt } from "./record-blocked-attempt";
import { runTaskAttempt } from "./run-task-attempt";
import type { Clock, ExternalInputPolicy, FailureInjection, TaskCode } from "./types";

export type PairOutcome = "succeeded" | "failed" | "upstream_failed";

export interface PairContext {
  runId: string;
  clock: Clock;
  datasets: ReadonlyMap<string, ExecutorDataset>;
  codeFor(taskNodeId: string): TaskCode;
  maxTries(taskNodeId: string): number;
  atomic(taskNodeId: string, code: TaskCode): boolean;
  failure(taskNodeId: string, unitKey: string, tryNumber: number): FailureInjection | undefined;
  externalInputs: ExternalInputPolicy;
  parameters: Readonly<Record<string, unknown>>;
  idempotencyKey?: (taskNodeId: string, unitKey: string) => string | undefined;
  outcomes: Map<string, PairOutcome>;
}

/**
 * One (task, unit) of a run: blocked if a pair it reads from failed (or, when the run waits for
 * publishes, if an input from outside the run is not in the ledger); otherwise tried until it
 * succeeds or the task's retry policy is exhausted. A pair continued after its process died goes
 * on from `firstTry` (try numbers are unique per run).
 */
export async function runPair(db: Db, ctx: PairContext, pair: PlannedPair, firstTry = 1): Promise<PairOutcome> {
  const blockedBy = pair.dependsOn.filter((k) => ctx.outcomes.get(k) !== "succeeded").map((k) => partsOf(k).join(" "));
  if (blockedBy.length === 0 && ctx.externalInputs === "require_published") blockedBy.push(...(await unpublishedInputs(db, pair)));
  if (blockedBy.length > 0) {
    await recordBlockedAttempt(db, ctx.runId, pair, `upstream not available: ${blockedBy.join(", ")}`, ctx.clock, firstTry);
    return "upstream_failed";
  }
  const code = ctx.codeFor(pair.task.nodeId);
  const tries = Math.max(1, ctx.maxTries(pair.task.nodeId));
  for (let tryNumber = firstTry; tryNumber < firstTry + tries; tryNumber++) {
    const result = await runTaskAttempt(db, {
      runId: ctx.runId,
      task: pair.task,
      code,
      unitKey: pair.unitKey,
      tryNumber,
      wave: pair.wave,
      reads: pair.reads,
      failure: ctx.failure(pair.task.nodeId, pair.unitKey, tryNumber),
      atomic: ctx.atomic(pair.task.nodeId, code),
      parameters: ctx.parameters,
      clock: ctx.clock,
      datasets: ctx.datasets,
      idempotencyKey: ctx.idempotencyKey?.(pair.task.nodeId, pair.unitKey),
    });
    if (result.status === "succeeded") return "succeeded";
  }
  return "failed";
}

/** Inputs produced outside the run with no publish in the ledger, as "dataset unit". */
async function unpublishedInputs(db: Db, pair: PlannedPair): Promise<string[]> {
  if (pair.external.length === 0) return [];
  const have = await publishCounts(
    db,
    pair.external.map((e) => ({ datasetId: e.datasetId, unitKeys: e.unitKeys })),
  );
  return pair.external.flatMap((e) => e.unitKeys.filter((k) => !have.has(compositeKey(e.datasetId, k))).map((k) => `${e.datasetNodeId} ${k}`));
}
