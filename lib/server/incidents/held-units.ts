import { compositeKey } from "@/lib/domain/composite-key";
import type { Tx } from "../repositories/database";
import { hasRole, type Submitter } from "../auth/roles";
import { ForbiddenError } from "@/lib/domain/errors";
import { outputsOfTasks, pairsHeldByOpenIncidents } from "../repositories/incidents/incidents";

/**
 * A unit an open incident holds (a unit of what one of its failed tasks writes) turns published
 * only through the incident: its repair run, or a commander's mark-success with evidence
 * (audited). A person below commander cannot reach the same outcome by ingesting a publish, a
 * COMPLETE event or dbt run results for it — whatever job name they give it, since a unit's state
 * comes from its dataset's publishes (measured: an operator's POST /api/v1/publishes turned the
 * failed stg_orders 2026-08-23 published with no audit entry). Machines (tokens) report what their
 * orchestrator really ran — that is how a repair in the team's own orchestrator lands — and are attributed.
 */
export function mayPublishHeldUnits(s: Submitter | undefined): boolean {
  return s === undefined || s.source === "token" || hasRole(s, "commander");
}

export interface Holder {
  id: string;
  title: string;
  taskNodeId: string;
}

/** Every held (dataset, unit), by dataset id and by dataset node id. */
export async function heldDatasetUnits(tx: Tx): Promise<Map<string, Holder>> {
  const out = new Map<string, Holder>();
  const incidents = await pairsHeldByOpenIncidents(tx);
  if (incidents.length === 0) return out;
  const outputs = await outputsOfTasks(tx, [...new Set(incidents.flatMap((i) => i.failedPairs.map((p) => p.nodeId)))]);
  for (const inc of incidents)
    for (const pair of inc.failedPairs)
      for (const d of outputs.get(pair.nodeId) ?? [])
        for (const unit of pair.units) {
          const holder = { id: inc.id, title: inc.title, taskNodeId: pair.nodeId };
          for (const key of [heldKey(d.id, unit), heldKey(d.nodeId, unit)]) if (!out.has(key)) out.set(key, holder);
        }
  return out;
}

export const heldKey = (dataset: string, unitKey: string) => compositeKey(dataset, unitKey);

export function heldMessage(s: Submitter, datasetNodeId: string, unitKey: string, h: Holder): string {
  return `${datasetNodeId} ${unitKey} is held by incident ${h.id} (${h.title}, ${h.taskNodeId}): only its repair or a commander's mark-success publishes it (${s.id}'s role is ${s.role})`;
}

/** For writes that are all or nothing (events, dbt run results): the first held unit refuses the request, 403. */
export async function refuseHeldPublishes(
  tx: Tx,
  rows: { datasetId: string; unitKey: string }[],
  submitter: Submitter | undefined,
  nodeIdOf: (datasetId: string) => string,
): Promise<void> {
  if (mayPublishHeldUnits(submitter) || rows.length === 0) return;
  const held = await heldDatasetUnits(tx);
  for (const r of rows) {
    const h = held.get(heldKey(r.datasetId, r.unitKey));
    if (h) throw new ForbiddenError(heldMessage(submitter!, nodeIdOf(r.datasetId), r.unitKey, h));
  }
}

/**
 * For writes made again from what a sender sent earlier (a refold after a definition changed):
 * the publishes that sender may not make now, because an open incident holds their units. They
 * are left out rather than refusing the whole refold — the declaration is someone else's act.
 */
export async function heldFromSubmitter(tx: Tx, rows: { datasetId: string; unitKey: string }[], submitter: Submitter | undefined): Promise<Set<string>> {
  if (mayPublishHeldUnits(submitter) || rows.length === 0) return new Set();
  const held = await heldDatasetUnits(tx);
  return new Set(rows.map((r) => heldKey(r.datasetId, r.unitKey)).filter((k) => held.has(k)));
}
