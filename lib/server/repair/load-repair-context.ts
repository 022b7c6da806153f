import { buildLineageGraph, type DatasetKind, type LineageGraph, type LineageSpec } from "@/lib/domain/lineage-graph";
import type { DatasetId, NodeId, TaskId } from "@/lib/domain/ids";
import type { PartitionMapping } from "@/lib/domain/partition-mappings";
import { summariseLedger, type Ledger, type LedgerRow } from "@/lib/domain/repair-scope";
import type { Db } from "../db/client";
import { listDatasets, listEdgesAt, listTasks, type DatasetRecord, type TaskRecord } from "../repositories/catalog";

export interface RepairContext {
  graph: LineageGraph;
  ledger: Ledger;
  tasks: ReadonlyMap<string, TaskRecord>;
  datasets: ReadonlyMap<string, DatasetRecord>;
  /** Task node id → the dataset it writes. */
  outputOf: ReadonlyMap<string, DatasetRecord>;
  now: Date;
}

const KINDS = new Set<DatasetKind>(["table", "file_set", "dashboard", "export", "feature_set", "model"]);

/**
 * The lineage as the planner needs it: the graph that holds now, with each task's declared
 * repair-safety properties (unknown stays undefined: the planner counts it unsafe), and the
 * ledger folded into per-node facts (published, published more than once, consumed outside).
 */
export async function loadRepairContext(db: Db, now: Date): Promise<RepairContext> {
  const [tasks, datasets, edges] = await Promise.all([listTasks(db), listDatasets(db), listEdgesAt(db, now)]);
  const taskById = new Map(tasks.map((t) => [t.id, t]));
  const datasetById = new Map(datasets.map((d) => [d.id, d]));
  const spec: LineageSpec = {
    tasks: tasks.map((t) => ({
      id: t.nodeId as TaskId, pipeline: t.pipeline ?? t.namespace, owner: t.owner || undefined, writeMode: t.writeMode ?? undefined,
      sideEffect: t.sideEffect ?? undefined, dependsOnOwnPast: t.dependsOnOwnPast ?? undefined,
      publish: t.publishMode === "atomic_set" ? "atomic-set" : t.publishMode === "per_unit" ? "per-unit" : undefined,
    })),
    datasets: datasets.map((d) => ({
      id: d.nodeId as DatasetId, kind: KINDS.has(d.kind as DatasetKind) ? (d.kind as DatasetKind) : "table", pipeline: d.pipeline ?? d.namespace,
      partitions: d.partitionDef, externalConsumer: d.external, sourceMutable: d.sourceImmutable === null ? undefined : !d.sourceImmutable,
    })),
    reads: edges.filter((e) => e.direction === "read").flatMap((e) => {
      const [t, d] = [taskById.get(e.taskId), datasetById.get(e.datasetId)];
      return t && d ? [{ task: t.nodeId as TaskId, dataset: d.nodeId as DatasetId, mapping: { type: e.mapping, ...e.mappingParams } as PartitionMapping }] : [];
    }),
    writes: edges.filter((e) => e.direction === "write").flatMap((e) => {
      const [t, d] = [taskById.get(e.taskId), datasetById.get(e.datasetId)];
      return t && d ? [{ task: t.nodeId as TaskId, dataset: d.nodeId as DatasetId }] : [];
    }),
  };
  const built = buildLineageGraph(spec, { asOf: now.getTime() });
  if (!built.ok) throw new Error(`the lineage cannot be planned on: ${built.errors.map((e) => e.message).join("; ")}`);
  const outputOf = new Map<string, DatasetRecord>();
  for (const e of edges) if (e.direction === "write" && taskById.has(e.taskId) && datasetById.has(e.datasetId)) outputOf.set(taskById.get(e.taskId)!.nodeId, datasetById.get(e.datasetId)!);
  const ledger = summariseLedger(built.graph, await ledgerRows(db, datasets, outputOf, taskById)).ledger;
  return {
    graph: built.graph, ledger, now, outputOf,
    tasks: new Map(tasks.map((t) => [t.nodeId, t])), datasets: new Map(datasets.map((d) => [d.nodeId, d])),
  };
}

async function ledgerRows(db: Db, datasets: DatasetRecord[], outputOf: Map<string, DatasetRecord>, taskById: Map<string, TaskRecord>): Promise<LedgerRow[]> {
  const [counts, deliveries] = await Promise.all([
    db.publish.groupBy({ by: ["datasetId", "unitKey"], _count: { _all: true } }),
    db.externalDelivery.findMany({ select: { taskId: true, unitKey: true } }),
  ]);
  const nodeOf = new Map(datasets.map((d) => [d.id, d.nodeId as NodeId]));
  const rows: LedgerRow[] = counts.flatMap((c) => {
    const node = nodeOf.get(c.datasetId);
    return node ? [{ node, key: c.unitKey, publishCount: c._count._all }] : [];
  });
  for (const d of deliveries) {
    const task = taskById.get(d.taskId);
    const out = task && outputOf.get(task.nodeId);
    if (out) rows.push({ node: out.nodeId as NodeId, key: d.unitKey, publishCount: 0, consumed: true });
  }
  return rows;
}
