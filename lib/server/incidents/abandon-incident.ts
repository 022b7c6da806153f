import type { Actor } from "../auth/roles";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { endIncident } from "./end-incident";
import { requireIncident } from "./require-incident";
import { recipientsFrom } from "../notify/incident-recipients";
import { deliverSoon, prepareNoticesForMove, queueNotices, toTell } from "../notify/queue-notices";

/** Abandons an incident with a reason (its recipients are told); a running repair must finish (or be interrupted) first. */
export async function abandonIncident(id: string, reason: string, actor: Actor, now = new Date(), db: Db = getDb()) {
  const incident = await requireIncident(db, id, "abandon");
  const notices = await prepareNoticesForMove(db, toTell(incident), recipientsFrom(db), { event: "abandoned", actor, now, closedReason: reason });
  const entry = await inTransaction(db, async (tx) => {
    const ended = await endIncident(tx, incident, "abandon", reason, actor, now);
    if (notices) await queueNotices(tx, id, notices(id), actor, now);
    return ended;
  });
  if (notices) deliverSoon();
  return { ok: true as const, auditSeq: entry.seq };
}
