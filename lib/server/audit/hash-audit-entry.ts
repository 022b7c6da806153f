import crypto from "node:crypto";
import type { AuditRow } from "../repositories/audit/audit-log";

export const GENESIS_HASH = "0".repeat(64);

/** JSON with object keys sorted at every depth, so the hash does not depend on key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * sha256 over the previous entry's hash and every recorded field: changing any field of any
 * entry, or removing or reordering entries, breaks the chain from that entry on.
 */
export function hashAuditEntry(e: Omit<AuditRow, "hash">): string {
  const body = canonicalJson({
    kind: e.kind,
    actor: e.actor,
    actorRole: e.actorRole,
    at: e.at.toISOString(),
    reason: e.reason,
    incidentId: e.incidentId,
    targets: e.targets,
    before: e.before ?? null,
    after: e.after ?? null,
  });
  return crypto.createHash("sha256").update(e.prevHash).update("\n").update(body).digest("hex");
}
