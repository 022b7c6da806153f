import type { Db } from "../database";
import { prismaOf } from "../prisma-handle";

/**
 * Tasks with at least one failed attempt (row ids). A unit is "failed" only when its latest
 * attempt failed, so these tasks bound where current failures can be: the lineage page reads
 * unit states for their datasets only, not for every unit of every dataset.
 */
export async function tasksWithFailedAttempts(db: Db): Promise<string[]> {
  const rows = await prismaOf(db).attempt.findMany({ where: { status: "failed" }, distinct: ["taskId"], select: { taskId: true } });
  return rows.map((r) => r.taskId);
}

/**
 * Checks (tasks of kind `check`, e.g. dbt tests) whose latest attempt failed, with its message:
 * the datasets they read carry a data alert.
 */
export async function failingChecks(db: Db): Promise<{ taskId: string; nodeId: string; message: string; at: Date }[]> {
  const checks = await prismaOf(db).task.findMany({ where: { kind: "check" }, select: { id: true, nodeId: true } });
  if (checks.length === 0) return [];
  const attempts = await prismaOf(db).attempt.findMany({
    where: { taskId: { in: checks.map((c) => c.id) } },
    select: { taskId: true, status: true, error: true, startedAt: true, endedAt: true },
  });
  const latest = new Map<string, (typeof attempts)[number]>();
  for (const a of attempts) {
    const at = (a.startedAt ?? a.endedAt)?.getTime() ?? 0;
    const kept = latest.get(a.taskId);
    if (!kept || at >= ((kept.startedAt ?? kept.endedAt)?.getTime() ?? 0)) latest.set(a.taskId, a);
  }
  return checks.flatMap((c) => {
    const a = latest.get(c.id);
    if (!a || a.status !== "failed") return [];
    return [{ taskId: c.id, nodeId: c.nodeId, message: a.error ?? "failed", at: a.endedAt ?? a.startedAt ?? new Date(0) }];
  });
}
