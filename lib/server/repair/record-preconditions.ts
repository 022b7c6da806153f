import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { requireIncident } from "../incidents/require-incident";
import { getPreconditions } from "./get-preconditions";

/** Records that the operator reviewed the preconditions, and which tasks were unsafe or unknown then. */
export async function recordPreconditions(id: string, reason: string, actor: Actor, now = new Date(), db: Db = getDb()) {
  const incident = await requireIncident(db, id, "review_preconditions");
  const view = await getPreconditions(id, now, db);
  const list = (v: string) => view.tasks.flatMap((t) => t.checks.filter((c) => c.verdict === v).map((c) => `${t.name}: ${c.key}`));
  const entry = await inTransaction(db, (tx) =>
    appendAudit(
      tx,
      {
        kind: "preconditions.reviewed",
        actor: actor.id,
        actorRole: actor.role,
        reason,
        incidentId: id,
        before: { status: incident.status },
        after: { unsafe: list("unsafe"), unknown: list("unknown") },
      },
      now,
    ),
  );
  return { ok: true as const, auditSeq: entry.seq };
}
