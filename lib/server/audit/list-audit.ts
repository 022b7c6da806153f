import type { AuditList, AuditListQuery } from "@/lib/contracts/audit";
import { getDb, type Db } from "../repositories/database";
import { listAuditRows } from "../repositories/audit/audit-log";
import { incidentStatusesOf } from "../repositories/incidents/incidents";

/** A page of the audit log, newest first, each entry with its incident as it stands now (title, status). */
export async function listAudit(q: AuditListQuery, db: Db = getDb()): Promise<AuditList> {
  const rows = await listAuditRows(db, q);
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
