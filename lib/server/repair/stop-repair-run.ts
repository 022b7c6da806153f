import crypto from "node:crypto";
import { isActiveRun, nextRunStatus } from "@/lib/domain/repair-run-lifecycle";
import { appendAudit } from "../audit/append-audit";
import { OrchestratorError, type OrchestratorCall } from "../orchestrators/port";
import { listAuditRows } from "../repositories/audit/audit-log";
import { inTransaction, type Db } from "../repositories/database";
import { failOrphanedAttempts, findRepairRun, requestCancel, setRunOwner } from "../repositories/repair/repair-runs";
import { markLive, ownerAlive, thisOwner } from "../runtime/repair-lease";
import { runDispatchGroups } from "./dispatch-groups";
import { finishRepair } from "./finish-repair";
import { loadRepairContext } from "./load-repair-context";
import { cancelSentEntry, type StoppedBy } from "./repair-run-audit";

export type { StoppedBy } from "./repair-run-audit";

export interface CancelOutcome {
  calls: OrchestratorCall[];
  cancelled: boolean;
  pending: boolean;
}

/**
 * Cancels a running repair from the console: first each orchestrator is asked to stop what it
 * runs for the wave in flight (`repair.cancel_sent`, every call and its answer), then the run
 * ends `cancelled` in one transaction with its claims released, the incident on to validation
 * (what did finish is validated from the ledger as usual; a resume runs only what did not) and
 * `repair.finished` naming who cancelled and why. A slice driving the run stops at its next
 * ownership check: it can no longer save progress for a run that is not running.
 */
export async function cancelRepairRun(db: Db, runId: string, by: StoppedBy, waitMs = 30_000): Promise<CancelOutcome> {
  const me = { ...thisOwner(), slice: `cancel-${crypto.randomUUID()}` };
  // Under the run's lock: the request stops every slice from sending or starting anything more.
  // A live slice still records what it is sending this instant, then stops the run itself; a run
  // between slices (or whose slice died) is taken here, so no slice starts it again.
  const taken = await inTransaction(
    db,
    async (tx) => {
      const run = await requestCancel(tx, runId, { actor: { id: by.actor.id, role: by.actor.role }, reason: by.reason, at: Date.now() });
      if (!run) return { state: "ended" as const };
      if (run.params.owner && ownerAlive(run.id, run.params.owner, run.params.heartbeatAt, Date.now())) return { state: "live" as const };
      if (run.params.owner && nextRunStatus(run.status, "take_over") !== null) await failOrphanedAttempts(tx, run.id, new Date());
      await setRunOwner(tx, run.id, me, Date.now());
      return { state: "taken" as const };
    },
    { timeout: 30_000, maxWait: 30_000 },
  );
  if (taken.state === "ended") return { calls: [], cancelled: false, pending: false };
  if (taken.state === "taken") {
    markLive(runId, true); // this process holds it now: a slice queued here leaves it alone
    try {
      return await stopCancelled(db, runId, me.slice);
    } finally {
      markLive(runId, false);
    }
  }
  // The live slice stops it at its next check (each pair, poll and wave): wait for that. Its stop
  // requests are on the record (`repair.cancel_sent`): the operator is told which went unconfirmed
  // whichever console sent them.
  for (const until = Date.now() + waitMs; Date.now() < until;) {
    const run = await findRepairRun(db, runId);
    if (run && !isActiveRun(run.status))
      return { calls: await stopRequestsSent(db, run.incidentId, runId), cancelled: run.status === "cancelled", pending: false };
    await new Promise((r) => setTimeout(r, 200));
  }
  return { calls: [], cancelled: false, pending: true };
}

/** The stop requests recorded for the run by whichever slice cancelled it (none if it needed none). */
async function stopRequestsSent(db: Db, incidentId: string | null, runId: string): Promise<OrchestratorCall[]> {
  const entries = await listAuditRows(db, { kind: "repair.cancel_sent", ...(incidentId ? { incidentId } : {}), limit: 20 });
  const mine = entries.find((e) => (e.after as { runId?: string } | null)?.runId === runId);
  return mine ? (mine.after as { calls: OrchestratorCall[] }).calls : [];
}

/** The cancel itself, by whoever holds the run (`slice`): the wave in flight stopped in its orchestrators, then the run ended. */
export async function stopCancelled(db: Db, runId: string, slice: string): Promise<CancelOutcome> {
  const request = (await findRepairRun(db, runId))?.params.cancelRequested;
  if (!request) return { calls: [], cancelled: false, pending: false };
  const by: StoppedBy = { actor: request.actor, reason: request.reason };
  const calls = await cancelInFlight(db, runId, by);
  const cancelled = await finishRepair(db, runId, "cancelled", slice, undefined, by);
  return { calls, cancelled, pending: false };
}

/** Asks each orchestrator to stop what it runs for the wave in flight; the calls are audited. */
export async function cancelInFlight(db: Db, runId: string, by: StoppedBy | null = null): Promise<OrchestratorCall[]> {
  const run = await findRepairRun(db, runId);
  const dispatch = run?.params.dispatch;
  if (!run || !dispatch || dispatch.wave < 0) return [];
  const ctx = await loadRepairContext(db, new Date());
  const groups = await runDispatchGroups(db, ctx, run, null);
  const calls: OrchestratorCall[] = [];
  for (const g of groups) {
    const sent = dispatch.handles[g.pipelineId];
    if (!g.orchestrator || g.orchestrator.kind === "local" || !sent?.handle || sent.wave !== dispatch.wave) continue;
    try {
      calls.push(...(await g.orchestrator.cancel(g.plan, sent.handle)).calls);
    } catch (e) {
      if (e instanceof OrchestratorError) calls.push(...e.earlier, e.call);
    }
  }
  if (calls.length === 0) return [];
  const onRecord = { id: run.id, repairNumber: run.repairNumber, incidentId: run.incidentId, launchedBy: run.params.launchedBy };
  await inTransaction(db, (tx) => appendAudit(tx, cancelSentEntry(onRecord, dispatch.wave, by, calls)));
  return calls;
}
