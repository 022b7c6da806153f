import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { moveIncident } from "./move-incident";
import { requireIncident } from "./require-incident";

/** Abandons an incident with a reason; a running repair must finish (or be interrupted) first. */
export async function abandonIncident(id: string, reason: string, actor: Actor, now = new Date(), db: Db = getDb()) {
  const incident = await requireIncident(db, id, "abandon");
  const entry = await inTransaction(db, async (tx) => {
    await moveIncident(tx, incident, "abandon", { resolvedAt: now, closedReason: reason });
    return appendAudit(
      tx,
      {
        kind: "incident.abandoned",
        actor: actor.id,
        actorRole: actor.role,
        reason,
        incidentId: id,
        targets: incident.failedPairs,
        before: { status: incident.status },
        after: { status: "abandoned" },
      },
      now,
    );
  });
  return { ok: true as const, auditSeq: entry.seq };
}
