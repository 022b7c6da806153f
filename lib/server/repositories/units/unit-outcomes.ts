import { compositeKey } from "@/lib/domain/composite-key";
import type { Db } from "../database";
import { prismaOf } from "../prisma-handle";

export type UnitOutcome = "succeeded" | "failed" | "running";

/**
 * What the ledger says happened to each (task, unit) since `since` — from whatever the team's
 * own tools reported (dbt-ol events, an imported run_results.json): its latest attempt started
 * since then, or else a publish of the dataset the task writes. Keyed JSON [taskNodeId, unitKey]
 * (lib/domain compositeKey).
 */
export async function unitOutcomesSince(db: Db, pairs: readonly { taskNodeId: string; unitKey: string }[], since: Date): Promise<Map<string, UnitOutcome>> {
  const out = new Map<string, UnitOutcome>();
  if (pairs.length === 0) return out;
  const tasks = await prismaOf(db).task.findMany({
    where: { nodeId: { in: [...new Set(pairs.map((p) => p.taskNodeId))] } },
    select: { id: true, nodeId: true, edges: { where: { direction: "write" }, select: { datasetId: true } } },
  });
  const byNode = new Map(tasks.map((t) => [t.nodeId, t]));
  const keys = [...new Set(pairs.map((p) => p.unitKey))];
  const [attempts, publishes] = await Promise.all([
    prismaOf(db).attempt.findMany({
      where: { taskId: { in: tasks.map((t) => t.id) }, unitKey: { in: keys }, startedAt: { gte: since } },
      select: { taskId: true, unitKey: true, status: true, startedAt: true },
      orderBy: { startedAt: "asc" },
    }),
    prismaOf(db).publish.findMany({
      where: { datasetId: { in: tasks.flatMap((t) => t.edges.map((e) => e.datasetId)) }, unitKey: { in: keys }, publishedAt: { gte: since } },
      select: { datasetId: true, unitKey: true },
    }),
  ]);
  const latest = new Map(attempts.map((a) => [compositeKey(a.taskId, a.unitKey), a.status]));
  const published = new Set(publishes.map((p) => compositeKey(p.datasetId, p.unitKey)));
  for (const p of pairs) {
    const task = byNode.get(p.taskNodeId);
    if (!task) continue;
    const status = latest.get(compositeKey(task.id, p.unitKey));
    const key = compositeKey(p.taskNodeId, p.unitKey);
    if (status === "succeeded" || (!status && task.edges.some((e) => published.has(compositeKey(e.datasetId, p.unitKey))))) out.set(key, "succeeded");
    else if (status === "failed" || status === "upstream_failed") out.set(key, "failed");
    else if (status) out.set(key, "running");
  }
  return out;
}
