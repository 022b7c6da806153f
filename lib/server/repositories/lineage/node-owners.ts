import type { Db, Tx } from "../database";
import { prismaOf } from "../prisma-handle";

/**
 * Each node's owner as the catalog holds it (a task's own `owner`, else its pipeline's; a
 * dataset's pipeline's — datasets carry no owner column), by node id; nodes nobody owns are left out. One read for any number of nodes, so
 * the incidents list shows every incident's owners without a query per row.
 */
export async function catalogOwnersOf(db: Db | Tx, nodeIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(nodeIds)];
  const out = new Map<string, string>();
  if (ids.length === 0) return out;
  const pipeline = { select: { owner: true } } as const;
  const [tasks, datasets] = await Promise.all([
    prismaOf(db).task.findMany({ where: { nodeId: { in: ids } }, select: { nodeId: true, owner: true, pipeline } }),
    prismaOf(db).dataset.findMany({ where: { nodeId: { in: ids } }, select: { nodeId: true, pipeline } }),
  ]);
  for (const n of [...tasks, ...datasets.map((d) => ({ ...d, owner: "" }))]) {
    const owner = n.owner.trim() || n.pipeline?.owner.trim() || "";
    if (owner) out.set(n.nodeId, owner);
  }
  return out;
}
