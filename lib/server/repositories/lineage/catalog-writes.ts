import { applyFacts, type FactSource, type TaskFactValues } from "@/lib/domain/fact-sources";
import { parseFactSources } from "./fact-sources-json";
import { compositeKey } from "@/lib/domain/composite-key";
import type { PartitionDef } from "@/lib/domain/partitions";
import type { Tx } from "../database";
import { parsePartitionDef } from "./catalog-reads";
import { prismaOf } from "../prisma-handle";
import { textList } from "../sql/bulk-sql";
import { chunked } from "../sql/chunked";

export interface NodeRef {
  nodeId: string;
  namespace: string;
  name: string;
}

export interface TaskHandle {
  id: string;
  pipelineId: string | null;
}
export interface DatasetHandle {
  id: string;
  partitionDef: PartitionDef;
}

const unique = (refs: NodeRef[]): NodeRef[] => [...new Map(refs.map((r) => [r.nodeId, { nodeId: r.nodeId, namespace: r.namespace, name: r.name }])).values()];

/** Tasks by node id, creating the missing ones (jobs are identified by namespace + name). */
export async function ensureTasks(tx: Tx, refs: NodeRef[]): Promise<Map<string, TaskHandle>> {
  const wanted = unique(refs);
  const found = await byNodeIds<{ id: string; nodeId: string; pipelineId: string | null }>(
    tx,
    "Task",
    ["id", "nodeId", "pipelineId"],
    wanted.map((r) => r.nodeId),
  );
  const missing = wanted.filter((r) => !found.some((f) => f.nodeId === r.nodeId));
  if (missing.length > 0) await prismaOf(tx).task.createMany({ data: missing });
  const created =
    missing.length > 0
      ? await prismaOf(tx).task.findMany({ where: { nodeId: { in: missing.map((r) => r.nodeId) } }, select: { id: true, nodeId: true, pipelineId: true } })
      : [];
  return new Map([...found, ...created].map((t) => [t.nodeId, { id: t.id, pipelineId: t.pipelineId }]));
}

/** Datasets by node id with their partition definitions, creating the missing ones unpartitioned. */
export async function ensureDatasets(tx: Tx, refs: NodeRef[]): Promise<Map<string, DatasetHandle>> {
  const wanted = unique(refs);
  const select = { id: true, nodeId: true, partitionDef: true } as const;
  const found = await byNodeIds<{ id: string; nodeId: string; partitionDef: string }>(
    tx,
    "Dataset",
    ["id", "nodeId", "partitionDef"],
    wanted.map((r) => r.nodeId),
  );
  const missing = wanted.filter((r) => !found.some((f) => f.nodeId === r.nodeId));
  if (missing.length > 0) await prismaOf(tx).dataset.createMany({ data: missing });
  const created = missing.length > 0 ? await prismaOf(tx).dataset.findMany({ where: { nodeId: { in: missing.map((r) => r.nodeId) } }, select }) : [];
  return new Map([...found, ...created].map((d) => [d.nodeId, { id: d.id, partitionDef: parsePartitionDef(d.partitionDef, d.nodeId) }]));
}

/** The catalog rows of the given node ids: a raw read, as every read on the ingestion path is. */
async function byNodeIds<T>(tx: Tx, table: "Task" | "Dataset", columns: string[], nodeIds: string[]): Promise<T[]> {
  const rows: T[] = [];
  // In chunks: SQLite binds at most 32,766 values per statement.
  for (const ids of chunked(nodeIds, 10_000)) {
    const params: unknown[] = [];
    const list = textList(tx, params, ids);
    rows.push(
      ...(await prismaOf(tx).$queryRawUnsafe<T[]>(`SELECT ${columns.map((c) => `"${c}"`).join(", ")} FROM "${table}" WHERE "nodeId" IN ${list}`, ...params)),
    );
  }
  return rows;
}

const pipelineKey = (namespace: string, name: string) => compositeKey(namespace, name);

/** Pipelines named after their root job, creating missing ones; keyed by namespace + name. */
export async function ensurePipelines(tx: Tx, refs: { namespace: string; name: string }[]): Promise<Map<string, string>> {
  const wanted = [...new Map(refs.map((r) => [pipelineKey(r.namespace, r.name), r])).values()];
  if (wanted.length === 0) return new Map();
  const where = { OR: wanted.map((r) => ({ namespace: r.namespace, name: r.name })) };
  const found = await prismaOf(tx).pipeline.findMany({ where, select: { id: true, namespace: true, name: true } });
  const missing = wanted.filter((r) => !found.some((f) => f.namespace === r.namespace && f.name === r.name));
  if (missing.length > 0) await prismaOf(tx).pipeline.createMany({ data: missing });
  const all = missing.length > 0 ? await prismaOf(tx).pipeline.findMany({ where, select: { id: true, namespace: true, name: true } }) : found;
  return new Map(all.map((p) => [pipelineKey(p.namespace, p.name), p.id]));
}

export { pipelineKey };

/** Tasks that test what they read (dbt tests, data-quality jobs) rather than build a dataset. */
export async function markChecks(tx: Tx, taskIds: string[]): Promise<void> {
  if (taskIds.length > 0) await prismaOf(tx).task.updateMany({ where: { id: { in: taskIds }, kind: { not: "check" } }, data: { kind: "check" } });
}

/** Puts tasks that belong to no pipeline yet into the pipeline their runs descend from. */
export async function assignTaskPipelines(tx: Tx, pipelineByTaskId: Map<string, string>): Promise<void> {
  const byPipeline = new Map<string, string[]>();
  for (const [taskId, pipelineId] of pipelineByTaskId) byPipeline.set(pipelineId, [...(byPipeline.get(pipelineId) ?? []), taskId]);
  for (const [pipelineId, ids] of byPipeline) {
    await prismaOf(tx).task.updateMany({ where: { id: { in: ids }, pipelineId: null }, data: { pipelineId } });
  }
}

/** How many of these tasks and datasets the catalog holds already (to report what an import added). */
export async function countKnownNodes(tx: Tx, taskNodeIds: readonly string[], datasetNodeIds: readonly string[]): Promise<[tasks: number, datasets: number]> {
  return Promise.all([
    prismaOf(tx).task.count({ where: { nodeId: { in: [...taskNodeIds] } } }),
    prismaOf(tx).dataset.count({ where: { nodeId: { in: [...new Set(datasetNodeIds)] } } }),
  ]);
}

/** Datasets a producer names as sources: a plain `table` becomes a `source` (other kinds stay). */
export async function markSources(tx: Tx, nodeIds: readonly string[]): Promise<void> {
  await prismaOf(tx).dataset.updateMany({ where: { nodeId: { in: [...nodeIds] }, kind: "table" }, data: { kind: "source" } });
}

/** A task's facts as one source gives them; undefined or null: that source does not say. */
export interface SourcedFacts {
  taskId: string;
  facts: {
    writeMode?: "replace" | "merge" | "append";
    sideEffect?: "none" | "external";
    dependsOnOwnPast?: boolean;
    publishMode?: "per_unit" | "atomic_set";
    owner?: string;
  };
  source: FactSource;
}

/**
 * Records what a source says of tasks' repair-safety facts, by precedence (lib/domain/fact-sources.ts):
 * a fact a better source gave is kept, one the same or a worse source gave is replaced. Writes only
 * the tasks whose facts change; answers how many did.
 */
export async function recordTaskFacts(tx: Tx, items: readonly SourcedFacts[]): Promise<number> {
  const wanted = items.filter((i) => Object.values(i.facts).some((v) => v !== undefined && v !== null));
  if (wanted.length === 0) return 0;
  const rows = await prismaOf(tx).task.findMany({
    where: { id: { in: [...new Set(wanted.map((i) => i.taskId))] } },
    select: { id: true, writeMode: true, sideEffect: true, dependsOnOwnPast: true, publishMode: true, owner: true, factSources: true },
  });
  const held = new Map(rows.map((r) => [r.id, { ...r, sources: parseFactSources(r.factSources) }]));
  let changed = 0;
  for (const item of wanted) {
    const t = held.get(item.taskId);
    if (!t) continue;
    const current = {
      writeMode: t.writeMode,
      sideEffect: t.sideEffect,
      dependsOnOwnPast: t.dependsOnOwnPast,
      publishMode: t.publishMode,
      owner: t.owner || null,
    };
    const applied = applyFacts(current as TaskFactValues, t.sources, item.facts, item.source);
    if (!applied) continue;
    const { owner, ...rest } = applied.values;
    await prismaOf(tx).task.update({ where: { id: t.id }, data: { ...rest, ...(owner ? { owner } : {}), factSources: JSON.stringify(applied.sources) } });
    Object.assign(t, applied.values, { sources: applied.sources });
    changed++;
  }
  return changed;
}

/** A catalog declared in full (the demo's): created as given, partition definitions declared. */
export interface DeclaredPipeline {
  namespace: string;
  description: string;
  owner: string;
}
export interface DeclaredDataset {
  nodeId: string;
  namespace: string;
  name: string;
  pipelineId: string;
  kind: string;
  external: boolean;
  partitionDef: PartitionDef;
  rowCountTolerance: number;
  sourceImmutable: boolean | null;
  retentionDays: number | null;
  description: string;
}
export interface DeclaredTask {
  nodeId: string;
  namespace: string;
  name: string;
  pipelineId: string;
  writeMode: string;
  sideEffect: string;
  dependsOnOwnPast: boolean;
  publishMode: string;
  owner: string;
  description: string;
}
export interface DeclaredEdge {
  taskId: string;
  datasetId: string;
  direction: string;
  mapping: string;
  mappingParams: Record<string, unknown>;
  validFrom: Date;
}

/** A pipeline named by its namespace. */
export async function createPipeline(tx: Tx, p: DeclaredPipeline): Promise<string> {
  return (
    await prismaOf(tx).pipeline.create({
      data: { namespace: p.namespace, name: p.namespace, description: p.description, owner: p.owner },
      select: { id: true },
    })
  ).id;
}

export async function createDeclaredDataset(tx: Tx, d: DeclaredDataset): Promise<string> {
  return (await prismaOf(tx).dataset.create({ data: { ...d, partitionDef: JSON.stringify(d.partitionDef), partitionsDeclared: true }, select: { id: true } }))
    .id;
}

export async function createDeclaredTask(tx: Tx, t: DeclaredTask): Promise<string> {
  // Every fact of a catalog declared in full is declared: no producer's facet overrides it.
  const factSources = JSON.stringify({
    writeMode: "declared",
    sideEffect: "declared",
    dependsOnOwnPast: "declared",
    publishMode: "declared",
    ...(t.owner ? { owner: "declared" } : {}),
  });
  return (await prismaOf(tx).task.create({ data: { ...t, factSources }, select: { id: true } })).id;
}

export async function createEdges(tx: Tx, edges: readonly DeclaredEdge[]): Promise<void> {
  await prismaOf(tx).lineageEdge.createMany({ data: edges.map((e) => ({ ...e, mappingParams: JSON.stringify(e.mappingParams) })) });
}
