import { chunked } from "../sql/chunked";
import type { Db } from "../database";
import { prismaOf } from "../prisma-handle";
import { compositeKey } from "@/lib/domain/composite-key";

export interface LatestAttemptInfo {
  runId: string;
  tries: number;
  error: string | null;
  endedAt: Date | null;
}

/** For each (task, unit), keyed compositeKey(taskId, unitKey): the latest real try (blocked attempts excluded) and how many tries ran. */
export async function latestAttemptsOf(db: Db, pairs: { taskId: string; unitKey: string }[]): Promise<Map<string, LatestAttemptInfo>> {
  const out = new Map<string, LatestAttemptInfo>();
  if (pairs.length === 0) return out;
  // Per task, keys in chunks: one OR term per pair passed SQLite's parameter limit at ~3,000
  // failed units (a 10M-unit world), and the overview answered 500.
  const byTask = new Map<string, string[]>();
  for (const p of pairs) byTask.set(p.taskId, [...(byTask.get(p.taskId) ?? []), p.unitKey]);
  const queries = [...byTask].flatMap(([taskId, keys]) =>
    chunked([...new Set(keys)], KEYS_PER_QUERY).map((chunk) =>
      prismaOf(db).attempt.findMany({
        where: { taskId, unitKey: { in: chunk }, status: { notIn: ["upstream_failed", "queued"] } },
        orderBy: [{ startedAt: "asc" }, { tryNumber: "asc" }],
        select: { taskId: true, unitKey: true, runId: true, error: true, endedAt: true },
      }),
    ),
  );
  // Each pair's attempts come from one query, in order: the last one seen is its latest.
  for (const r of (await Promise.all(queries)).flat()) {
    const key = compositeKey(r.taskId, r.unitKey);
    const tries = (out.get(key)?.tries ?? 0) + 1;
    out.set(key, { runId: r.runId, tries, error: r.error, endedAt: r.endedAt });
  }
  return out;
}

const KEYS_PER_QUERY = 500;
