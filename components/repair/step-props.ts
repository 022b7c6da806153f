import type { IncidentAction, IncidentDetail } from "@/lib/contracts/incidents";

export interface StepProps {
  id: string;
  incident: IncidentDetail;
  next: () => void;
  back: () => void;
}

/** Whether the incident's lifecycle allows `action` now (the server's answer: the UI never re-derives it from the status). */
export const allows = (incident: Pick<IncidentDetail, "allowedActions">, action: IncidentAction): boolean => incident.allowedActions.includes(action);
