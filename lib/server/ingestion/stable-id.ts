import crypto from "node:crypto";

/**
 * Ids derived from what a row is (a run = its job + the producer's run id), so re-sending an event
 * lands on the same rows, events may arrive in any order (a child can name its parent's row
 * before the parent's events arrive), and batches need no read-back of generated ids.
 */
export function stableId(prefix: string, ...parts: (string | number)[]): string {
  const digest = crypto.createHash("sha256").update(parts.join("\u0000")).digest("base64url");
  return `${prefix}_${digest.slice(0, 24)}`;
}

export function contentHash(text: string): string {
  return crypto.createHash("sha256").update(text).digest("hex");
}

export const runRowId = (jobNodeId: string, externalRunId: string): string => stableId("olrun", jobNodeId, externalRunId);
