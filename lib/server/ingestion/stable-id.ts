import crypto from "node:crypto";

/**
 * Ids derived from what a row is (a run = its job + the producer's run id), so re-sending an event
 * lands on the same rows, events may arrive in any order (a child can name its parent's row
 * before the parent's events arrive), and batches need no read-back of generated ids.
 * crypto.hash is one call where createHash().update().digest() is three and an object: a fold
 * step hashes several ids per event.
 */
export function stableId(prefix: string, ...parts: (string | number)[]): string {
  const digest = crypto.hash("sha256", parts.join("\u0000"), "base64url");
  return `${prefix}_${digest.slice(0, 24)}`;
}

export function contentHash(text: string): string {
  return crypto.hash("sha256", text, "hex");
}

export const runRowId = (jobNodeId: string, externalRunId: string): string => stableId("olrun", jobNodeId, externalRunId);

// Each run (or run reference) object's row id, hashed once: a fold step asks it of every run
// several times (linking, change detection, its rows).
const idsOfRefs = new WeakMap<object, string>();

/** The row id of a run, or of a run reference (a parent, a root), computed once per object. */
export function runRowIdOf(ref: { jobNodeId: string; runId: string }): string {
  let id = idsOfRefs.get(ref);
  if (id === undefined) idsOfRefs.set(ref, (id = runRowId(ref.jobNodeId, ref.runId)));
  return id;
}
