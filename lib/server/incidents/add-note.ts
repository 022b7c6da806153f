import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { requireIncident } from "./require-incident";

export async function addNote(id: string, note: string, actor: Actor, db: Db = getDb()) {
  await requireIncident(db, id, "add_note");
  const entry = await inTransaction(db, (tx) =>
    appendAudit(tx, { kind: "note.added", actor: actor.id, actorRole: actor.role, reason: note, incidentId: id, before: null, after: { note } }),
  );
  return { ok: true as const, auditSeq: entry.seq };
}
