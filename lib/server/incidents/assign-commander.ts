import { ConflictError, InvalidFieldError } from "@/lib/domain/errors";
import { hasRole, type Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { findUser } from "../repositories/access/users";
import { writeIncidentCommander } from "../repositories/incidents/incidents";
import { requireIncident } from "./require-incident";

/**
 * Hands the incident to a commander (POST /api/v1/incidents/{id}/commander): a registered person
 * who can act on it (an operator or above — a viewer could not run the repair they command). The
 * opener commands until someone is assigned. The change and its `incident.commander_set` entry
 * commit together; the reason is optional (taking over is routine) and recorded when given.
 */
export async function assignCommander(id: string, body: { userId: string; reason?: string }, actor: Actor, now = new Date(), db: Db = getDb()) {
  const incident = await requireIncident(db, id, "assign");
  const user = await findUser(db, body.userId);
  if (!user) throw new InvalidFieldError("body.userId", `no user ${body.userId}: add them first (npm run users -- add, or /settings/access)`);
  if (!hasRole(user, "operator")) throw new InvalidFieldError("body.userId", `${user.id} is a ${user.role}: a commander must be an operator or above`);
  const before = incident.commander ?? incident.openedBy;
  const entry = await inTransaction(db, async (tx) => {
    if (!(await writeIncidentCommander(tx, id, user.id))) throw new ConflictError(`incident ${id} closed meanwhile; reload it`);
    return appendAudit(
      tx,
      {
        kind: "incident.commander_set",
        actor: actor.id,
        actorRole: actor.role,
        reason: body.reason?.trim() || `${user.id} commands the incident`,
        incidentId: id,
        before: { commander: before },
        after: { commander: user.id },
      },
      now,
    );
  });
  return { ok: true as const, auditSeq: entry.seq };
}
