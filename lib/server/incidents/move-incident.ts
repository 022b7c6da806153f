import { nextStatus, requireTransition, statusesAllowing, type IncidentAction, type IncidentStatus } from "@/lib/domain/incident-lifecycle";
import type { Tx } from "../repositories/database";
import { ConflictError } from "@/lib/domain/errors";
import { transitionIncident } from "../repositories/incidents/incidents";

/**
 * Moves the incident, read in status `from`, as the lifecycle says `action` does — in the
 * caller's transaction, only if it is still in `from` (compare-and-set: two concurrent steps
 * cannot both move it, and a step never acts on a status it did not read). Returns the new
 * status; 409 when another request moved the incident first.
 */
export async function moveIncident(
  tx: Tx,
  incident: { id: string; status: IncidentStatus },
  action: IncidentAction,
  extra?: Parameters<typeof transitionIncident>[4],
): Promise<IncidentStatus> {
  const to = requireTransition(incident.status, action, incident.id);
  if (!(await transitionIncident(tx, incident.id, [incident.status], to, extra)))
    throw new ConflictError(`incident ${incident.id} changed state meanwhile; reload it`);
  return to;
}

/**
 * Moves the incident as the lifecycle says an event no person sends (the repair run's end) moves
 * it from the status it is in when the move is written, in the caller's transaction — and never
 * refuses: the event commits whatever the incident's status. Each status the lifecycle moves on
 * is tried compare-and-set, so a concurrent change is never overwritten and never rolls the
 * event back. Returns the move made, or null when the lifecycle leaves the incident where it is.
 */
export async function followIncident(tx: Tx, incidentId: string, event: "finish_repair"): Promise<{ from: IncidentStatus; to: IncidentStatus } | null> {
  for (const from of statusesAllowing(event)) {
    const to = nextStatus(from, event)!;
    if (await transitionIncident(tx, incidentId, [from], to)) return { from, to };
  }
  return null;
}
