import type { NodeId } from "@/lib/domain/ids";
import type { RepairTarget } from "@/lib/domain/repair-scope";
import type { IncidentRecord } from "../repositories/incidents/incidents";

export function incidentTargets(incident: Pick<IncidentRecord, "failedPairs">): RepairTarget[] {
  return incident.failedPairs.map((p) => ({ node: p.nodeId as NodeId, keys: p.units }));
}
