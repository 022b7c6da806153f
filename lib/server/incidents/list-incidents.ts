import type { IncidentListQuery, IncidentSummary } from "@/lib/contracts/incidents";
import { ACTIVE_STATUSES, CLOSED_STATUSES } from "@/lib/domain/incident-lifecycle";
import type { Actor } from "../auth/roles";
import { getDb, type Db } from "../repositories/database";
import { listIncidentRecords, repairCountsByIncident } from "../repositories/incidents/incidents";
import { summaryPeople, toSummary } from "./to-summary";

export async function listIncidents(q: IncidentListQuery, actor: Actor, db: Db = getDb()): Promise<{ incidents: IncidentSummary[] }> {
  const statuses = q.status === "open" ? [...ACTIVE_STATUSES] : q.status === "closed" ? [...CLOSED_STATUSES] : undefined;
  const records = await listIncidentRecords(db, { statuses, openedBy: q.mine === "1" ? actor.id : undefined, pipelineName: q.pipeline || undefined });
  const [repairs, people] = await Promise.all([
    repairCountsByIncident(
      db,
      records.map((r) => r.id),
    ),
    summaryPeople(db, records),
  ]);
  return { incidents: records.map((r) => toSummary(r, repairs.get(r.id) ?? 0, people)) };
}
