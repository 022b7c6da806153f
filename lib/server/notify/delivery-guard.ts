import { nodeName } from "@/lib/domain/ids";
import { outstandingDeliveries, type OutstandingDelivery } from "@/lib/domain/delivery-guard";
import type { Db } from "../repositories/database";
import { repairRunsOf, type IncidentRecord } from "../repositories/incidents/incidents";
import { noticesOfIncident } from "../repositories/notices/notices";
import { incidentFacts, type GatheredFacts } from "./notice-facts";

/**
 * The resolve guard's state for an incident (lib/domain/delivery-guard.ts): every unit its closure
 * reaches that was delivered outside before the repair and is neither delivered again nor
 * acknowledged by a consumer whose notice named it.
 */
export async function outstandingDeliveriesOf(
  db: Db,
  incident: Pick<IncidentRecord, "id" | "title" | "detectedAt" | "failedPairs">,
  now: Date,
  gathered?: GatheredFacts,
): Promise<OutstandingDelivery[]> {
  const [{ facts, within }, runs, notices] = await Promise.all([
    gathered ?? incidentFacts(db, incident, now),
    repairRunsOf(db, incident.id),
    noticesOfIncident(db, incident.id),
  ]);
  const started = runs
    .map((r) => r.startedAt)
    .filter((s): s is string => s !== null)
    .sort()[0];
  // Only the consumers' acknowledgements count: the rule is that whoever received the file knows it
  // is wrong — its owner saying so is not that (docs/notifications.md).
  const acked = notices.filter((n) => n.acknowledgedAt !== null && n.recipientKey.startsWith("consumer:"));
  const acknowledged = (nodeId: string, key: string) => acked.some((n) => n.units.some((u) => u.nodeId === nodeId && within(nodeId, u.units, key)));
  return outstandingDeliveries(facts.deliveries, started ? new Date(started) : null, acknowledged, nodeName);
}
