import { z } from "zod";
import { AuditTargetSchema, type AuditEntryView, type AuditListQuery, type AuditTarget } from "@/lib/contracts/audit";
import { providerOf, type Db, type Tx } from "../database";
import { prismaOf } from "../prisma-handle";

/**
 * The audit log's only repository. Deliberately no update and no delete: the log is
 * append-only, and audit-log.append-only.test.ts fails the build if such a path appears.
 */
export interface AuditRow {
  kind: string;
  actor: string;
  actorRole: string;
  at: Date;
  reason: string;
  incidentId: string | null;
  targets: AuditTarget[];
  before: unknown;
  after: unknown;
  prevHash: string;
  hash: string;
}

type Stored = {
  seq: number;
  kind: string;
  actor: string;
  actorRole: string;
  at: Date;
  reason: string;
  incidentId: string | null;
  targets: string;
  before: string;
  after: string;
  prevHash: string;
  hash: string;
};

const TargetsSchema = z.array(AuditTargetSchema);

/** The one reading of an entry's `targets` column: JSON [{ nodeId, units }], as appendAudit wrote it. */
function parseTargets(json: string): AuditTarget[] {
  return TargetsSchema.parse(JSON.parse(json));
}

export function toView(r: Stored): AuditEntryView {
  return {
    seq: r.seq,
    kind: r.kind,
    actor: r.actor,
    actorRole: r.actorRole,
    at: r.at.toISOString(),
    reason: r.reason,
    incidentId: r.incidentId,
    targets: parseTargets(r.targets),
    before: JSON.parse(r.before),
    after: JSON.parse(r.after),
    prevHash: r.prevHash,
    hash: r.hash,
  };
}

export async function lastAuditHash(tx: Tx): Promise<string | null> {
  const last = await prismaOf(tx).auditEntry.findFirst({ orderBy: { seq: "desc" }, select: { hash: true } });
  return last?.hash ?? null;
}

export async function insertAuditRow(tx: Tx, row: AuditRow): Promise<AuditEntryView> {
  const created = await prismaOf(tx).auditEntry.create({
    data: { ...row, targets: JSON.stringify(row.targets), before: JSON.stringify(row.before ?? null), after: JSON.stringify(row.after ?? null) },
  });
  return toView(created);
}

/** Newest first, filtered; `before` pages by seq. */
/** `hideKinds`: entries of these kinds are left out (who has access is for admins to read). */
export async function listAuditRows(db: Db, q: AuditListQuery, hideKinds: readonly string[] = []): Promise<AuditEntryView[]> {
  const rows = await prismaOf(db).auditEntry.findMany({
    where: {
      ...(q.kind ? { kind: q.kind } : {}),
      ...(hideKinds.length > 0 ? { NOT: { kind: { in: [...hideKinds] } } } : {}),
      ...(q.actor ? { actor: q.actor } : {}),
      ...(q.incidentId ? { incidentId: q.incidentId } : {}),
      ...(q.before ? { seq: { lt: q.before } } : {}),
    },
    orderBy: { seq: "desc" },
    take: q.limit,
  });
  return rows.map(toView);
}

/**
 * The stored entries in chain order, a page at a time (for verification). Read as stored, not
 * through the schema: a tampered entry must hash differently, not be normalised back.
 */
export async function auditRowsAfter(db: Db, afterSeq: number, take: number): Promise<(AuditRow & { seq: number })[]> {
  const rows = await prismaOf(db).auditEntry.findMany({ where: { seq: { gt: afterSeq } }, orderBy: { seq: "asc" }, take });
  return rows.map((r) => ({ ...r, targets: JSON.parse(r.targets) as AuditTarget[], before: JSON.parse(r.before), after: JSON.parse(r.after) }));
}

/** The chain's newest entry (seq and hash) and the number of entries, for the signed head. */
export async function lastAuditEntry(db: Db): Promise<{ seq: number; hash: string } | null> {
  return prismaOf(db).auditEntry.findFirst({ orderBy: { seq: "desc" }, select: { seq: true, hash: true } });
}

export async function countAuditEntries(db: Db): Promise<number> {
  return prismaOf(db).auditEntry.count();
}

/** The incident each of these audit entries belongs to (null: none), by seq. */
export async function incidentsOfEntries(db: Db | Tx, seqs: readonly number[]): Promise<Map<number, string | null>> {
  if (seqs.length === 0) return new Map();
  const rows = await prismaOf(db).auditEntry.findMany({ where: { seq: { in: [...new Set(seqs)] } }, select: { seq: true, incidentId: true } });
  return new Map(rows.map((r) => [r.seq, r.incidentId]));
}

// Any constant: every append takes the same transaction-scoped advisory lock on PostgreSQL.
const AUDIT_LOCK = 7_310_006;

/**
 * Serializes appends so two transactions never chain to the same predecessor: on PostgreSQL an
 * advisory lock held until commit; on SQLite the write transaction is already exclusive.
 */
export async function lockAuditChain(tx: Tx): Promise<void> {
  if (providerOf(tx) === "postgresql") await prismaOf(tx).$queryRawUnsafe(`SELECT pg_advisory_xact_lock(${AUDIT_LOCK})::text AS locked`);
}

export interface AuditEntryRecord {
  seq: number;
  kind: string;
  actor: string;
  at: Date;
  reason: string;
  targets: AuditTarget[];
}

/** Audit entries whose targets mention any of the node ids (the caller narrows to the unit). */
export async function auditEntriesNaming(db: Db, nodeIds: string[]): Promise<AuditEntryRecord[]> {
  const rows = await prismaOf(db).auditEntry.findMany({
    where: { OR: nodeIds.map((id) => ({ targets: { contains: id } })) },
    orderBy: { seq: "asc" },
    select: { seq: true, kind: true, actor: true, at: true, reason: true, targets: true },
  });
  return rows.map((r) => ({ ...r, targets: parseTargets(r.targets) }));
}
