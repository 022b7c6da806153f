import { compileMapping, type CompiledMapping, type PartitionMapping } from "@/lib/domain/partition-mappings";
import type { PartitionSpace } from "@/lib/domain/partitions";
import { UnitSet } from "@/lib/domain/unit-set";
import type { UpstreamProblem } from "@/lib/domain/unit-state";
import type { EdgeRecord, TaskRecord } from "../repositories/lineage/catalog-reads";

/** One dataset's units that pass a problem on to what reads them (suspect.ts), by ordinal. */
export interface DatasetProblems {
  nodeId: string;
  space: PartitionSpace;
  units: UnitSet;
  problemAt(ordinal: number): string;
}

/**
 * For unit d of a writer's output, the upstream units it reads (through each read edge's
 * mapping) that carry a problem — what makes it suspect. Edges whose mapping cannot relate the two
 * definitions are walked as every unit, as the lineage walks them. The writer's own output (a
 * self-read) is left to the caller, which sees its units in order, unless `includeSelf`.
 */
export function upstreamProblemsResolver(
  writer: TaskRecord,
  edges: readonly EdgeRecord[],
  ownDatasetId: string,
  ownSpace: PartitionSpace,
  problemsOf: (datasetId: string) => DatasetProblems | undefined,
  /** Also the writer's sequential read of its own output, when the own problems are already known (kept states). */
  options: { includeSelf?: boolean } = {},
): (ordinal: number) => UpstreamProblem[] {
  const reads: { bad: DatasetProblems; mapping: CompiledMapping; candidates: UnitSet }[] = [];
  for (const e of edges) {
    if (e.taskId !== writer.id || e.direction !== "read") continue;
    if (e.datasetId === ownDatasetId && (!options.includeSelf || e.mapping === "identity")) continue;
    const bad = problemsOf(e.datasetId);
    if (!bad || bad.units.isEmpty) continue;
    const mapping = compiled({ type: e.mapping, ...e.mappingParams } as PartitionMapping, bad.space, ownSpace);
    reads.push({ bad, mapping, candidates: mapping.readersOf(bad.units) });
  }
  if (reads.length === 0) return () => [];
  return (ordinal) => {
    const out: UpstreamProblem[] = [];
    for (const r of reads) {
      if (!r.candidates.contains(ordinal)) continue;
      const hit = r.mapping.readsOf(UnitSet.range(ordinal, ordinal)).intersect(r.bad.units).min;
      if (hit !== undefined) out.push({ dataset: r.bad.nodeId, unitKey: r.bad.space.keyAt(hit), problem: r.bad.problemAt(hit) });
    }
    return out;
  };
}

function compiled(mapping: PartitionMapping, up: PartitionSpace, down: PartitionSpace): CompiledMapping {
  try {
    return compileMapping(mapping, up, down);
  } catch {
    return compileMapping({ type: "all" }, up, down);
  }
}
