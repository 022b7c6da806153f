import crypto from "node:crypto";
import type { Db } from "../db/client";
import { appendAudit } from "../audit/append-audit";
import { executeRunSlice } from "../executor/execute-existing-run";
import type { TaskCode } from "../executor/types";
import { SLICE_SECONDS } from "../jobs/job-queue";
import { log } from "../observability/log";
import { transitionIncident } from "../repositories/incidents";
import { releaseClaims } from "../repositories/repair-claims";
import { attemptsOfRun, failOrphanedAttempts, findRepairRun, finishRunStatus, heartbeat, lockRun, ownsRun, setRunOwner, type RepairRunParams } from "../repositories/repair-runs";
import { HEARTBEAT_MS, markLive, ownerAlive, thisOwner } from "./repair-owner";

export interface RunRepairOptions {
  /** The executor's task-code lookup (the registry by default). */
  taskCode?: (taskNodeId: string) => TaskCode;
  /** How long one slice may start pairs (SLICE_SECONDS by default). */
  sliceMs?: number;
  /** The queue job running this slice (recorded with the owner, so a watchdog can give it up). */
  jobId?: string;
}

export type SliceOutcome = { state: "finished"; status: string } | { state: "continue" } | { state: "gone" } | { state: "busy" };

/** A run fails after this many slices in a row stopped on an unexpected error. */
const MAX_FAILED_SLICES = 3;

/**
 * One slice of a launched repair run: the `repair-run` job's work. The slice takes the run —
 * a lease: owner and heartbeat, taken under the run's row lock — runs pairs with the local
 * executor in dependency order for up to SLICE_SECONDS (checking before each pair that it still
 * owns the run), heartbeating, and either finishes the run (status, claims released, the incident
 * on to validation, the outcome audited: one transaction) or releases it to the next slice, on
 * this instance or any other.
 *
 * A run still owned by a live slice (fresh heartbeat, or its pid alive on this host) is left to
 * it: `busy` — so a job the queue retried while its first execution still runs cannot run the
 * same pairs twice. A run owned by a slice that is gone is taken over from its exact progress:
 * the dead slice's unfinished attempts are failed with the rows they really wrote, audited as
 * `repair.taken_over`, and the pairs not yet done go on; nothing already published runs again.
 * An unexpected error releases the run to be tried again; the third in a row fails it.
 */
export async function runRepairSlice(runId: string, db: Db, options: RunRepairOptions = {}): Promise<SliceOutcome> {
  const slice = crypto.randomUUID();
  const taken = await takeRun(db, runId, { ...thisOwner(), ...(options.jobId ? { job: options.jobId } : {}), slice });
  if (taken.state !== "taken") return taken;
  const run = taken.run;
  markLive(runId, true);
  let beating: Promise<void> = Promise.resolve();
  const beat = setInterval(() => {
    beating = heartbeat(db, runId, slice, Date.now()).catch(() => undefined);
  }, HEARTBEAT_MS);
  beat.unref();
  try {
    const result = await executeRunSlice(db, {
      runId, pairs: run.params.pairs.map(([taskNodeId, unitKey]) => ({ taskNodeId, unitKey })), clock: () => new Date(),
      concurrency: run.params.concurrency, parameters: run.params.parameterOverrides, taskCode: options.taskCode,
      idempotencyKey: (task) => run.params.idempotencyKeys[task], deadline: Date.now() + (options.sliceMs ?? SLICE_SECONDS * 1000),
      stillOwner: () => ownsRun(db, runId, slice),
    }, { first: run.status === "queued" });
    clearInterval(beat);
    await beating;
    if (result.finished) {
      await finishRepair(db, runId, result.result.status, slice);
      return { state: "finished", status: result.result.status };
    }
    await db.$transaction((tx) => setRunOwner(tx, runId, null, Date.now(), slice, { failedSlices: 0 }));
    return { state: "continue" };
  } catch (e) {
    clearInterval(beat);
    await beating;
    const failed = (run.params.failedSlices ?? 0) + 1;
    log.error({ runId, failedSlices: failed, err: e }, `repair run ${runId}: a slice stopped on an error`);
    if (failed >= MAX_FAILED_SLICES) {
      await finishRepair(db, runId, "failed", slice);
      return { state: "finished", status: "failed" };
    }
    await db.$transaction((tx) => setRunOwner(tx, runId, null, Date.now(), slice, { failedSlices: failed }));
    throw e;
  } finally {
    markLive(runId, false);
  }
}

type Owner = NonNullable<RepairRunParams["owner"]>;
type Taken = { state: "taken"; run: NonNullable<Awaited<ReturnType<typeof findRepairRun>>> } | { state: "gone" } | { state: "busy" };

/** Takes the run for this slice under its row lock; a run still owned by a live slice is left alone. */
async function takeRun(db: Db, runId: string, me: Owner): Promise<Taken> {
  const now = new Date();
  return db.$transaction(async (tx): Promise<Taken> => {
    await lockRun(tx, runId);
    const run = await findRepairRun(tx, runId);
    if (!run || (run.status !== "queued" && run.status !== "running")) return { state: "gone" };
    const previous = run.params.owner;
    if (previous && ownerAlive(run.id, previous, run.params.heartbeatAt, now.getTime())) return { state: "busy" };
    if (previous && run.status === "running") {
      const abandoned = await failOrphanedAttempts(tx, run.id, now);
      const done = (await attemptsOfRun(tx, run.id)).filter((a) => a.status === "succeeded").length;
      await appendAudit(tx, {
        kind: "repair.taken_over", actor: run.params.launchedBy.id, actorRole: run.params.launchedBy.role,
        reason: `repair #${run.repairNumber} was left running by console ${previous.host} (pid ${previous.pid}), which stopped: continued from its progress, ${done} of ${run.params.pairs.length} pairs done`,
        incidentId: run.incidentId, before: { owner: describeOwner(previous) },
        after: { owner: describeOwner(me), done, remaining: run.params.pairs.length - done, abandonedAttempts: abandoned },
      }, now);
    }
    await setRunOwner(tx, run.id, me, now.getTime());
    return { state: "taken", run };
  }, { timeout: 30_000, maxWait: 30_000 });
}

const describeOwner = (o: { host: string; pid: number; instance: string }) => `${o.host} pid ${o.pid} (instance ${o.instance})`;

/** The run's end, all at once: its status, owner released, claims released, incident moved on, outcome audited. */
async function finishRepair(db: Db, runId: string, status: string, slice: string): Promise<void> {
  const attempts = await attemptsOfRun(db, runId);
  const latest = new Map(attempts.map((a) => [`${a.taskNodeId}\u0000${a.unitKey}`, a.status]));
  const count = (s: string) => [...latest.values()].filter((x) => x === s).length;
  await db.$transaction(async (tx) => {
    if (!(await setRunOwner(tx, runId, null, Date.now(), slice))) return; // taken over meanwhile: the new owner finishes it
    if (!(await finishRunStatus(tx, runId, status, new Date()))) return; // finished already
    const run = (await findRepairRun(tx, runId))!;
    await releaseClaims(tx, runId);
    if (run.incidentId) await transitionIncident(tx, run.incidentId, ["repairing"], "validating");
    await appendAudit(tx, {
      kind: "repair.finished", actor: run.params.launchedBy.id, actorRole: run.params.launchedBy.role, reason: `repair #${run.repairNumber} ended: ${status}`,
      incidentId: run.incidentId, before: { runStatus: "running" },
      after: { runStatus: status, succeeded: count("succeeded"), failed: count("failed"), blocked: count("upstream_failed") },
    });
  }, { timeout: 30_000, maxWait: 30_000 });
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
    if (outcome.state === "busy") await new Promise((r) => setTimeout(r, 1_000));
  }
}
