import type { Db } from "../db/client";

export interface LatestAttemptInfo {
  runId: string;
  tries: number;
  error: string | null;
  endedAt: Date | null;
}

/** For each (task, unit): the latest real try (blocked attempts excluded) and how many tries ran. */
export async function latestAttemptsOf(db: Db, pairs: { taskId: string; unitKey: string }[]): Promise<Map<string, LatestAttemptInfo>> {
  const out = new Map<string, LatestAttemptInfo>();
  if (pairs.length === 0) return out;
  const rows = await db.attempt.findMany({
    where: { OR: pairs.map((p) => ({ taskId: p.taskId, unitKey: p.unitKey })), status: { notIn: ["upstream_failed", "queued"] } },
    orderBy: [{ startedAt: "asc" }, { tryNumber: "asc" }],
    select: { taskId: true, unitKey: true, runId: true, error: true, endedAt: true },
  });
  for (const r of rows) {
    const key = `${r.taskId}|${r.unitKey}`;
    const tries = (out.get(key)?.tries ?? 0) + 1;
    out.set(key, { runId: r.runId, tries, error: r.error, endedAt: r.endedAt });
  }
  return out;
}
