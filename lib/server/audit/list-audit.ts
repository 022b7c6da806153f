import type { AuditList, AuditListQuery } from "@/lib/contracts/audit";
import { getDb, type Db } from "../repositories/database";
import { listAuditRows } from "../repositories/audit/audit-log";

export async function listAudit(q: AuditListQuery, db: Db = getDb()): Promise<AuditList> {
  const entries = await listAuditRows(db, q);
  return { entries, nextBefore: entries.length === q.limit ? entries[entries.length - 1]!.seq : null };
}
