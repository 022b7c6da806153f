import type { IncidentSummary } from "@/lib/contracts/incidents";
import type { IncidentRecord } from "../repositories/incidents/incidents";

export function toSummary(i: IncidentRecord, repairs: number): IncidentSummary {
  return {
    id: i.id,
    title: i.title,
    status: i.status,
    pipeline: i.pipeline,
    openedBy: i.openedBy,
    openedAt: i.openedAt.toISOString(),
    detectedAt: i.detectedAt.toISOString(),
    resolvedAt: i.resolvedAt?.toISOString() ?? null,
    closedReason: i.closedReason,
    originRunId: i.originRunId,
    failedPairs: i.failedPairs,
    repairs,
  };
}
