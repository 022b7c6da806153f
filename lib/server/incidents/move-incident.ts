import { requireTransition, type IncidentAction, type IncidentStatus } from "@/lib/domain/incident-lifecycle";
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
