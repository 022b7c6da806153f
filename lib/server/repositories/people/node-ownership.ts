import type { NodeOwnership } from "@/lib/domain/recipients";
import type { Db } from "../database";
import { prismaOf } from "../prisma-handle";
import { parseFactSources } from "../lineage/fact-sources-json";
import { chunked } from "../sql/chunked";

const CHUNK = 500;

/**
 * From this many ids on, the whole catalog is read in four flat queries and kept to the ids
 * asked: a 45,000-node closure read in chunks was 90 rounds of relation queries, 17 s of the
 * server's one thread (docs/lineage.md), where the whole 50,000-node catalog is four reads.
 */
export const WHOLE_CATALOG_FROM = 2_000;

type Owned = { owner: string; factSources: string };

/**
 * What the catalog says about who owns each of these nodes (tasks and datasets by node id; other
 * ids are left out): a task's or dataset's own owner fact and its source, a dataset's current
 * writers' owners, and
 * each node's pipeline owner. lib/domain/recipients.ts decides which of them are the owners.
 */
export async function nodeOwnership(db: Db, nodeIds: readonly string[], signal?: AbortSignal): Promise<NodeOwnership[]> {
  const ids = [...new Set(nodeIds)];
  signal?.throwIfAborted();
  if (ids.length >= WHOLE_CATALOG_FROM) return catalogOwnership(db, new Set(ids));
  const out: NodeOwnership[] = [];
  for (const part of chunked(ids, CHUNK)) {
    // A question nobody waits for stops at the next chunk.
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
    for (const t of tasks) out.push(ownershipOf(t.nodeId, t, [], t.pipeline?.owner));
    for (const d of datasets)
      out.push(
        ownershipOf(
          d.nodeId,
          d,
          d.edges.map((e) => e.task),
          d.pipeline?.owner,
        ),
      );
  }
  return out;
}

/** The same facts for many ids: every task, dataset, pipeline owner and current write, flat, joined here. */
async function catalogOwnership(db: Db, ids: ReadonlySet<string>): Promise<NodeOwnership[]> {
  const p = prismaOf(db);
  const [tasks, datasets, pipelines, writes] = await Promise.all([
    p.task.findMany({ select: { id: true, nodeId: true, owner: true, factSources: true, pipelineId: true } }),
    p.dataset.findMany({ select: { id: true, nodeId: true, owner: true, factSources: true, pipelineId: true } }),
    p.pipeline.findMany({ select: { id: true, owner: true } }),
    p.lineageEdge.findMany({ where: { direction: "write", validTo: null }, select: { taskId: true, datasetId: true } }),
  ]);
  const pipelineOwner = new Map(pipelines.map((x) => [x.id, x.owner]));
  const taskById = new Map(tasks.map((t) => [t.id, t]));
  const writersOf = new Map<string, Owned[]>();
  for (const w of writes) {
    const task = taskById.get(w.taskId);
    if (!task) continue;
    const list = writersOf.get(w.datasetId);
    if (list) list.push(task);
    else writersOf.set(w.datasetId, [task]);
  }
  const owner = (pipelineId: string | null) => (pipelineId === null ? undefined : pipelineOwner.get(pipelineId));
  return [
    ...tasks.filter((t) => ids.has(t.nodeId)).map((t) => ownershipOf(t.nodeId, t, [], owner(t.pipelineId))),
    ...datasets.filter((d) => ids.has(d.nodeId)).map((d) => ownershipOf(d.nodeId, d, writersOf.get(d.id) ?? [], owner(d.pipelineId))),
  ];
}

function ownershipOf(nodeId: string, own: Owned, writers: readonly Owned[], pipelineOwner: string | undefined): NodeOwnership {
  return {
    nodeId,
    own: own.owner ? [{ name: own.owner, source: parseFactSources(own.factSources).owner ?? null }] : [],
    writers: writers
      .filter((w) => w.owner)
      .map((w) => ({ name: w.owner, source: parseFactSources(w.factSources).owner ?? null }))
      .sort((a, b) => a.name.localeCompare(b.name, "en")),
    pipelineOwner: pipelineOwner || null,
  };
}
