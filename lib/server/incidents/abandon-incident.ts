import type { Actor } from "../auth/roles";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { endIncident } from "./end-incident";
import { requireIncident } from "./require-incident";

/** Abandons an incident with a reason; a running repair must finish (or be interrupted) first. */
export async function abandonIncident(id: string, reason: string, actor: Actor, now = new Date(), db: Db = getDb()) {
  const incident = await requireIncident(db, id, "abandon");
  const entry = await inTransaction(db, (tx) => endIncident(tx, incident, "abandon", reason, actor, now));
  return { ok: true as const, auditSeq: entry.seq };
}
