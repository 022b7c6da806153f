import { appendAudit } from "../audit/append-audit";
import { getDb, type Db } from "../db/client";
import { transitionIncident } from "../repositories/incidents";
import { releaseClaims } from "../repositories/repair-claims";
import { activeRepairRuns, attemptsOfRun, failOrphanedAttempts, interruptRun, reopenLaunchedPlan } from "../repositories/repair-runs";
import { ownerAlive } from "./repair-owner";

/**
 * At server start (and whenever progress is read): a repair run left `queued`/`running` by a
 * process that is gone is marked interrupted with its exact progress. Attempts it left running
 * are failed with the rows they really wrote; publishes already committed stay (each was
 * written with its rows in one transaction, so the ledger never claims a unit not written);
 * the claims are released and the incident returns to `planned`, where "resume" runs only the
 * pairs not yet done.
 */
export async function recoverInterruptedRepairs(db: Db = getDb(), now = new Date()): Promise<string[]> {
  const recovered: string[] = [];
  for (const run of await activeRepairRuns(db)) {
    if (ownerAlive(run.id, run.params.owner, run.params.heartbeatAt, now.getTime())) continue;
    const attempts = await attemptsOfRun(db, run.id);
    const done = new Set(attempts.filter((a) => a.status === "succeeded").map((a) => `${a.taskNodeId}\u0000${a.unitKey}`));
    const mine = await db.$transaction(async (tx) => {
      if (!(await interruptRun(tx, run.id, now))) return false; // another console process recovered it
      const abandoned = await failOrphanedAttempts(tx, run.id, "interrupted: the console process running this repair stopped during the attempt", now);
      await releaseClaims(tx, run.id);
      if (run.incidentId) await transitionIncident(tx, run.incidentId, ["repairing"], "planned");
      await reopenLaunchedPlan(tx, run.params.planId);
      await appendAudit(tx, {
        kind: "repair.interrupted", actor: run.params.launchedBy.id, actorRole: run.params.launchedBy.role,
        reason: `repair #${run.repairNumber} was left ${run.status} by a console process that is gone: ${done.size} of ${run.params.pairs.length} pairs done`,
        incidentId: run.incidentId, before: { runStatus: run.status },
        after: { runStatus: "interrupted", done: done.size, remaining: run.params.pairs.length - done.size, abandonedAttempts: abandoned },
      }, now);
      return true;
    }, { timeout: 30_000, maxWait: 30_000 });
    if (mine) recovered.push(run.id);
  }
  return recovered;
}
