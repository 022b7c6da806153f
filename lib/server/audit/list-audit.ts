import { hasRole, type Actor } from "../auth/roles";
import type { AuditList, AuditListQuery } from "@/lib/contracts/audit";
import { getDb, type Db } from "../repositories/database";
import { listAuditRows } from "../repositories/audit/audit-log";
import { incidentStatusesOf } from "../repositories/incidents/incidents";

/** A page of the audit log, newest first, each entry with its incident as it stands now (title, status). */
/**
 * Who holds which role and which tokens exist (user.*, token.* entries) is read by admins only;
 * everyone else reads every other intervention.
 */
export const ACCESS_KINDS = ["user.added", "user.changed", "user.removed", "token.created", "token.revoked"] as const;

export async function listAudit(q: AuditListQuery, reader: Pick<Actor, "role">, db: Db = getDb()): Promise<AuditList> {
  const rows = await listAuditRows(db, q, hasRole(reader, "admin") ? [] : ACCESS_KINDS);
  const incidents = await incidentStatusesOf(
    db,
    rows.flatMap((e) => (e.incidentId ? [e.incidentId] : [])),
  );
  const entries = rows.map((e) => {
    const i = e.incidentId ? incidents.get(e.incidentId) : undefined;
    return { ...e, incident: e.incidentId && i ? { id: e.incidentId, ...i } : null };
  });
  return { entries, nextBefore: rows.length === q.limit ? rows[rows.length - 1]!.seq : null };
}
