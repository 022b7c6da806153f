import type { Db } from "../db/client";
import { appendAudit } from "../audit/append-audit";
import { executeRunSlice } from "../executor/execute-existing-run";
import type { TaskCode } from "../executor/types";
import { SLICE_SECONDS } from "../jobs/job-queue";
import { transitionIncident } from "../repositories/incidents";
import { releaseClaims } from "../repositories/repair-claims";
import { attemptsOfRun, failOrphanedAttempts, findRepairRun, finishRunStatus, heartbeat, setRunOwner, type RepairRunRecord } from "../repositories/repair-runs";
import { HEARTBEAT_MS, markLive, thisOwner } from "./repair-owner";
import { log } from "../observability/log";

export interface RunRepairOptions {
  /** The executor's task-code lookup (the registry by default). */
  taskCode?: (taskNodeId: string) => TaskCode;
  /** How long one slice may start pairs (SLICE_SECONDS by default). */
  sliceMs?: number;
  /** The queue job running this slice (recorded with the owner, so a watchdog can give it up). */
  jobId?: string;
}

export type SliceOutcome = { state: "finished"; status: string } | { state: "continue" } | { state: "gone" };

/**
 * One slice of a launched repair run: the `repair-run` job's work. The slice takes the run
 * (owner, heartbeat), runs pairs with the local executor in dependency order for up to
 * SLICE_SECONDS, heartbeating, and either finishes the run — claims released, the incident on to
 * validation, the outcome audited, in one transaction — or releases it to be continued by the
 * next slice, on this instance or any other.
 *
 * A slice that finds the run still owned found a slice that never ended: its instance died (the
 * job library expired that job and handed the run on). It takes the run over from its exact
 * progress: the dead slice's unfinished attempts are failed with the rows they really wrote,
 * audited as `repair.taken_over`, and the pairs not yet done go on; nothing already published
 * runs again.
 */
export async function runRepairSlice(runId: string, db: Db, options: RunRepairOptions = {}): Promise<SliceOutcome> {
  const run = await findRepairRun(db, runId);
  if (!run || (run.status !== "queued" && run.status !== "running")) return { state: "gone" };
  await takeRun(db, run, options.jobId);
  markLive(runId, true);
  const beat = setInterval(() => void heartbeat(db, runId, Date.now()).catch(() => undefined), HEARTBEAT_MS);
  beat.unref();
  let outcome: SliceOutcome;
  try {
    const slice = await executeRunSlice(db, {
      runId, pairs: run.params.pairs.map(([taskNodeId, unitKey]) => ({ taskNodeId, unitKey })), clock: () => new Date(),
      concurrency: run.params.concurrency, parameters: run.params.parameterOverrides, taskCode: options.taskCode,
      idempotencyKey: (task) => run.params.idempotencyKeys[task], deadline: Date.now() + (options.sliceMs ?? SLICE_SECONDS * 1000),
    }, { first: run.status === "queued" });
    outcome = slice.finished ? { state: "finished", status: slice.result.status } : { state: "continue" };
  } catch (e) {
    log.error(`repair run ${runId} stopped: ${(e as Error).message}`);
    await db.$transaction((tx) => finishRunStatus(tx, runId, "failed", new Date()));
    outcome = { state: "finished", status: "failed" };
  } finally {
    clearInterval(beat);
    markLive(runId, false);
  }
  if (outcome.state === "finished") await finishRepair(db, runId, outcome.status);
  else await db.$transaction((tx) => setRunOwner(tx, runId, null, Date.now()));
  return outcome;
}

/** Owns the run for this slice; a run still owned by a slice that never ended is taken over. */
async function takeRun(db: Db, run: RepairRunRecord, jobId: string | undefined): Promise<void> {
  const now = new Date();
  const previous = run.params.owner;
  await db.$transaction(async (tx) => {
    if (previous && run.status === "running") {
      const abandoned = await failOrphanedAttempts(tx, run.id, now);
      const done = (await attemptsOfRun(tx, run.id)).filter((a) => a.status === "succeeded").length;
      await appendAudit(tx, {
        kind: "repair.taken_over", actor: run.params.launchedBy.id, actorRole: run.params.launchedBy.role,
        reason: `repair #${run.repairNumber} was left running by console ${previous.host} (pid ${previous.pid}), which stopped: continued from its progress, ${done} of ${run.params.pairs.length} pairs done`,
        incidentId: run.incidentId, before: { owner: describeOwner(previous) },
        after: { owner: describeOwner(thisOwner()), done, remaining: run.params.pairs.length - done, abandonedAttempts: abandoned },
      }, now);
    }
    await setRunOwner(tx, run.id, { ...thisOwner(), ...(jobId ? { job: jobId } : {}) }, now.getTime());
  }, { timeout: 30_000, maxWait: 30_000 });
}

const describeOwner = (o: { host: string; pid: number; instance: string }) => `${o.host} pid ${o.pid} (instance ${o.instance})`;

async function finishRepair(db: Db, runId: string, status: string): Promise<void> {
  const run = (await findRepairRun(db, runId))!;
  const attempts = await attemptsOfRun(db, runId);
  const latest = new Map(attempts.map((a) => [`${a.taskNodeId}\u0000${a.unitKey}`, a.status]));
  const count = (s: string) => [...latest.values()].filter((x) => x === s).length;
  await db.$transaction(async (tx) => {
    await setRunOwner(tx, runId, null, Date.now());
    await releaseClaims(tx, runId);
    if (run.incidentId) await transitionIncident(tx, run.incidentId, ["repairing"], "validating");
    await appendAudit(tx, {
      kind: "repair.finished", actor: run.params.launchedBy.id, actorRole: run.params.launchedBy.role, reason: `repair #${run.repairNumber} ended: ${status}`,
      incidentId: run.incidentId, before: { runStatus: "running" },
      after: { runStatus: status, succeeded: count("succeeded"), failed: count("failed"), blocked: count("upstream_failed") },
    });
  });
}

/**
 * Runs a launched repair to its end in this process, slice after slice: what the `repair-run`
 * job chain does across instances, for the CLI, tests and a console without background workers.
 */
export async function runRepairToEnd(runId: string, db: Db, options: RunRepairOptions = {}): Promise<string> {
  for (;;) {
    const outcome = await runRepairSlice(runId, db, options);
    if (outcome.state === "finished") return outcome.status;
    if (outcome.state === "gone") return (await findRepairRun(db, runId))?.status ?? "gone";
  }
}
