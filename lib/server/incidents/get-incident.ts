import type { IncidentDetail } from "@/lib/contracts/incidents";
import { allowedActions } from "@/lib/domain/incident-lifecycle";
import { getDb, type Db } from "../repositories/database";
import { listAuditRows } from "../repositories/audit/audit-log";
import { repairRunsOf } from "../repositories/incidents/incidents";
import { currentPlan } from "../repositories/repair/repair-plans";
import { requireIncident } from "./require-incident";
import { summaryPeople, toSummary } from "./to-summary";

/** The incident with its timeline (its own audit entries, oldest first), repair runs, plan and what the lifecycle allows next. */
export async function getIncident(id: string, db: Db = getDb()): Promise<IncidentDetail> {
  const incident = await requireIncident(db, id);
  const [entries, runs, plan, people] = await Promise.all([
    listAuditRows(db, { incidentId: id, limit: 500 }),
    repairRunsOf(db, id),
    currentPlan(db, id),
    summaryPeople(db, [incident]),
  ]);
  return {
    ...toSummary(incident, runs.filter((r) => r.kind === "repair").length, people),
    timeline: entries.reverse(),
    runs,
    confirmedPlanId: plan?.id ?? null,
    allowedActions: allowedActions(incident.status),
  };
}
