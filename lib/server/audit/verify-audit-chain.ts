import type { AuditVerify } from "@/lib/contracts/audit";
import { getDb, type Db } from "../db/client";
import { auditRowsAfter } from "../repositories/audit-log";
import { GENESIS_HASH, hashAuditEntry } from "./hash-audit-entry";

const PAGE = 1000;

/**
 * Recomputes every entry's hash in order and checks each links to its predecessor. The first
 * mismatch is reported with its seq: an edited field, a removed entry or a reordering.
 */
export async function verifyAuditChain(db: Db = getDb()): Promise<AuditVerify> {
  let prev = GENESIS_HASH;
  let after = 0;
  let count = 0;
  for (;;) {
    const page = await auditRowsAfter(db, after, PAGE);
    for (const row of page) {
      if (row.prevHash !== prev) return { ok: false, entries: count, headHash: prev, brokenAt: { seq: row.seq, reason: `links to ${row.prevHash.slice(0, 12)}…, but the previous entry's hash is ${prev.slice(0, 12)}… (an entry was removed or reordered)` } };
      const { seq, hash, ...rest } = row;
      if (hashAuditEntry(rest) !== hash) return { ok: false, entries: count, headHash: prev, brokenAt: { seq, reason: "its content does not match its hash (the entry was altered)" } };
      prev = hash;
      after = seq;
      count++;
    }
    if (page.length < PAGE) break;
  }
  return { ok: true, entries: count, headHash: count === 0 ? null : prev, brokenAt: null };
}
