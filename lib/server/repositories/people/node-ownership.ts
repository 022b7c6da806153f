import type { NodeOwnership } from "@/lib/domain/recipients";
import type { Db } from "../database";
import { prismaOf } from "../prisma-handle";
import { parseFactSources } from "../lineage/fact-sources-json";
import { chunked } from "../sql/chunked";

const CHUNK = 500;

/**
 * What the catalog says about who owns each of these nodes (tasks and datasets by node id; other
 * ids are left out): a task's or dataset's own owner fact and its source, a dataset's current
 * writers' owners, and
 * each node's pipeline owner. lib/domain/recipients.ts decides which of them are the owners.
 */
export async function nodeOwnership(db: Db, nodeIds: readonly string[], signal?: AbortSignal): Promise<NodeOwnership[]> {
  const ids = [...new Set(nodeIds)];
  const out: NodeOwnership[] = [];
  for (const part of chunked(ids, CHUNK)) {
    // A 45,000-node closure is 90 chunks, seconds of reads: a question nobody waits for stops here.
    signal?.throwIfAborted();
    const [tasks, datasets] = await Promise.all([
      prismaOf(db).task.findMany({
        where: { nodeId: { in: part } },
        select: { nodeId: true, owner: true, factSources: true, pipeline: { select: { owner: true } } },
      }),
      prismaOf(db).dataset.findMany({
        where: { nodeId: { in: part } },
        select: {
          nodeId: true,
          owner: true,
          factSources: true,
          pipeline: { select: { owner: true } },
          edges: {
            where: { direction: "write", validTo: null },
            select: { task: { select: { owner: true, factSources: true } } },
          },
        },
      }),
    ]);
    for (const t of tasks)
      out.push({
        nodeId: t.nodeId,
        own: t.owner ? [{ name: t.owner, source: parseFactSources(t.factSources).owner ?? null }] : [],
        writers: [],
        pipelineOwner: t.pipeline?.owner || null,
      });
    for (const d of datasets)
      out.push({
        nodeId: d.nodeId,
        own: d.owner ? [{ name: d.owner, source: parseFactSources(d.factSources).owner ?? null }] : [],
        writers: d.edges
          .filter((e) => e.task.owner)
          .map((e) => ({ name: e.task.owner, source: parseFactSources(e.task.factSources).owner ?? null }))
          .sort((a, b) => a.name.localeCompare(b.name, "en")),
        pipelineOwner: d.pipeline?.owner || null,
      });
  }
  return out;
}
