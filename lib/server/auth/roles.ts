/**
 * Who may do what: viewer reads; operator plans and runs repairs; commander overrides and marks;
 * admin also manages people, machine tokens and connections. Each role includes the ones before it.
 */
export const ROLES = ["viewer", "operator", "commander", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** How the console knows who is asking. */
/** `system`: Reparo itself acting on a rule someone turned on (incidents opened for you). */
export type ActorSource = "session" | "proxy" | "demo" | "token" | "cli" | "anonymous" | "system";

export interface Actor {
  id: string;
  role: Role;
  source: ActorSource;
  /** Namespaces the role holds in; empty = every namespace. */
  namespaces: readonly string[];
  /** A machine token's scope: it may call only the routes that accept this scope. */
  tokenScope?: TokenScope;
}

export const TOKEN_SCOPES = ["ingest", "declare"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export function hasRole(actor: Pick<Actor, "role">, needed: Role): boolean {
  return ROLES.indexOf(actor.role) >= ROLES.indexOf(needed);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Whether the actor's role holds in a namespace (a pipeline's or a dataset's). */
export function holdsIn(actor: Pick<Actor, "namespaces">, namespace: string): boolean {
  return actor.namespaces.length === 0 || actor.namespaces.includes(namespace);
}

export const ANONYMOUS: Actor = { id: "anonymous", role: "viewer", source: "anonymous", namespaces: [] };

/** Routes that cannot check namespaces item by item refuse a namespace-limited token outright. */
export function namespaceLimitedRefusal(actor: Actor, what: string): string | null {
  return actor.namespaces.length > 0
    ? `${actor.id} is limited to namespaces ${actor.namespaces.join(", ")}: ${what} needs a token or a role for every namespace (a namespace-limited token or person sends lineage events, publishes and source counts)`
    : null;
}

/** Who sends ingested data: the request's actor, as the ingestion use cases need it. */
export type Submitter = Pick<Actor, "id" | "role" | "source" | "namespaces">;
