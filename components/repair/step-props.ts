import type { IncidentDetail } from "@/lib/contracts/incidents";

export interface StepProps {
  id: string;
  incident: IncidentDetail;
  next: () => void;
  back: () => void;
}
