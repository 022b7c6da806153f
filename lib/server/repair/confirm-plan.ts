import { nodeName } from "@/lib/domain/ids";
import { RECOMPUTING, type Strategy } from "@/lib/domain/repair-strategies";
import type { PlanOptions } from "@/lib/contracts/repair";
import { hasRole, type Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { ForbiddenError, RefusedError } from "@/lib/domain/errors";
import { requireIncident } from "../incidents/require-incident";
import { moveIncident } from "../incidents/move-incident";
import { confirmPlanRow } from "../repositories/repair/repair-plans";
import { timedWaves } from "./plan-eta";
import { loadRepairContext } from "./load-repair-context";
import { planIncidentRepair } from "./plan-incident-repair";
import { toPlanView } from "./to-plan-view";
import { recipientsFrom } from "../notify/incident-recipients";
import { deliverSoon, prepareNoticesForMove, queueNotices, toTell } from "../notify/queue-notices";

/**
 * Plan → preview → confirm: the plan is recomputed on the server from the same options (never
 * trusted from the client), refused with its blockers when not runnable, and stored with the
 * decision (strategy, exclusions, overrides, reason) in the audit log. Replaying a side-effecting
 * task re-sends what the world cannot un-receive (an export, a payment): a commander decides it,
 * as a mark of success is theirs; an operator confirms every other plan.
 */
export async function confirmPlan(id: string, opts: PlanOptions & { strategy: Strategy; reason: string }, actor: Actor, now = new Date(), db: Db = getDb()) {
  if (opts.replay.length > 0 && !hasRole(actor, "commander"))
    throw new ForbiddenError(
      `body.replay: replaying ${opts.replay.map((r) => nodeName(r.taskNodeId as never)).join(", ")} re-sends its side effect: a commander confirms it (${actor.id} is ${actor.role === "admin" ? "an" : "a"} ${actor.role})`,
    );
  const incident = await requireIncident(db, id, "confirm_plan");
  if (!RECOMPUTING.has(opts.strategy))
    throw new RefusedError(`${opts.strategy} recomputes nothing: record it with a mark (known-bad, skip or success) instead of a plan`);
  const ctx = await loadRepairContext(db, now);
  const plan = await planIncidentRepair(db, ctx, incident, opts);
  if (!plan.runnable)
    throw new RefusedError(`the plan is blocked: ${plan.blockers.map((b) => b.message).join(" ")}`, {
      blockers: plan.blockers.map((b) => ({ code: b.code, message: b.message })),
    });
  const view = await toPlanView(db, ctx, plan, incident.originRunId);
  const { exports: _exports, options: _options, ...stored } = view;
  void _exports;
  void _options;
  // The ETA told with the plan: its waves timed from their tasks' recent attempts, as if launched now.
  const eta = await timedWaves(db, stored.waves, now);
  const notices = await prepareNoticesForMove(db, toTell(incident), recipientsFrom(db), {
    event: "plan_confirmed",
    actor,
    now,
    plan: { strategy: opts.strategy, waves: plan.waves.length, unitsRecomputed: plan.cost.unitsRecomputed, etaAt: eta.at, etaBasis: eta.basis },
  });
  const entry = await inTransaction(db, async (tx) => {
    await moveIncident(tx, incident, "confirm_plan");
    const row = await confirmPlanRow(tx, { incidentId: id, strategy: opts.strategy, options: opts, plan: stored, createdBy: actor.id });
    const targets = plan.waves.flat().map((p) => ({ nodeId: p.task, units: p.keyRanges.map(([a, b]) => (a === b ? a : `${a}..${b}`)) }));
    const confirmed = await appendAudit(
      tx,
      {
        kind: "plan.confirmed",
        actor: actor.id,
        actorRole: actor.role,
        reason: opts.reason,
        incidentId: id,
        targets,
        before: { status: incident.status },
        after: {
          status: "planned",
          planId: row.id,
          strategy: opts.strategy,
          unitsRecomputed: plan.cost.unitsRecomputed,
          excluded: plan.excluded.map((e) => nodeName(e.task)),
          parameterOverrides: { ...plan.parameterOverrides },
          replay: opts.replay.map((r) => ({ taskNodeId: r.taskNodeId, idempotencyKey: r.idempotencyKey })),
        },
      },
      now,
    );
    if (notices) await queueNotices(tx, id, notices(id), actor, now);
    return confirmed;
  });
  if (notices) deliverSoon();
  return { ok: true as const, auditSeq: entry.seq };
}
