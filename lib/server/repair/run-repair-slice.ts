import crypto from "node:crypto";
import type { RepairRunEnd } from "@/lib/domain/repair-run-lifecycle";
import { SLICE_SECONDS } from "../jobs/job-queue";
import { log } from "../observability/log";
import type { LocalOptions } from "../orchestrators/local";
import { OrchestratorError } from "../orchestrators/port";
import type { Db } from "../repositories/database";
import { findRepairRun } from "../repositories/repair/repair-runs";
import { keepLease, releaseRun, takeRun, thisOwner } from "../runtime/repair-lease";
import { driveRepairSlice, POLL_SECONDS } from "./drive-repair-slice";
import { finishRepair } from "./finish-repair";
import { cancelInFlight, stopCancelled } from "./stop-repair-run";

export interface RunRepairOptions extends LocalOptions {
  /** How long one slice may start work (SLICE_SECONDS by default). */
  sliceMs?: number;
  /** The queue job running this slice (recorded with the owner, so a watchdog can give it up). */
  jobId?: string;
  /** runRepairToEnd: how long to wait before polling an orchestrator again (its `afterSeconds` by default). */
  pollMs?: number;
}

/** `continue`: run the next slice, after `afterSeconds` when the run waits on an orchestrator. */
export type SliceOutcome = { state: "finished"; status: RepairRunEnd } | { state: "continue"; afterSeconds?: number } | { state: "gone" } | { state: "busy" };

/** A run fails after this many slices in a row stopped on an unexpected error. */
const MAX_FAILED_SLICES = 3;
/** An orchestrator that cannot be reached is asked again this many times (backing off) before the run fails. */
const MAX_UNREACHABLE = 10;

/**
 * One slice of a launched repair run: the `repair-run` job's work. The slice takes the run's
 * lease (lib/server/runtime/repair-lease: owner and heartbeat, under the run's row lock) and
 * drives each pipeline's orchestrator wave by wave for up to SLICE_SECONDS (drive-repair-slice).
 * It either finishes the run (finish-repair: status, claims released, the incident on to
 * validation, the outcome audited, one transaction) or releases it to the next slice, on this
 * instance or any other.
 *
 * A run still owned by a live slice is left to it: `busy`. A run owned by a slice that is gone
 * is taken over from its exact progress; nothing already published runs again. An unexpected
 * error releases the run to be tried again; the third in a row fails it.
 */
export async function runRepairSlice(runId: string, db: Db, options: RunRepairOptions = {}): Promise<SliceOutcome> {
  const slice = crypto.randomUUID();
  const taken = await takeRun(db, runId, { ...thisOwner(), ...(options.jobId ? { job: options.jobId } : {}), slice });
  if (taken.state !== "taken") return taken;
  const run = taken.run;
  const lease = keepLease(db, runId, slice);
  try {
    const result = await driveRepairSlice(db, run, slice, Date.now() + (options.sliceMs ?? SLICE_SECONDS * 1000), options);
    await lease.stop();
    if (result.state === "finished") {
      await finishRepair(db, runId, result.status, slice);
      return result;
    }
    if (result.state === "lost") {
      // Asked to cancel while this slice held the run: it stops the run itself (it knows what it sent).
      const now = await findRepairRun(db, runId);
      if (now?.params.cancelRequested && now.params.owner?.slice === slice) {
        await stopCancelled(db, runId, slice);
        return { state: "finished", status: "cancelled" };
      }
      return { state: "gone" };
    }
    await releaseRun(db, runId, slice, 0);
    return { state: "continue", ...(result.afterSeconds ? { afterSeconds: result.afterSeconds } : {}) };
  } catch (e) {
    await lease.stop();
    const failed = (run.params.failedSlices ?? 0) + 1;
    // Not reached, rate-limited or failing on its side: asked again, backing off, before the run fails.
    const unreachable = e instanceof OrchestratorError && (e.call.status === null || e.call.status === 429 || e.call.status >= 500);
    log.error({ runId, failedSlices: failed, err: e }, `repair run ${runId}: a slice stopped on an error`);
    const of = unreachable ? MAX_UNREACHABLE : MAX_FAILED_SLICES;
    const message = e instanceof Error ? e.message : String(e);
    if (failed >= of) {
      // The run gives up: what its orchestrators still run for the wave in flight is stopped first.
      await cancelInFlight(db, runId).catch((err: unknown) => log.error({ runId, err }, `repair run ${runId}: cancelling the wave in flight failed`));
      await finishRepair(db, runId, "failed", slice, { message, at: Date.now(), attempt: failed, of, retryInSeconds: null });
      return { state: "finished", status: "failed" };
    }
    const afterSeconds = unreachable ? Math.min(60, POLL_SECONDS * 2 ** failed) : null;
    await releaseRun(db, runId, slice, failed, { message, at: Date.now(), attempt: failed, of, retryInSeconds: afterSeconds });
    if (afterSeconds !== null) return { state: "continue", afterSeconds };
    throw e;
  } finally {
    lease.end();
  }
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
    if (outcome.state === "continue" && outcome.afterSeconds) await new Promise((r) => setTimeout(r, options.pollMs ?? outcome.afterSeconds! * 1000));
    if (outcome.state === "busy") await new Promise((r) => setTimeout(r, 1_000));
  }
}
