import type { RunKind } from "@/lib/domain/unit-state";
import { inTransaction, type Db } from "../repositories/database";
import { createExecutorRun, finishExecutorRun } from "../repositories/ledger/executor-runs";
import type { ExecutorLineage } from "./executor-lineage";
import { loadExecutorLineage } from "./load-executor-lineage";
import { pairKey, planRunPairs } from "./plan-run-pairs";
import { recordInvalidKeys, type RejectedKey } from "./record-invalid-keys";
import { runPair, type PairContext, type PairOutcome } from "./run-pair";
import { runWithConcurrency } from "./run-with-concurrency";
import { taskCodeFor } from "./task-code/registry";
import type { Clock, ExternalInputPolicy, FailureInjection, RetryPolicy, TaskCode } from "./types";

export interface RunRequest {
  pipelineId: string | null;
  kind: RunKind;
  pairs: readonly { taskNodeId: string; unitKey: string }[];
  triggeredBy: string;
  clock: Clock;
  nominalTime?: Date;
  parameters?: Record<string, unknown>;
  codeVersion?: string;
  rootRunId?: string;
  parentRunId?: string;
  repairNumber?: number;
  incidentId?: string;
  /** Pairs running at once (default 4). */
  concurrency?: number;
  /** Automatic retries per task node id; tasks not listed get one try. */
  retries?: Readonly<Record<string, RetryPolicy>>;
  /** Overrides a task code's declared write atomicity, per task node id. */
  atomic?: Readonly<Record<string, boolean>>;
  failures?: (taskNodeId: string, unitKey: string, tryNumber: number) => FailureInjection | undefined;
  externalInputs?: ExternalInputPolicy;
  idempotencyKey?: (taskNodeId: string, unitKey: string) => string | undefined;
  /** Where rejected keys are said to come from in the InvalidKey table (default "api"). */
  invalidKeySource?: string;
  lineage?: ExecutorLineage;
  taskCode?: (taskNodeId: string) => TaskCode;
}

export interface RunResult {
  runId: string;
  status: "succeeded" | "partial" | "failed" | "cancelled";
  outcomes: ReadonlyMap<string, PairOutcome>;
  rejected: RejectedKey[];
  waves: number;
}

/**
 * Executes (task, unit) pairs as one Run: rejects keys the partition definitions do not accept
 * (recorded as invalid keys, seed 002), runs the rest wave by wave in dependency order with a
 * concurrency limit and each task's retry policy, and records the run's outcome.
 * Status: succeeded when every pair did, failed when none did, partial in between, cancelled
 * when every requested key was rejected.
 */
export async function executeRun(db: Db, req: RunRequest): Promise<RunResult> {
  const startedAt = req.clock({ phase: "run-start" });
  const lineage = req.lineage ?? (await loadExecutorLineage(db, startedAt));
  const { valid, rejected } = splitValid(lineage, req.pairs);
  const run = await inTransaction(db, (tx) =>
    createExecutorRun(tx, {
      pipelineId: req.pipelineId,
      kind: req.kind,
      rootRunId: req.rootRunId ?? null,
      parentRunId: req.parentRunId ?? null,
      repairNumber: req.repairNumber ?? 0,
      incidentId: req.incidentId ?? null,
      parameters: runParameters(req),
      codeVersion: req.codeVersion ?? "",
      triggeredBy: req.triggeredBy,
      nominalTime: req.nominalTime ?? null,
      startedAt,
    }),
  );
  await recordInvalidKeys(db, run.id, rejected, req.invalidKeySource ?? "api", startedAt);
  const waves = planRunPairs(lineage, valid);
  const ctx = pairContext(req, run.id, lineage);
  for (const wave of waves) {
    const outcomes = await runWithConcurrency(wave, req.concurrency ?? 4, (pair) => runPair(db, ctx, pair));
    wave.forEach((pair, i) => ctx.outcomes.set(pair.key, outcomes[i]!));
  }
  const status = runStatus([...ctx.outcomes.values()], valid.length);
  const endedAt = req.clock({ phase: "run-end", waves: waves.length });
  await inTransaction(db, (tx) => finishExecutorRun(tx, run.id, status, endedAt));
  return { runId: run.id, status, outcomes: ctx.outcomes, rejected, waves: waves.length };
}

export function splitValid(lineage: ExecutorLineage, pairs: RunRequest["pairs"]) {
  const valid: { taskNodeId: string; unitKey: string }[] = [];
  const rejected: RejectedKey[] = [];
  const seen = new Set<string>();
  for (const p of pairs) {
    const task = lineage.tasks.get(p.taskNodeId);
    if (!task) throw new Error(`unknown task ${p.taskNodeId}: no such task writes a dataset in the lineage`);
    const verdict = task.space.validate(p.unitKey);
    if (!verdict.valid) rejected.push({ nodeId: p.taskNodeId, unitKey: p.unitKey, reason: verdict.reason });
    else if (!seen.has(pairKey(p.taskNodeId, verdict.key))) {
      seen.add(pairKey(p.taskNodeId, verdict.key));
      valid.push({ taskNodeId: p.taskNodeId, unitKey: verdict.key });
    }
  }
  return { valid, rejected };
}

function runParameters(req: RunRequest): Record<string, unknown> {
  return { ...req.parameters, externalInputs: req.externalInputs ?? "require_published", requested: req.pairs.length };
}

export function pairContext(req: RunRequest, runId: string, lineage: ExecutorLineage): PairContext {
  return {
    runId,
    clock: req.clock,
    datasets: lineage.datasets,
    codeFor: req.taskCode ?? taskCodeFor,
    maxTries: (nodeId) => req.retries?.[nodeId]?.maxTries ?? 1,
    atomic: (nodeId, code) => req.atomic?.[nodeId] ?? code.atomicWrite,
    failure: (nodeId, unitKey, tryNumber) => req.failures?.(nodeId, unitKey, tryNumber),
    externalInputs: req.externalInputs ?? "require_published",
    parameters: req.parameters ?? {},
    idempotencyKey: req.idempotencyKey,
    outcomes: new Map(),
  };
}

export function runStatus(outcomes: PairOutcome[], planned: number): RunResult["status"] {
  if (planned === 0) return "cancelled";
  const ok = outcomes.filter((o) => o === "succeeded").length;
  return ok === outcomes.length ? "succeeded" : ok === 0 ? "failed" : "partial";
}
