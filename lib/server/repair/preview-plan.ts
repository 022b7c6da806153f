import type { PlanOptions, PlanView } from "@/lib/contracts/repair";
import { getDb, type Db } from "../repositories/database";
import { requireIncident } from "../incidents/require-incident";
import { loadRepairContext } from "./load-repair-context";
import { planIncidentRepair } from "./plan-incident-repair";
import { toPlanView } from "./to-plan-view";

/** Plan → preview: the exact pairs a repair would touch, before anything runs. Writes nothing. */
export async function previewPlan(id: string, opts: PlanOptions, now = new Date(), db: Db = getDb()): Promise<PlanView> {
  const incident = await requireIncident(db, id);
  const ctx = await loadRepairContext(db, now);
  return toPlanView(db, ctx, await planIncidentRepair(db, ctx, incident, opts), incident.originRunId);
}
