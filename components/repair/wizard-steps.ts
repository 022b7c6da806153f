import type { IncidentStatus } from "@/lib/contracts/incidents";

export const STEPS = ["Scope", "Preconditions", "Response", "Plan", "Execute", "Validate", "Close"] as const;
export type Step = (typeof STEPS)[number];

/** Each step's own URL: /incidents/{id}/{slug} (plain /incidents/{id} opens where the next decision is). */
export const STEP_SLUGS = ["scope", "preconditions", "response", "plan", "execute", "validate", "close"] as const;

export const stepHref = (id: string, step: number) => `/incidents/${encodeURIComponent(id)}/${STEP_SLUGS[step]}`;

/** The step a URL segment names, or null for none / one that is not a step. */
export function stepOfSlug(slug: string | null): number | null {
  const i = slug === null ? -1 : (STEP_SLUGS as readonly string[]).indexOf(slug);
  return i < 0 ? null : i;
}

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
