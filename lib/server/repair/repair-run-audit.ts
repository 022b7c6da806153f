import type { AuditDraft } from "@/lib/contracts/audit";
import { nodeName, type NodeId } from "@/lib/domain/ids";
import { counted } from "@/lib/domain/words";
import type { OrchestratorCall, PairProgress, PairRef } from "../orchestrators/port";

/**
 * The audit entries a repair run writes as it drives its orchestrators, built from what happened
 * (no database, no clock): the drive decides when each is written, in the transaction that saves
 * the run's progress. Every request sent is in one of them, as `describeCall` keeps it.
 */

/** The run as its entries name it: who launched it, for which incident, which repair. */
export interface RunOnRecord {
  readonly id: string;
  readonly repairNumber: number;
  readonly incidentId: string | null;
  readonly launchedBy: { readonly id: string; readonly role: string };
}

/** A call as the audit log keeps it: method, URL, status, ids — never a header or a secret. */
export type CallOnRecord = ReturnType<typeof describeCall>;

export function describeCall(c: OrchestratorCall) {
  return {
    orchestrator: c.orchestrator,
    method: c.method,
    url: c.url,
    status: c.status,
    ...(c.ids ? { ids: c.ids } : {}),
    ...(c.error ? { error: c.error } : {}),
    ...(c.dryRun ? { dryRun: true } : {}),
  };
}

const by = (run: RunOnRecord) => ({ actor: run.launchedBy.id, actorRole: run.launchedBy.role, incidentId: run.incidentId });
const waveOf = (run: RunOnRecord, wave: number, waves: number) => `repair #${run.repairNumber}, wave ${wave + 1} of ${waves}`;

/**
 * Pairs of a pipeline not sent for the wave, each recorded failed with `detail`: they read a
 * failed pair of this repair, or the pipeline has nowhere to run.
 * Example: "repair #2, wave 2 of 3: 1 pair of orders held back — not dispatched: …".
 */
export function heldBackEntry(run: RunOnRecord, wave: number, waves: number, pipeline: string, held: readonly PairRef[], detail: string): AuditDraft {
  return {
    kind: "repair.progress",
    ...by(run),
    reason: `${waveOf(run, wave, waves)}: ${counted(held.length, "pair")} of ${pipeline} held back — ${detail}`,
    before: null,
    after: {
      runId: run.id,
      wave,
      changed: held.map((p) => ({ taskNodeId: p.taskNodeId, unitKey: p.unitKey, status: "failed", externalId: null })),
      calls: [],
    },
  };
}

/** A pipeline's share of the wave, sent: how many pairs, where, and every call it took. */
export function dispatchedEntry(
  run: RunOnRecord,
  sent: { wave: number; waves: number; pipeline: string; orchestrator: string; pairs: number; held: number; calls: readonly OrchestratorCall[] },
): AuditDraft {
  const held = sent.held > 0 ? ` (${sent.held} held back: they read a failed pair)` : "";
  return {
    kind: "repair.dispatched",
    ...by(run),
    reason: `${waveOf(run, sent.wave, sent.waves)}: ${counted(sent.pairs, "pair")} of ${sent.pipeline} sent to ${sent.orchestrator}${held}`,
    before: null,
    after: { runId: run.id, wave: sent.wave, pipeline: sent.pipeline, orchestrator: sent.orchestrator, calls: sent.calls.map(describeCall) },
  };
}

/** The orchestrator refused the wave, or could not be reached: the failing call and those before it. */
export function dispatchFailedEntry(
  run: RunOnRecord,
  failed: { wave: number; pipeline: string; orchestrator: string; message: string; calls: readonly OrchestratorCall[] },
): AuditDraft {
  return {
    kind: "repair.dispatch_failed",
    ...by(run),
    reason: `repair #${run.repairNumber}, wave ${failed.wave + 1}: ${failed.message}`,
    before: null,
    after: { runId: run.id, wave: failed.wave, pipeline: failed.pipeline, orchestrator: failed.orchestrator, calls: failed.calls.map(describeCall) },
  };
}

/** A poll's outcome: the pairs that changed (the first ten named), with the calls gathered since the last entry. */
export function progressEntry(run: RunOnRecord, wave: number, waves: number, changed: readonly PairProgress[], calls: readonly CallOnRecord[]): AuditDraft {
  const named = changed
    .slice(0, 10)
    .map((p) => `${nodeName(p.taskNodeId as NodeId)} ${p.unitKey} ${p.status}`)
    .join(", ");
  const what =
    changed.length === 0
      ? `${counted(calls.length, "call")} while polling, nothing changed`
      : `${named}${changed.length > 10 ? ` and ${changed.length - 10} more` : ""}`;
  return {
    kind: "repair.progress",
    ...by(run),
    reason: `${waveOf(run, wave, waves)}: ${what}`,
    before: null,
    after: {
      runId: run.id,
      wave,
      changed: changed.map((p) => ({ taskNodeId: p.taskNodeId, unitKey: p.unitKey, status: p.status, externalId: p.externalId ?? null })),
      calls: [...calls],
    },
  };
}

/** Who stops a run and why: the operator who cancels it, or (null) the run giving up on its own. */
export interface StoppedBy {
  readonly actor: { readonly id: string; readonly role: string };
  readonly reason: string;
}

/** What the wave in flight still ran was asked to stop, by a cancel or by the run giving up. */
export function cancelSentEntry(run: RunOnRecord, wave: number, stoppedBy: StoppedBy | null, calls: readonly OrchestratorCall[]): AuditDraft {
  const asked = `what wave ${wave + 1} still ran in its orchestrators was asked to stop`;
  return {
    kind: "repair.cancel_sent",
    actor: stoppedBy?.actor.id ?? run.launchedBy.id,
    actorRole: stoppedBy?.actor.role ?? run.launchedBy.role,
    incidentId: run.incidentId,
    reason: stoppedBy
      ? `repair #${run.repairNumber} cancelled by ${stoppedBy.actor.id} (${stoppedBy.reason}): ${asked}`
      : `repair #${run.repairNumber} failed: ${asked}`,
    before: null,
    after: { runId: run.id, wave, calls: calls.map(describeCall) },
  };
}
