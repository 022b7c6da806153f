import { AuditDraftSchema, type AuditDraft, type AuditEntryView } from "@/lib/contracts/audit";
import type { Tx } from "../repositories/database";
import { insertAuditRow, lastAuditHash, lockAuditChain } from "../repositories/audit/audit-log";
import { GENESIS_HASH, hashAuditEntry } from "./hash-audit-entry";

/**
 * Appends one intervention to the audit log INSIDE the caller's transaction, so the change and
 * its record commit together or not at all. The entry is chained to the previous one by hash.
 * Appends are serialized so two transactions never chain to the same predecessor: on
 * PostgreSQL by an advisory lock held until commit; on SQLite the write transaction is
 * already exclusive (callers write their change first, which takes the write lock).
 */
export async function appendAudit(tx: Tx, draft: AuditDraft, at: Date = new Date()): Promise<AuditEntryView> {
  // Text is hashed as the database will store and read it back: a lone UTF-16 surrogate (which
  // SQLite stores as U+FFFD) is replaced first, so such an entry verifies like any other.
  const parsed = wellFormed(AuditDraftSchema.parse(draft)) as AuditDraft;
  await lockAuditChain(tx);
  const prevHash = (await lastAuditHash(tx)) ?? GENESIS_HASH;
  const row = {
    kind: parsed.kind,
    actor: parsed.actor,
    actorRole: parsed.actorRole,
    at,
    reason: parsed.reason.trim(),
    incidentId: parsed.incidentId ?? null,
    targets: parsed.targets ?? [],
    before: parsed.before ?? null,
    after: parsed.after ?? null,
    prevHash,
  };
  return insertAuditRow(tx, { ...row, hash: hashAuditEntry(row) });
}

const LONE_SURROGATES = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const wellFormedText = (s: string) => s.replace(LONE_SURROGATES, "\ufffd");

function wellFormed(v: unknown): unknown {
  if (typeof v === "string") return wellFormedText(v);
  if (Array.isArray(v)) return v.map(wellFormed);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [wellFormedText(k), wellFormed(x)]));
  return v;
}
