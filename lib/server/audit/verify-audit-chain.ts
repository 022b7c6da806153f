import type { AuditHead, AuditVerify } from "@/lib/contracts/audit";
import { getDb, type Db } from "../repositories/database";
import { auditRowsAfter } from "../repositories/audit/audit-log";
import { checkHeadSignature } from "./audit-head";
import { GENESIS_HASH, hashAuditEntry } from "./hash-audit-entry";

const PAGE = 1000;
const LISTED = 1000;

/**
 * Recomputes every entry's hash in order and checks each links to its predecessor, reporting
 * EVERY entry that does not (an edited field, a removed entry, a reordering) — not only the
 * first, so tampering after a first break is not hidden. A chain rewritten whole with fresh
 * hashes, or cut short, is consistent in itself: it is caught against an exported signed head
 * (`head`), whose entry must still be there with the same hash.
 */
export async function verifyAuditChain(db: Db = getDb(), head?: AuditHead): Promise<AuditVerify> {
  let prev = GENESIS_HASH;
  let after = 0;
  let count = 0;
  const broken: { seq: number; reason: string }[] = [];
  let brokenCount = 0;
  let atHead: string | null = null;
  const flag = (seq: number, reason: string) => {
    brokenCount++;
    if (broken.length < LISTED) broken.push({ seq, reason });
  };
  for (;;) {
    const page = await auditRowsAfter(db, after, PAGE);
    for (const row of page) {
      const { seq, hash, ...rest } = row;
      if (row.prevHash !== prev)
        flag(seq, `links to ${row.prevHash.slice(0, 12)}…, but the previous entry's hash is ${prev.slice(0, 12)}… (an entry was removed or reordered)`);
      else if (hashAuditEntry(rest) !== hash) flag(seq, "its content does not match its hash (the entry was altered)");
      if (head && seq === head.seq) atHead = hash;
      // Go on from the stored hash: one altered entry is one break, the entries after it still verify.
      prev = hash;
      after = seq;
      count++;
    }
    if (page.length < PAGE) break;
  }
  const against = head ? compareHead(head, atHead) : null;
  return {
    ok: brokenCount === 0 && (against?.ok ?? true),
    entries: count,
    headHash: count === 0 ? null : prev,
    brokenAt: broken[0] ?? null,
    broken,
    brokenCount,
    against,
  };
}

function compareHead(head: AuditHead, stored: string | null): NonNullable<AuditVerify["against"]> {
  const signature = checkHeadSignature(head);
  if (signature) return { seq: head.seq, ok: false, reason: signature };
  if (stored === null) return { seq: head.seq, ok: false, reason: `entry ${head.seq} of the exported head is gone: the log was cut short` };
  if (stored !== head.hash)
    return { seq: head.seq, ok: false, reason: `entry ${head.seq} no longer has the exported hash ${head.hash.slice(0, 12)}…: the chain was rewritten` };
  return { seq: head.seq, ok: true, reason: null };
}
