import { describeTarget } from "../alerts/alert-config";
import { PlanOptionsSchema } from "@/lib/contracts/repair";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { getDb, type Db } from "../db/client";
import { HttpError, UnprocessableError, ConflictError } from "../http/errors";
import { requireIncident } from "../incidents/require-incident";
import { currentPlan } from "../repositories/repair-plans";
import { loadRepairContext } from "./load-repair-context";
import { planIncidentRepair } from "./plan-incident-repair";
import { toPlanView } from "./to-plan-view";

/** Where a plan is sent when the repair runs in the organisation's own orchestrator. */
export function dispatchEndpoint(): string | null {
  return process.env.REPARO_DISPATCH_URL?.trim() || null;
}

/**
 * Dispatch to an external orchestrator: the confirmed plan's export (Airflow clear requests,
 * Dagster backfills or the Databricks repair body) is POSTed as JSON to REPARO_DISPATCH_URL,
 * and the call is recorded with the status the orchestrator answered.
 */
export async function dispatchRepair(id: string, body: { orchestrator: "airflow" | "dagster" | "databricks"; reason: string }, actor: Actor, now = new Date(), db: Db = getDb()) {
  const endpoint = dispatchEndpoint();
  if (!endpoint) throw new UnprocessableError("no orchestrator endpoint is configured: set REPARO_DISPATCH_URL");
  const incident = await requireIncident(db, id, ["planned"]);
  const stored = await currentPlan(db, id);
  if (!stored) throw new ConflictError(`incident ${id} has no confirmed plan`);
  const ctx = await loadRepairContext(db, now);
  const view = await toPlanView(db, ctx, await planIncidentRepair(db, ctx, incident, PlanOptionsSchema.parse(stored.options)), incident.originRunId);
  const payload = view.exports[body.orchestrator];
  const requests = body.orchestrator === "airflow" ? ((payload as { requests: unknown[] }).requests.length) : Array.isArray(payload) ? payload.length : 1;
  let status: number;
  try {
    const res = await fetch(endpoint, { method: "POST", headers: { "content-type": "application/json", "x-reparo-incident": id, "x-reparo-orchestrator": body.orchestrator }, body: JSON.stringify(payload), signal: AbortSignal.timeout(15_000) });
    status = res.status;
  } catch (e) {
    throw new HttpError(502, "dispatch_failed", `the orchestrator at ${describeTarget(endpoint)} could not be reached: ${(e as Error).message}`);
  }
  const entry = await db.$transaction((tx) => appendAudit(tx, {
    kind: "repair.dispatched", actor: actor.id, actorRole: actor.role, reason: body.reason, incidentId: id,
    before: null, after: { orchestrator: body.orchestrator, endpoint: describeTarget(endpoint) ?? "", status, requests },
  }, now));
  if (status >= 400) throw new HttpError(502, "dispatch_refused", `the orchestrator answered ${status}; recorded as audit entry ${entry.seq}`);
  return { endpoint: describeTarget(endpoint) ?? "", status, requests };
}
