import type { Actor } from "../auth/roles";
import type { AuditDraft } from "@/lib/contracts/audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { ConflictError, RefusedError } from "@/lib/domain/errors";
import { outstandingDeliveriesOf } from "../notify/delivery-guard";
import { recipientsFrom } from "../notify/incident-recipients";
import { deliverSoon, prepareNoticesForMove, queueNotices, toTell } from "../notify/queue-notices";
import { validateIncident } from "../repair/validate-incident";
import { endIncident } from "./end-incident";
import { requireIncident } from "./require-incident";
import { counted } from "@/lib/domain/words";

/**
 * Resolves an incident: only when validation passes now (recomputed here, not trusted from the
 * client), and no unit already delivered outside is left unsettled — neither delivered again
 * since the repair nor acknowledged by its consumer (the communication step's guard,
 * lib/domain/delivery-guard.ts; 409 naming each). The passing validation and the resolution are
 * both recorded. A commander passes either with a reasoned override (override-validation.ts).
 */
export async function resolveIncident(id: string, reason: string, actor: Actor, now = new Date(), db: Db = getDb()) {
  const incident = await requireIncident(db, id, "resolve");
  const v = await validateIncident(id, now, db);
  if (!v.passed) {
    const failing = v.units.filter((u) => !u.passed && !u.mark).map((u) => `${u.name} ${u.unitKey}: ${u.failures.join("; ")}`);
    throw new RefusedError(
      `cannot resolve while validation fails (${counted(failing.length, "unit")}): ${failing.slice(0, 5).join(" | ")}. A commander may override with a reason.`,
      { failing },
    );
  }
  const outstanding = await outstandingDeliveriesOf(db, incident, now);
  if (outstanding.length > 0)
    throw new ConflictError(
      `cannot resolve: ${outstanding.map((o) => o.words).join("; ")} — delivered outside and neither re-delivered since the repair nor acknowledged by its consumer. Re-deliver it, have its consumer acknowledge the notice, or a commander may override with a reason.`,
      { deliveries: outstanding.map((o) => o.words) },
    );
  const validated: AuditDraft = {
    kind: "validation.passed",
    actor: actor.id,
    actorRole: actor.role,
    reason: `${counted(v.units.length, "unit")} validated: in the ledger, published once, reconciled, not stale`,
    incidentId: id,
    targets: targetsOf(v.units),
    before: { status: incident.status },
    after: { status: "validating", units: v.units.length },
  };
  const notices = await prepareNoticesForMove(db, toTell(incident), recipientsFrom(db), { event: "resolved", actor, now, closedReason: reason });
  const entry = await inTransaction(db, async (tx) => {
    const ended = await endIncident(tx, incident, "resolve", reason, actor, now, [validated]);
    if (notices) await queueNotices(tx, id, notices(id), actor, now);
    return ended;
  });
  if (notices) deliverSoon();
  return { ok: true as const, auditSeq: entry.seq };
}

export function targetsOf(units: { datasetNodeId: string; unitKey: string }[]) {
  const by = new Map<string, string[]>();
  for (const u of units) by.set(u.datasetNodeId, [...(by.get(u.datasetNodeId) ?? []), u.unitKey]);
  return [...by].map(([nodeId, keys]) => ({ nodeId, units: keys }));
}
