import crypto from "node:crypto";
import os from "node:os";
import { nextRunStatus, isActiveRun } from "@/lib/domain/repair-run-lifecycle";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, type Db } from "../repositories/database";
import {
  attemptsOfRun,
  failOrphanedAttempts,
  findRepairRun,
  heartbeat,
  lockRun,
  setRunOwner,
  type RepairRunParams,
  type RepairRunRecord,
} from "../repositories/repair/repair-runs";
import { processSingleton } from "./process-singleton";

/**
 * The lease of a repair run: which console process (and which slice of it) drives the run, its
 * renewal (a heartbeat while the slice works) and its expiry (a dead pid on this host, or no
 * heartbeat for STALE_MS elsewhere). A run whose owner is gone is taken over from its exact
 * progress, never silently left claiming its units.
 */
export interface RepairOwner {
  instance: string;
  host: string;
  pid: number;
  /** The `repair-run` job of the slice, when the job queue runs it. */
  job?: string;
}

const state = processSingleton("repairs", () => ({ instance: crypto.randomUUID(), live: new Set<string>() }));

export const HEARTBEAT_MS = 5_000;
/** A slice is presumed dead after this long without a heartbeat (three missed beats; at once when its pid on this host is gone). */
export const STALE_MS = 15_000;

export function thisOwner(): RepairOwner {
  return { instance: state.instance, host: os.hostname(), pid: process.pid };
}

export function markLive(runId: string, live: boolean): void {
  if (live) state.live.add(runId);
  else state.live.delete(runId);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function ownerAlive(runId: string, owner: RepairOwner | undefined, heartbeatAt: number | undefined, now: number): boolean {
  if (!owner) return false;
  if (owner.instance === state.instance) return state.live.has(runId);
  const fresh = heartbeatAt !== undefined && now - heartbeatAt < STALE_MS;
  if (owner.host === os.hostname()) return pidAlive(owner.pid) && fresh;
  return fresh;
}

export type TakenRun = { state: "taken"; run: RepairRunRecord } | { state: "gone" } | { state: "busy" };

/**
 * Takes the run for `me` under its row lock. A run still owned by a live slice is left to it
 * (`busy`); an ended one is `gone`. A running run whose owner is gone is taken over: the dead
 * slice's unfinished attempts are failed with the rows they really wrote, and `repair.taken_over`
 * says from which console and how far it had come — in the same transaction.
 */
export async function takeRun(db: Db, runId: string, me: RepairOwner & { slice: string }): Promise<TakenRun> {
  const now = new Date();
  return inTransaction(
    db,
    async (tx): Promise<TakenRun> => {
      await lockRun(tx, runId);
      const run = await findRepairRun(tx, runId);
      if (!run || !isActiveRun(run.status)) return { state: "gone" };
      const previous = run.params.owner;
      if (previous && ownerAlive(run.id, previous, run.params.heartbeatAt, now.getTime())) return { state: "busy" };
      if (previous && nextRunStatus(run.status, "take_over") !== null) {
        const abandoned = await failOrphanedAttempts(tx, run.id, now);
        const done = (await attemptsOfRun(tx, run.id)).filter((a) => a.status === "succeeded").length;
        await appendAudit(
          tx,
          {
            kind: "repair.taken_over",
            actor: run.params.launchedBy.id,
            actorRole: run.params.launchedBy.role,
            reason: `repair #${run.repairNumber} was left running by console ${previous.host} (pid ${previous.pid}), which stopped: continued from its progress, ${done} of ${run.params.pairs.length} pairs done`,
            incidentId: run.incidentId,
            before: { owner: describeOwner(previous) },
            after: { owner: describeOwner(me), done, remaining: run.params.pairs.length - done, abandonedAttempts: abandoned },
          },
          now,
        );
      }
      await setRunOwner(tx, run.id, me, now.getTime());
      return { state: "taken", run };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}

const describeOwner = (o: { host: string; pid: number; instance: string }) => `${o.host} pid ${o.pid} (instance ${o.instance})`;

/**
 * Renews the slice's lease every HEARTBEAT_MS while it works, the run marked live in this process
 * (a slice queued here leaves it alone). `stop` ends the beats and waits for one in flight, so
 * none lands after the run is finished or released; `end` gives up being live, once the slice
 * has finished or released the run (a slice here could take it over before that).
 */
export function keepLease(db: Db, runId: string, slice: string): { stop: () => Promise<void>; end: () => void } {
  markLive(runId, true);
  let beating: Promise<void> = Promise.resolve();
  const beat = setInterval(() => {
    beating = heartbeat(db, runId, slice, Date.now()).catch(() => undefined);
  }, HEARTBEAT_MS);
  beat.unref();
  return {
    stop: async () => {
      clearInterval(beat);
      await beating;
    },
    end: () => markLive(runId, false),
  };
}

/** Hands the run back between slices (any instance's next slice takes it), counting the slices in a row that stopped on an error. */
export async function releaseRun(db: Db, runId: string, slice: string, failedSlices: number, fault?: RepairRunParams["fault"]): Promise<void> {
  await inTransaction(db, (tx) => setRunOwner(tx, runId, null, Date.now(), slice, { failedSlices, fault }));
}
