import { requireTransition, type IncidentAction } from "@/lib/domain/incident-lifecycle";
import type { Db, Tx } from "../repositories/database";
import { NotFoundError } from "@/lib/domain/errors";
import { findIncident, type IncidentRecord } from "../repositories/incidents/incidents";

/**
 * The incident (404 when there is none). With an action, the lifecycle must allow it in the
 * incident's status now: otherwise IncidentTransitionRefused, which the API answers 409.
 */
export async function requireIncident(db: Db | Tx, id: string, action?: IncidentAction): Promise<IncidentRecord> {
  const incident = await findIncident(db, id);
  if (!incident) throw new NotFoundError(`no incident ${id}`);
  if (action) requireTransition(incident.status, action, id);
  return incident;
}
