import type { Db } from "../db/client";

/**
 * Tasks with at least one failed attempt (row ids). A unit is "failed" only when its latest
 * attempt failed, so these tasks bound where current failures can be: the lineage page reads
 * unit states for their datasets only, not for every unit of every dataset.
 */
export async function tasksWithFailedAttempts(db: Db): Promise<string[]> {
  const rows = await db.attempt.findMany({ where: { status: "failed" }, distinct: ["taskId"], select: { taskId: true } });
  return rows.map((r) => r.taskId);
}
