import type { IncidentStatus } from "@/lib/contracts/incidents";

export const STEPS = ["Scope", "Preconditions", "Response", "Plan", "Execute", "Validate", "Close"] as const;
export type Step = (typeof STEPS)[number];

/** Where the wizard opens for an incident in a given state: the next decision to make. */
export function stepForStatus(status: IncidentStatus): number {
  switch (status) {
    case "open": return 0;
    case "scoped": return 1;
    case "planned":
    case "repairing": return 4;
    case "validating": return 5;
    default: return 6;
  }
}
