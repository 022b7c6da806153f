import type { IncidentAction } from "@/lib/contracts/incidents";

export const STEPS = ["Scope", "Preconditions", "Response", "Plan", "Execute", "Validate", "Communicate", "Close"] as const;
export type Step = (typeof STEPS)[number];

/** Each step's own URL: /incidents/{id}/{slug} (plain /incidents/{id} opens where the next decision is). */
export const STEP_SLUGS = ["scope", "preconditions", "response", "plan", "execute", "validate", "communicate", "close"] as const;

export const stepHref = (id: string, step: number) => `/incidents/${encodeURIComponent(id)}/${STEP_SLUGS[step]}`;

/** The step a URL segment names, or null for none / one that is not a step. */
export function stepOfSlug(slug: string | null): number | null {
  const i = slug === null ? -1 : (STEP_SLUGS as readonly string[]).indexOf(slug);
  return i < 0 ? null : i;
}

/** The decision each step makes, in the order the wizard opens on them: the first the incident allows is where it awaits one. */
const DECISIONS: [IncidentAction, number][] = [
  ["launch", 4],
  ["cancel_repair", 4],
  ["resolve", 5],
  ["review_preconditions", 1],
  ["scope", 0],
];

/** Where the wizard opens for an incident, from what its lifecycle allows now: the next decision to make (Close when none is left). */
export function stepForActions(allowed: readonly IncidentAction[]): number {
  return DECISIONS.find(([action]) => allowed.includes(action))?.[1] ?? STEPS.indexOf("Close");
}
