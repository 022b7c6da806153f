import crypto from "node:crypto";
import type { AuditHead } from "@/lib/contracts/audit";
import { getDb, type Db } from "../repositories/database";
import { countAuditEntries, lastAuditEntry } from "../repositories/audit/audit-log";

/**
 * The audit chain's head, signed with the server's audit key (REPARO_AUDIT_KEY, ≥ 32 characters,
 * kept OUTSIDE the database: whoever can rewrite the table must not be able to sign a head).
 * Export heads regularly (`npm run audit:head`, GET /api/v1/audit/head) to storage the database's
 * writers cannot change; `audit:verify --head <file>` then detects truncation and re-hashing.
 */
export function auditKey(): { key: string; id: string } | null {
  const key = process.env.REPARO_AUDIT_KEY;
  if (!key) return null;
  if (key.length < 32) throw new Error("REPARO_AUDIT_KEY must be at least 32 characters");
  return { key, id: crypto.createHash("sha256").update(`reparo:audit-key-id:${key}`).digest("hex").slice(0, 16) };
}

function sign(key: string, h: Pick<AuditHead, "seq" | "hash" | "entries">): string {
  return crypto.createHmac("sha256", key).update(`reparo-audit-head:${h.seq}:${h.hash}:${h.entries}`).digest("hex");
}

export async function currentAuditHead(db: Db = getDb(), now = new Date()): Promise<AuditHead | null> {
  const last = await lastAuditEntry(db);
  if (!last) return null;
  const entries = await countAuditEntries(db);
  const k = auditKey();
  const h = { seq: last.seq, hash: last.hash, entries };
  return { ...h, exportedAt: now.toISOString(), signature: k ? sign(k.key, h) : null, keyId: k?.id ?? null };
}

/** Why an exported head cannot be trusted, or null when its signature holds. */
export function checkHeadSignature(head: AuditHead): string | null {
  const k = auditKey();
  if (!head.signature) return "the exported head is unsigned (no REPARO_AUDIT_KEY when it was exported)";
  if (!k) return "REPARO_AUDIT_KEY is not set: the exported head's signature cannot be checked";
  if (head.keyId !== k.id) return `the exported head was signed with another key (${head.keyId})`;
  const expected = Buffer.from(sign(k.key, head), "hex");
  const given = Buffer.from(head.signature, "hex");
  return expected.length === given.length && crypto.timingSafeEqual(expected, given) ? null : "the exported head's signature does not match: it was altered";
}
