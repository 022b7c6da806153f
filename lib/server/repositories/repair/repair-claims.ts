import type { Db, Tx } from "../database";
import { prismaOf } from "../prisma-handle";

export interface ClaimHolder {
  runId: string;
  repairNumber: number;
  incidentId: string | null;
  triggeredBy: string;
  taskNodeId: string;
  unitKey: string;
}

/** Unique (task, unit): the insert fails when any pair is already claimed by an active repair. */
export async function insertClaims(tx: Tx, runId: string, pairs: { taskId: string; unitKey: string }[], at: Date): Promise<void> {
  await prismaOf(tx).repairClaim.createMany({ data: pairs.map((p) => ({ taskId: p.taskId, unitKey: p.unitKey, runId, claimedAt: at })) });
}

export async function releaseClaims(tx: Tx, runId: string): Promise<number> {
  const { count } = await prismaOf(tx).repairClaim.deleteMany({ where: { runId } });
  return count;
}

/** Who holds any of these pairs now (for the 409 message naming the running repair). */
export async function claimHolders(db: Db, pairs: { taskId: string; unitKey: string }[]): Promise<ClaimHolder[]> {
  if (pairs.length === 0) return [];
  const claims = await prismaOf(db).repairClaim.findMany({ where: { OR: pairs.map((p) => ({ taskId: p.taskId, unitKey: p.unitKey })) }, take: 20 });
  if (claims.length === 0) return [];
  const [runs, tasks] = await Promise.all([
    prismaOf(db).run.findMany({ where: { id: { in: [...new Set(claims.map((c) => c.runId))] } } }),
    prismaOf(db).task.findMany({ where: { id: { in: [...new Set(claims.map((c) => c.taskId))] } }, select: { id: true, nodeId: true } }),
  ]);
  return claims.map((c) => {
    const run = runs.find((r) => r.id === c.runId);
    return {
      runId: c.runId,
      repairNumber: run?.repairNumber ?? 0,
      incidentId: run?.incidentId ?? null,
      triggeredBy: run?.triggeredBy ?? "",
      taskNodeId: tasks.find((t) => t.id === c.taskId)?.nodeId ?? c.taskId,
      unitKey: c.unitKey,
    };
  });
}

/** Every active claim, grouped by run: the planner's "active repairs". */
export async function activeClaims(db: Db): Promise<{ runId: string; taskNodeId: string; unitKey: string }[]> {
  const claims = await prismaOf(db).repairClaim.findMany({ select: { runId: true, unitKey: true, taskId: true } });
  if (claims.length === 0) return [];
  const tasks = await prismaOf(db).task.findMany({ where: { id: { in: [...new Set(claims.map((c) => c.taskId))] } }, select: { id: true, nodeId: true } });
  const nodeOf = new Map(tasks.map((t) => [t.id, t.nodeId]));
  return claims.map((c) => ({ runId: c.runId, taskNodeId: nodeOf.get(c.taskId) ?? c.taskId, unitKey: c.unitKey }));
}
