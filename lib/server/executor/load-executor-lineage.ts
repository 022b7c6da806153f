import { compileMapping, type PartitionMapping } from "@/lib/domain/partition-mappings";
import { resolvePartitions, type PartitionDef, type PartitionSpace } from "@/lib/domain/partitions";
import type { Db } from "../repositories/database";
import { listDatasets, listEdgesAt, listTasks, type EdgeRecord, type TaskRecord } from "../repositories/lineage/catalog-reads";
import type { ExecutorDataset, ExecutorLineage, ExecutorRead, ExecutorTask } from "./executor-lineage";

/**
 * Loads the lineage that holds at `asOf` and compiles every read edge's partition mapping.
 * Bounded definitions are resolved without asOf: a run may build a unit whose window the
 * wall clock has not closed yet (a backfill of a fictional year, seed 003).
 */
export async function loadExecutorLineage(db: Db, asOf: Date): Promise<ExecutorLineage> {
  const [taskRows, datasetRows, edges] = await Promise.all([listTasks(db), listDatasets(db), listEdgesAt(db, asOf)]);
  const datasetsById = new Map<string, ExecutorDataset>();
  for (const d of datasetRows) {
    datasetsById.set(d.id, { id: d.id, nodeId: d.nodeId, space: spaceOf(d.partitionDef, asOf) });
  }
  const tasks = new Map<string, ExecutorTask>();
  const writerOf = new Map<string, string>();
  for (const t of taskRows) {
    const task = compileTask(
      t,
      edges.filter((e) => e.taskId === t.id),
      datasetsById,
    );
    if (!task) continue;
    tasks.set(task.nodeId, task);
    writerOf.set(task.output.nodeId, task.nodeId);
  }
  const datasets = new Map([...datasetsById.values()].map((d) => [d.nodeId, d]));
  return { tasks, datasets, writerOf };
}

function spaceOf(def: PartitionDef, asOf: Date): PartitionSpace {
  const openEnded = def.kind === "time" && def.end === undefined;
  return resolvePartitions(def, openEnded ? { asOf: asOf.getTime() } : {});
}

/** A task that writes no dataset cannot be executed; it is left out. */
function compileTask(t: TaskRecord, edges: EdgeRecord[], datasets: Map<string, ExecutorDataset>): ExecutorTask | null {
  const writes = edges.filter((e) => e.direction === "write");
  if (writes.length !== 1) return null;
  const output = datasets.get(writes[0]!.datasetId);
  if (!output) return null;
  const reads: ExecutorRead[] = edges
    .filter((e) => e.direction === "read")
    .map((e) => {
      const dataset = datasets.get(e.datasetId);
      if (!dataset) throw new Error(`${t.nodeId} reads an unknown dataset ${e.datasetId}`);
      const mapping = { type: e.mapping, ...e.mappingParams } as PartitionMapping;
      try {
        return { dataset, mapping: e.mapping, compiled: compileMapping(mapping, dataset.space, output.space) };
      } catch (err) {
        throw new Error(`${t.nodeId} reads ${dataset.nodeId} with ${e.mapping}: ${(err as Error).message}`);
      }
    });
  return { id: t.id, nodeId: t.nodeId, writeMode: t.writeMode, sideEffect: t.sideEffect, output, space: output.space, reads };
}
