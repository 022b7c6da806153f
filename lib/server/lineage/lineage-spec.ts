import type { DatasetId, TaskId } from "@/lib/domain/ids";
import { datasetPipelines } from "@/lib/domain/lineage-groups";
import type { DatasetKind, LineageSpec } from "@/lib/domain/lineage-graph";
import type { PartitionMapping } from "@/lib/domain/partition-mappings";
import type { DatasetRecord, EdgeRecord, TaskRecord } from "../repositories/lineage/catalog-reads";

const KINDS = new Set<DatasetKind>(["table", "file_set", "dashboard", "export", "feature_set", "model"]);

/**
 * The catalog as lib/domain's lineage spec (node ids, mappings), so closures and plans run on the
 * lineage that holds at the instant the edges were read for. Unknown properties stay undefined:
 * the domain counts unknown as unsafe. The one translation from repository records to the
 * domain's graph: the lineage view, completeness and the repair planner all build from it.
 */
export function buildLineageSpec(tasks: readonly TaskRecord[], datasets: readonly DatasetRecord[], edges: readonly EdgeRecord[]): LineageSpec {
  const taskNode = new Map(tasks.map((t) => [t.id, t.nodeId as TaskId]));
  const datasetNode = new Map(datasets.map((d) => [d.id, d.nodeId as DatasetId]));
  const known = edges.filter((e) => taskNode.has(e.taskId) && datasetNode.has(e.datasetId));
  const pipelineOfTask = (t: TaskRecord) => t.pipeline ?? t.namespace;
  const edgesOf = (direction: EdgeRecord["direction"]) =>
    known.filter((e) => e.direction === direction).map((e) => ({ task: taskNode.get(e.taskId)!, dataset: datasetNode.get(e.datasetId)! }));
  // A dataset nobody declared a pipeline for is drawn with the job that writes it (lib/domain/lineage-groups.ts).
  const datasetPipeline = datasetPipelines({
    tasks: tasks.map((t) => ({ id: t.nodeId, pipeline: pipelineOfTask(t) })),
    datasets: datasets.map((d) => ({ id: d.nodeId, pipeline: d.pipeline, namespace: d.namespace })),
    reads: edgesOf("read"),
    writes: edgesOf("write"),
  });
  return {
    tasks: tasks.map((t) => ({
      id: t.nodeId as TaskId,
      pipeline: pipelineOfTask(t),
      owner: t.owner || undefined,
      writeMode: t.writeMode ?? undefined,
      sideEffect: t.sideEffect ?? undefined,
      dependsOnOwnPast: t.dependsOnOwnPast ?? undefined,
      publish: t.publishMode ?? undefined,
    })),
    datasets: datasets.map((d) => ({
      id: d.nodeId as DatasetId,
      kind: KINDS.has(d.kind as DatasetKind) ? (d.kind as DatasetKind) : "table",
      pipeline: datasetPipeline.get(d.nodeId) ?? d.namespace,
      partitions: d.partitionDef,
      externalConsumer: d.external,
      sourceMutable: d.sourceImmutable === null ? undefined : !d.sourceImmutable,
    })),
    reads: known
      .filter((e) => e.direction === "read")
      .map((e) => ({
        task: taskNode.get(e.taskId)!,
        dataset: datasetNode.get(e.datasetId)!,
        mapping: { type: e.mapping, ...e.mappingParams } as PartitionMapping,
        since: e.validFrom.getTime(),
      })),
    writes: edgesOf("write"),
  };
}
