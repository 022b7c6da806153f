import type { Tx } from "../db/client";
import { hasRole, type Submitter } from "../auth/roles";
import { pairsHeldByOpenIncidents } from "../repositories/incidents";

/**
 * A unit an open incident holds (one of its failed task's units) turns published only through
 * the incident: its repair run, or a commander's mark-success with evidence (audited). A person
 * below commander cannot reach the same outcome by ingesting a publish or a COMPLETE event for it
 * (measured: an operator's POST /api/v1/publishes turned the failed stg_orders 2026-08-23
 * published with no audit entry). Machines (tokens) report what their orchestrator really ran —
 * that is how a repair in the team's own orchestrator lands — and are attributed.
 */
export function mayPublishHeldUnits(s: Submitter | undefined): boolean {
  return s === undefined || s.source === "token" || hasRole(s, "commander");
}

export interface Holder { id: string; title: string }

/** (task node id, unit) → the open incident holding it, for the given pairs. */
export async function holdersOf(tx: Tx, pairs: { taskNodeId: string; unitKey: string }[]): Promise<Map<string, Holder>> {
  const out = new Map<string, Holder>();
  if (pairs.length === 0) return out;
  const wanted = new Set(pairs.map((p) => heldKey(p.taskNodeId, p.unitKey)));
  for (const inc of await pairsHeldByOpenIncidents(tx)) {
    for (const pair of inc.failedPairs) for (const unit of pair.units) {
      const key = heldKey(pair.nodeId, unit);
      if (wanted.has(key) && !out.has(key)) out.set(key, { id: inc.id, title: inc.title });
    }
  }
  return out;
}

export const heldKey = (taskNodeId: string, unitKey: string) => `${taskNodeId}\u0000${unitKey}`;

export function heldMessage(s: Submitter, taskNodeId: string, unitKey: string, h: Holder): string {
  return `${taskNodeId} ${unitKey} is held by incident ${h.id} (${h.title}): only its repair or a commander's mark-success publishes it (${s.id}'s role is ${s.role})`;
}
