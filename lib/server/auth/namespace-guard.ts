import { parseNodeId } from "@/lib/domain/ids";
import { getDb } from "../repositories/database";
import { ForbiddenError } from "@/lib/domain/errors";
import { findIncident } from "../repositories/incidents/incidents";
import { holdsIn, type Actor } from "./roles";

/**
 * A role limited to namespaces holds only there: an operator of `orders` cannot open, plan, run or
 * close a repair of `meters`. An incident belongs to the namespaces of its failed tasks; opening
 * one, to its task's; a task's properties, to the task's. Every task a body names (`taskNodeId`
 * at any depth: a declaration, a cleaning, a mark, a pair added to the scope, a replay) counts
 * too — through her own orders incident an orders operator once cleaned a meters table. Tokens
 * are checked item by item at ingestion instead (ingestion/read-ingestion-batch.ts, parse-lineage-body.ts).
 */
export async function requireNamespaces(actor: Actor, pathname: string, params: unknown, body: unknown): Promise<void> {
  if (actor.namespaces.length === 0 || actor.tokenScope) return;
  const touched = await namespacesTouched(pathname, params, body);
  const outside = touched.filter((ns) => !holdsIn(actor, ns));
  if (outside.length > 0) {
    throw new ForbiddenError(`${actor.id}'s ${actor.role} role holds in ${actor.namespaces.join(", ")} only; this concerns ${outside.join(", ")}`);
  }
}

async function namespacesTouched(pathname: string, params: unknown, body: unknown): Promise<string[]> {
  const id = (params as { id?: unknown } | undefined)?.id;
  const named = taskNodeIdsIn(body).map((nodeId) => namespaceOf(nodeId));
  const incident = /^\/api\/v1\/incidents\/[^/]+(\/|$)/.test(pathname);
  if (incident && typeof id === "string") {
    const found = await findIncident(getDb(), id);
    return unique([...(found ? found.failedPairs.map((p) => parseNodeId(p.nodeId)?.namespace) : []), ...named]);
  }
  if (pathname.startsWith("/api/v1/tasks/") && typeof id === "string") return unique([parseNodeId(id)?.namespace ?? id.split("/")[0], ...named]);
  return unique(named);
}

/** A node id's namespace; an id that does not parse stands for itself, so it is outside every namespace. */
function namespaceOf(nodeId: string): string {
  return parseNodeId(nodeId)?.namespace ?? nodeId;
}

/** Every `taskNodeId` string in a request body, at any depth (bodies are validated and bounded before this). */
export function taskNodeIdsIn(body: unknown, depth = 0): string[] {
  if (depth > 8 || body === null || typeof body !== "object") return [];
  if (Array.isArray(body)) return body.flatMap((item) => taskNodeIdsIn(item, depth + 1));
  return Object.entries(body).flatMap(([key, value]) => (key === "taskNodeId" && typeof value === "string" ? [value] : taskNodeIdsIn(value, depth + 1)));
}

function unique(xs: (string | undefined)[]): string[] {
  return [...new Set(xs.filter((x): x is string => !!x))].sort();
}
