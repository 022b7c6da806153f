import { endEventOf, nextRunStatus, type RepairRunEnd } from "@/lib/domain/repair-run-lifecycle";
import { appendAudit } from "../audit/append-audit";
import { followIncident } from "../incidents/move-incident";
import { inTransaction, type Db } from "../repositories/database";
import { releaseClaims } from "../repositories/repair/repair-claims";
import { attemptsOfRun, findRepairRun, setRunOwner, type RepairRunParams } from "../repositories/repair/repair-runs";
import { progressKey } from "./dispatch-groups";
import { moveRepairRun } from "./move-repair-run";
import type { StoppedBy } from "./repair-run-audit";

/**
 * The run's end, all at once (one transaction): its status as its lifecycle ends it, its owner
 * and claims released, the incident moved by its own lifecycle's `finish_repair` (repairing →
 * validating), the outcome audited with the incident's move. `slice`: only while that slice owns
 * the run (undefined: whoever owns it, for a cancel). False when the run had ended or was taken
 * over meanwhile.
 *
 * Whatever the incident's status, the run still ends and frees its units: an incident the
 * lifecycle does not move on is left where it is (followIncident never refuses, so the incident
 * cannot roll the run's end back).
 */
export async function finishRepair(
  db: Db,
  runId: string,
  status: RepairRunEnd,
  slice: string | undefined,
  fault?: NonNullable<RepairRunParams["fault"]>,
  by: StoppedBy | null = null,
): Promise<boolean> {
  const error = fault?.message;
  // Each pair's end: its latest attempt when this console ran it, else what its orchestrator reported.
  const attempts = new Map((await attemptsOfRun(db, runId)).map((a) => [progressKey(a.taskNodeId, a.unitKey), a.status]));
  const before = await findRepairRun(db, runId);
  const ends = (before?.params.pairs ?? []).map(([t, u]) => attempts.get(progressKey(t, u)) ?? before?.params.progress[progressKey(t, u)]?.status ?? "pending");
  const count = (s: string) => ends.filter((x) => x === s).length;
  return inTransaction(
    db,
    async (tx) => {
      // Taken over meanwhile: the new owner finishes it. A run that fails keeps why (the Execute step shows it).
      // A cancelled run keeps the fault it was waiting on; one that ended on its own, only its own.
      if (!(await setRunOwner(tx, runId, null, Date.now(), slice, fault || status !== "cancelled" ? { fault } : {}))) return false;
      // Read under the run's lock (setRunOwner took it): an ended run moves no more.
      const run = await findRepairRun(tx, runId);
      const event = endEventOf(status);
      if (!run || nextRunStatus(run.status, event) === null) return false; // finished already
      if (!(await moveRepairRun(tx, run, event, { endedAt: new Date() }))) return false;
      await releaseClaims(tx, runId);
      const moved = run.incidentId ? await followIncident(tx, run.incidentId, "finish_repair") : null;
      await appendAudit(tx, {
        kind: "repair.finished",
        actor: by?.actor.id ?? run.params.launchedBy.id,
        actorRole: by?.actor.role ?? run.params.launchedBy.role,
        reason: by
          ? `repair #${run.repairNumber} cancelled by ${by.actor.id}: ${by.reason}`
          : `repair #${run.repairNumber} ended: ${status}${error ? ` (${error.slice(0, 300)})` : ""}`,
        incidentId: run.incidentId,
        before: { runStatus: before?.status ?? "running", ...(moved && { incidentStatus: moved.from }) },
        after: {
          runStatus: status,
          succeeded: count("succeeded"),
          failed: count("failed"),
          blocked: count("upstream_failed"),
          ...(moved && { incidentStatus: moved.to }),
        },
      });
      return true;
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
}
