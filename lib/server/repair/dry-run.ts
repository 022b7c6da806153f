import crypto from "node:crypto";
import { nodeName, type NodeId } from "@/lib/domain/ids";
import type { DispatchPreview } from "@/lib/contracts/orchestrators";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import type { PlanOptions } from "@/lib/contracts/repair";
import { ConflictError, RefusedError, UpstreamFailedError } from "@/lib/domain/errors";
import { requireIncident } from "../incidents/require-incident";
import { OrchestratorError, type OrchestratorCall } from "../orchestrators/port";
import { currentPlan } from "../repositories/repair/repair-plans";
import type { DispatchGroup } from "./dispatch-groups";
import { launchablePairs, planPairs, repairGroups } from "./launch-input";
import { loadRepairContext } from "./load-repair-context";
import { planIncidentRepair } from "./plan-incident-repair";
import { counted } from "@/lib/domain/words";

/**
 * What the pipelines' orchestrators would run for the repair — each one's own dry run where it
 * has one (Airflow's clearTaskInstances with dry_run: true) — against the plan: the requests
 * that will be sent, the planned tasks no request can cover, what the dry runs would run
 * beyond the plan (side-effecting tasks flagged) and the planned pairs they would not run.
 * `digest` fingerprints all of it: the launch is refused if the answer changed since.
 */
export async function dryRun(groups: readonly DispatchGroup[]): Promise<{ preview: DispatchPreview; digest: string }> {
  const preview: Omit<DispatchPreview, "digest" | "dispatchable"> = { requests: [], unsupported: [], extra: [], missing: [], calls: [] };
  const name = (t: string) => nodeName(t as NodeId);
  for (const g of groups) {
    if (!g.orchestrator) {
      const byTask = new Map<string, string[]>();
      for (const p of g.plan.pairs) byTask.set(p.taskNodeId, [...(byTask.get(p.taskNodeId) ?? []), p.unitKey]);
      const reason = `pipeline ${g.pipeline} has no orchestrator connection`;
      for (const [taskNodeId, units] of byTask) preview.unsupported.push({ taskNodeId, name: name(taskNodeId), pipeline: g.pipeline, units, reason });
      continue;
    }
    let result;
    try {
      result = await g.orchestrator.preview(g.plan);
    } catch (e) {
      if (!(e instanceof OrchestratorError)) throw e;
      preview.calls.push(view(e.call));
      throw Object.assign(new UpstreamFailedError(`the dry run of pipeline ${g.pipeline} failed: ${e.message}`, { calls: preview.calls }), {
        code: "dry_run_failed",
      });
    }
    preview.requests.push(...result.requests);
    preview.unsupported.push(
      ...result.unsupported.map((u) => ({ taskNodeId: u.taskNodeId, name: name(u.taskNodeId), pipeline: g.pipeline, units: [...u.units], reason: u.reason })),
    );
    preview.extra.push(...result.extra.map((x) => ({ ...x })));
    preview.missing.push(...result.missing.map((p) => ({ taskNodeId: p.taskNodeId, name: name(p.taskNodeId), unitKey: p.unitKey })));
    preview.calls.push(...result.calls.map(view));
  }
  const digest = crypto
    .createHash("sha256")
    .update(JSON.stringify([preview.requests, preview.unsupported, preview.extra, preview.missing]))
    .digest("hex")
    .slice(0, 32);
  return { preview: { ...preview, digest, dispatchable: preview.unsupported.length === 0 }, digest };
}

const view = (c: OrchestratorCall) => ({ orchestrator: c.orchestrator, method: c.method, url: c.url, status: c.status, error: c.error ?? null });

/** The dry-run step of a confirmed plan (POST /api/v1/incidents/{id}/dry-run), audited with every request it sent. */
export async function previewDispatch(id: string, body: { resume: boolean }, actor: Actor, now = new Date(), db: Db = getDb()): Promise<DispatchPreview> {
  const incident = await requireIncident(db, id, "dry_run");
  const stored = await currentPlan(db, id);
  if (stored?.status !== "confirmed") throw new ConflictError(`incident ${id} has no confirmed plan: confirm one first`);
  const { ctx, pairs, options, plan } = await launchablePairs(db, incident, stored, body.resume, now);
  const groups = await repairGroups(db, ctx, id, pairs, options, plan, incident.originRunId);
  return recordPreview(db, id, actor, await dryRun(groups), "the confirmed plan", now);
}

/**
 * The same dry run for the plan the Plan step shows, before it is confirmed (POST
 * /api/v1/incidents/{id}/plan/dry-run): the operator sees what each orchestrator would run beyond
 * or short of the plan while still choosing it. Its digest is the one the launch checks, so a
 * plan confirmed with these options launches on this review while the orchestrators' answer holds.
 * A blocked plan dispatches nothing, so it has no dry run.
 */
export async function previewPlanDispatch(id: string, opts: PlanOptions, actor: Actor, now = new Date(), db: Db = getDb()): Promise<DispatchPreview> {
  const incident = await requireIncident(db, id, "dry_run_plan");
  const ctx = await loadRepairContext(db, now);
  const plan = await planIncidentRepair(db, ctx, incident, opts);
  if (plan.blockers.length > 0) throw new RefusedError(`the plan is blocked, so nothing would be dispatched: ${plan.blockers.map((b) => b.message).join(" ")}`);
  const groups = await repairGroups(db, ctx, id, planPairs(ctx, plan), opts, plan, incident.originRunId);
  return recordPreview(db, id, actor, await dryRun(groups), "the plan before confirming it", now);
}

/** The dry run's audit entry: counts, the digest and every call it sent (never a secret). */
export async function recordPreview(
  db: Db,
  id: string,
  actor: Actor,
  { preview, digest }: Awaited<ReturnType<typeof dryRun>>,
  what: string,
  now: Date,
): Promise<DispatchPreview> {
  await inTransaction(db, (tx) =>
    appendAudit(
      tx,
      {
        kind: "repair.previewed",
        actor: actor.id,
        actorRole: actor.role,
        incidentId: id,
        reason: `dry run of ${what}: ${counted(preview.requests.length, "request")}, ${preview.extra.length} beyond the plan, ${counted(preview.missing.length, "planned pair")} not covered, ${counted(preview.unsupported.length, "task")} unsupported`,
        before: null,
        after: {
          digest,
          requests: preview.requests.length,
          unsupported: preview.unsupported.length,
          extra: preview.extra.length,
          extraSideEffects: preview.extra.filter((x) => x.sideEffect).length,
          missing: preview.missing.length,
          calls: preview.calls.map((c) => ({
            orchestrator: c.orchestrator,
            method: c.method,
            url: c.url,
            status: c.status,
            ...(c.error ? { error: c.error } : {}),
            dryRun: true,
          })),
        },
      },
      now,
    ),
  );
  return preview;
}
