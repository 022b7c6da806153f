import type { InputScope } from "@/lib/domain/input-versions";
import type { DatasetRecord, EdgeRecord, TaskRecord } from "../repositories/lineage/catalog-reads";

const SHARED_MAPPINGS = new Set(["all", "latest"]);

/**
 * Which of a writer's inputs all its units read alike — whole (`all`) or as of now (`latest`) —
 * named every way a version may spell them (short name, namespace/name as OpenLineage ingestion
 * writes, node id), and whether it reads anything unit by unit. Its own output (a sequential or
 * in-place self-read) is per unit by nature.
 */
export function inputScopeOf(reads: readonly { dataset: DatasetRecord; mapping: string }[]): InputScope {
  const shared = new Set<string>();
  let perUnit = false;
  for (const { dataset: d, mapping } of reads) {
    if (SHARED_MAPPINGS.has(mapping)) for (const name of [d.name, `${d.namespace}/${d.name}`, d.nodeId]) shared.add(name);
    else perUnit = true;
  }
  return { shared, perUnit };
}

/** The writer's current reads, from the catalog's edge records. */
export function readsOfWriter(writer: TaskRecord, edges: readonly EdgeRecord[], datasetsById: ReadonlyMap<string, DatasetRecord>) {
  return edges.flatMap((e) => {
    const dataset = e.taskId === writer.id && e.direction === "read" ? datasetsById.get(e.datasetId) : undefined;
    return dataset ? [{ dataset, mapping: e.mapping }] : [];
  });
}
