import type { AuditDraft } from "@/lib/contracts/audit";
import { counted } from "@/lib/domain/words";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { RefusedError } from "@/lib/domain/errors";
import { validateIncident } from "../repair/validate-incident";
import { endIncident } from "./end-incident";
import { moveIncident } from "./move-incident";
import { requireIncident } from "./require-incident";
import { targetsOf } from "./resolve-incident";
import { outstandingDeliveriesOf } from "../notify/delivery-guard";
import { recipientsFrom } from "../notify/incident-recipients";
import { deliverSoon, prepareNoticesForMove, queueNotices, toTell } from "../notify/queue-notices";

/**
 * Resolves despite what holds the resolve — failing validation, a unit delivered outside that is
 * neither re-delivered nor acknowledged (the communication step's guard) — a commander's reasoned
 * override, itself an intervention: each hold passed is its own entry (`validation.overridden`,
 * `deliveries.overridden`). Past deliveries alone, with validation passing, the incident resolves
 * as a resolve does (`validation.passed`, `incident.resolved`), the override recorded between.
 */
export async function overrideValidation(id: string, reason: string, actor: Actor, now = new Date(), db: Db = getDb()) {
  const incident = await requireIncident(db, id, "override_validation");
  const v = await validateIncident(id, now, db);
  const failing = v.units.filter((u) => !u.passed && !u.mark);
  const outstanding = await outstandingDeliveriesOf(db, incident, now);
  if (failing.length === 0 && outstanding.length === 0)
    throw new RefusedError("validation passes and every delivery outside is settled: resolve the incident instead of overriding");
  const what = [failing.length ? "validation" : null, outstanding.length ? "unacknowledged deliveries" : null].filter(Boolean).join(" and ");
  const closedReason = `${what} overridden: ${reason}`;
  const notices = await prepareNoticesForMove(db, toTell(incident), recipientsFrom(db), { event: "resolved", actor, now, closedReason });
  const who = { actor: actor.id, actorRole: actor.role, reason, incidentId: id };
  const deliveries: AuditDraft | null = outstanding.length
    ? {
        kind: "deliveries.overridden",
        ...who,
        targets: outstanding.map((o) => ({ nodeId: o.nodeIds[0]!, units: [o.unitKey] })),
        before: { unacknowledged: outstanding.map((o) => o.words) },
        after: { status: "resolved" },
      }
    : null;
  const entry = await inTransaction(db, async (tx) => {
    let last;
    if (failing.length === 0) {
      const validated: AuditDraft = {
        kind: "validation.passed",
        ...who,
        reason: `${counted(v.units.length, "unit")} validated: in the ledger, published once, reconciled, not stale`,
        targets: targetsOf(v.units),
        before: { status: incident.status },
        after: { status: "validating", units: v.units.length },
      };
      last = await endIncident(tx, incident, "resolve", closedReason, actor, now, [validated, deliveries!]);
    } else {
      await moveIncident(tx, incident, "override_validation", { resolvedAt: now, closedReason });
      if (deliveries) await appendAudit(tx, deliveries, now);
      last = await appendAudit(
        tx,
        {
          kind: "validation.overridden",
          ...who,
          targets: targetsOf(failing),
          before: { failedUnits: failing.map((u) => `${u.name} ${u.unitKey}`) },
          after: { status: "resolved" },
        },
        now,
      );
    }
    if (notices) await queueNotices(tx, id, notices(id), actor, now);
    return last;
  });
  if (notices) deliverSoon();
  return { ok: true as const, auditSeq: entry.seq };
}
