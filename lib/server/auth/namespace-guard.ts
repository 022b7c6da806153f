import { parseNodeId } from "@/lib/domain/ids";
import { getDb } from "../repositories/database";
import { ForbiddenError } from "@/lib/domain/errors";
import { findIncident } from "../repositories/incidents/incidents";
import { holdsIn, type Actor } from "./roles";

/**
 * A role limited to namespaces holds only there: an operator of `orders` cannot open, plan, run or
 * close a repair of `meters`. An incident belongs to the namespaces of its failed tasks; opening
 * one, to its task's; a task's properties, to the task's. Tokens are checked item by item at
 * ingestion instead (ingestion/read-ingestion-batch.ts, parse-lineage-body.ts).
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
  const incident = /^\/api\/v1\/incidents\/[^/]+(\/|$)/.test(pathname);
  if (incident && typeof id === "string") {
    const found = await findIncident(getDb(), id);
    return found ? unique(found.failedPairs.map((p) => parseNodeId(p.nodeId)?.namespace)) : [];
  }
  if (pathname === "/api/v1/incidents") return unique([parseNodeId(String((body as { taskNodeId?: unknown } | undefined)?.taskNodeId ?? ""))?.namespace]);
  if (pathname.startsWith("/api/v1/tasks/") && typeof id === "string") return unique([parseNodeId(id)?.namespace ?? id.split("/")[0]]);
  return [];
}

function unique(xs: (string | undefined)[]): string[] {
  return [...new Set(xs.filter((x): x is string => !!x))].sort();
}
