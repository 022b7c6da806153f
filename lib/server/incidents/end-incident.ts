import type { AuditDraft, AuditEntryView } from "@/lib/contracts/audit";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import type { Tx } from "../repositories/database";
import type { IncidentRecord } from "../repositories/incidents/incidents";
import { moveIncident } from "./move-incident";

/** The endings given with nothing but a reason, each with the entry that records it. */
export type IncidentEnding = "resolve" | "abandon";

const recordOf = (ending: IncidentEnding) =>
  ending === "resolve"
    ? { kind: "incident.resolved" as const, after: { status: "resolved" as const } }
    : { kind: "incident.abandoned" as const, after: { status: "abandoned" as const } };

/**
 * Ends the incident in the caller's transaction: the lifecycle's move to its closed status (from
 * the status read, compare-and-set, with when and why it closed) and the entry that records it,
 * so the two commit together. Resolving and abandoning end alike and are recorded alike; what
 * differs is what each use case checks first. `grounds`: entries the ending rests on (a
 * resolution, the validation that passed), recorded after the move and before the ending's own.
 */
export async function endIncident(
  tx: Tx,
  incident: Pick<IncidentRecord, "id" | "status" | "failedPairs">,
  ending: IncidentEnding,
  reason: string,
  actor: Actor,
  now: Date,
  grounds: readonly AuditDraft[] = [],
): Promise<AuditEntryView> {
  await moveIncident(tx, incident, ending, { resolvedAt: now, closedReason: reason });
  for (const draft of grounds) await appendAudit(tx, draft, now);
  return appendAudit(
    tx,
    {
      ...recordOf(ending),
      actor: actor.id,
      actorRole: actor.role,
      reason,
      incidentId: incident.id,
      targets: incident.failedPairs,
      before: { status: incident.status },
    },
    now,
  );
}
