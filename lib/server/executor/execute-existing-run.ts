import { settlePair, type RecordedTry } from "@/lib/domain/resume-pairs";
import type { Db } from "../repositories/database";
import { attemptsOfRun, INTERRUPTED_ATTEMPT } from "../repositories/repair/repair-runs";
import { pairContext, runStatus, splitValid, type RunRequest, type RunResult } from "./execute-run";
import { loadExecutorLineage } from "./load-executor-lineage";
import { pairKey, planRunPairs, type PlannedPair } from "./plan-run-pairs";
import { recordInvalidKeys } from "./record-invalid-keys";
import { runPair, type PairOutcome } from "./run-pair";
import { runWithConcurrency } from "./run-with-concurrency";

export type ExistingRunRequest = Omit<
  RunRequest,
  "pipelineId" | "kind" | "rootRunId" | "parentRunId" | "repairNumber" | "incidentId" | "nominalTime" | "codeVersion" | "triggeredBy"
> & {
  runId: string;
  /** Start no pair after this instant (ms since the epoch): the slice ends and the run is continued later. */
  deadline?: number;
  /** Asked before each pair starts: false once another slice took the run over (this one then stops). */
  stillOwner?: () => Promise<boolean>;
  /** Run only these pairs (pair keys) now — one wave of the plan; the others wait for a later call. */
  only?: ReadonlySet<string>;
};

/**
 * `finished`: every pair is settled and `result.status` is the run's outcome, which the caller
 * records with the rest of the run's end in one transaction.
 */
export type SliceResult = { finished: true; result: RunResult } | { finished: false; done: number; total: number };

/**
 * Executes a Run row that already exists — a repair's run is created in the same transaction
 * that takes its claims — in slices: each call starts pairs, wave by wave in dependency order,
 * until `deadline`, and says whether the run is finished. A later call (on this instance or
 * another) continues from what the attempts of the run record, by lib/domain's settlePair: a
 * settled pair is not run again, an interrupted one goes on with the next try number (a
 * half-written append fails instead, and what reads it is blocked).
 */
export async function executeRunSlice(db: Db, req: ExistingRunRequest): Promise<SliceResult> {
  const startedAt = req.clock({ phase: "run-start" });
  const lineage = req.lineage ?? (await loadExecutorLineage(db, startedAt));
  const { valid, rejected } = splitValid(lineage, req.pairs);
  const waves = planRunPairs(lineage, valid);
  const ctx = pairContext({ ...req, pipelineId: null, kind: "repair", triggeredBy: "" }, req.runId, lineage);
  const nextTry = new Map<string, number>();
  const settled = settledPairs(await attemptsOfRun(db, req.runId), waves.flat(), nextTry);
  for (const [key, outcome] of settled) ctx.outcomes.set(key, outcome);
  const deadline = req.deadline ?? Infinity;
  let stop = false;
  let failure: unknown = null;
  for (const wave of waves) {
    const pending = wave.filter((p) => !ctx.outcomes.has(p.key) && (!req.only || req.only.has(p.key)));
    if (pending.length === 0) continue;
    if (Date.now() >= deadline) return { finished: false, done: ctx.outcomes.size, total: valid.length };
    // Every pair in flight is waited for, even after one threw: a slice never ends (and another
    // never starts) while a pair of it is still writing.
    const outcomes = await runWithConcurrency(pending, req.concurrency ?? 4, async (pair) => {
      if (stop || Date.now() >= deadline || (req.stillOwner && !(await req.stillOwner()))) return null;
      try {
        return await runPair(db, ctx, pair, nextTry.get(pair.key) ?? 1);
      } catch (e) {
        stop = true;
        failure ??= e;
        return null;
      }
    });
    pending.forEach((pair, i) => {
      if (outcomes[i]) ctx.outcomes.set(pair.key, outcomes[i]!);
    });
    if (failure) throw failure;
    if (outcomes.some((o) => o === null)) return { finished: false, done: ctx.outcomes.size, total: valid.length };
  }
  if (ctx.outcomes.size < valid.length) return { finished: false, done: ctx.outcomes.size, total: valid.length };
  const final = runStatus([...ctx.outcomes.values()], valid.length);
  return { finished: true, result: { runId: req.runId, status: final, outcomes: ctx.outcomes, rejected, waves: waves.length } };
}

/**
 * The pairs of a run whose keys the partition definitions reject, recorded as invalid keys
 * (seed 002): they are not run. Returns their pair keys.
 */
export async function recordRejectedPairs(
  db: Db,
  runId: string,
  pairs: readonly { taskNodeId: string; unitKey: string }[],
  at: Date,
  source = "api",
): Promise<Set<string>> {
  const lineage = await loadExecutorLineage(db, at);
  const { rejected } = splitValid(lineage, pairs);
  await recordInvalidKeys(db, runId, rejected, source, at);
  return new Set(rejected.map((r) => pairKey(r.nodeId, r.unitKey)));
}

/** The pairs of a run the local executor cannot run (rejected keys), without recording anything. */
export async function rejectedPairs(db: Db, pairs: readonly { taskNodeId: string; unitKey: string }[], at: Date): Promise<Map<string, string>> {
  const { rejected } = splitValid(await loadExecutorLineage(db, at), pairs);
  return new Map(rejected.map((r) => [pairKey(r.nodeId, r.unitKey), r.reason]));
}

/** What earlier slices settled, per pair (lib/domain settlePair); `nextTry` gets the try number each pair goes on with. */
function settledPairs(attempts: Awaited<ReturnType<typeof attemptsOfRun>>, pairs: PlannedPair[], nextTry: Map<string, number>): Map<string, PairOutcome> {
  const byPair = new Map<string, RecordedTry[]>();
  for (const a of attempts) {
    const key = pairKey(a.taskNodeId, a.unitKey);
    byPair.set(key, [
      ...(byPair.get(key) ?? []),
      { tryNumber: a.tryNumber, status: a.status, rowsWritten: a.rowsWritten, interrupted: (a.error ?? "").startsWith(INTERRUPTED_ATTEMPT) },
    ]);
  }
  const settled = new Map<string, PairOutcome>();
  for (const pair of pairs) {
    const verdict = settlePair(byPair.get(pair.key) ?? [], pair.task.writeMode);
    nextTry.set(pair.key, verdict.nextTry);
    if (verdict.settled) settled.set(pair.key, verdict.settled);
  }
  return settled;
}
