import type { IncidentStatus } from "@/lib/contracts/incidents";
import type { Db, Tx } from "../db/client";
import { ConflictError, NotFoundError } from "../http/errors";
import { findIncident, type IncidentRecord } from "../repositories/incidents";

export async function requireIncident(db: Db | Tx, id: string, allowed?: readonly IncidentStatus[]): Promise<IncidentRecord> {
  const incident = await findIncident(db, id);
  if (!incident) throw new NotFoundError(`no incident ${id}`);
  if (allowed && !allowed.includes(incident.status)) {
    throw new ConflictError(`incident ${id} is ${incident.status}; this step needs it to be ${allowed.join(" or ")}`);
  }
  return incident;
}

export const ACTIVE: readonly IncidentStatus[] = ["open", "scoped", "planned", "repairing", "validating"];
