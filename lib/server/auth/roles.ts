/** Who may do what: viewer reads; operator plans and runs repairs; commander overrides and marks. */
export const ROLES = ["viewer", "operator", "commander"] as const;
export type Role = (typeof ROLES)[number];

export interface Actor {
  id: string;
  role: Role;
}

export function hasRole(actor: Actor, needed: Role): boolean {
  return ROLES.indexOf(actor.role) >= ROLES.indexOf(needed);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
