import type { Db } from "../database";
import { prismaOf } from "../prisma-handle";

/** How many recent successful attempts of a task say what a unit of it costs (plan-eta.ts). */
export const RECENT_ATTEMPTS = 20;

/**
 * Per task node id, the durations in ms of its last RECENT_ATTEMPTS successful attempts that say
 * when they started and ended (a producer that sends no start, or a run still open, says nothing).
 * One indexed read per task: a plan names tens of tasks, not thousands.
 */
export async function recentAttemptDurations(db: Db, taskNodeIds: readonly string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  for (const nodeId of new Set(taskNodeIds)) {
    const rows = await prismaOf(db).attempt.findMany({
      where: { task: { nodeId }, status: "succeeded", startedAt: { not: null }, endedAt: { not: null } },
      orderBy: { endedAt: "desc" },
      take: RECENT_ATTEMPTS,
      select: { startedAt: true, endedAt: true },
    });
    const ms = rows.map((r) => r.endedAt!.getTime() - r.startedAt!.getTime()).filter((d) => d >= 0);
    if (ms.length > 0) out.set(nodeId, ms);
  }
  return out;
}
