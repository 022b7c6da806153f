import type { IncidentListQuery, IncidentStatus, IncidentSummary } from "@/lib/contracts/incidents";
import type { Actor } from "../auth/roles";
import { getDb, type Db } from "../db/client";
import { listIncidentRecords, repairCountsByIncident } from "../repositories/incidents";
import { ACTIVE } from "./require-incident";
import { toSummary } from "./to-summary";

const CLOSED: IncidentStatus[] = ["resolved", "abandoned"];

export async function listIncidents(q: IncidentListQuery, actor: Actor, db: Db = getDb()): Promise<{ incidents: IncidentSummary[] }> {
  const statuses = q.status === "open" ? [...ACTIVE] : q.status === "closed" ? CLOSED : undefined;
  const records = await listIncidentRecords(db, { statuses, openedBy: q.mine === "1" ? actor.id : undefined, pipelineName: q.pipeline || undefined });
  const repairs = await repairCountsByIncident(db, records.map((r) => r.id));
  return { incidents: records.map((r) => toSummary(r, repairs.get(r.id) ?? 0)) };
}
