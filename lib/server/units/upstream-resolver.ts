import { compileMapping, type PartitionMapping } from "@/lib/domain/partition-mappings";
import type { PartitionSpace } from "@/lib/domain/partitions";
import { UnitSet } from "@/lib/domain/unit-set";
import type { LedgerEntry, UpstreamPublish } from "@/lib/domain/unit-state";
import type { DatasetRecord, EdgeRecord, TaskRecord } from "../repositories/lineage/catalog-reads";

export interface UpstreamContext {
  space: PartitionSpace;
  /** Latest publish instant per ordinal of each dataset read (see latestPublishByOrdinal). */
  latest: Map<string, Float64Array>;
  datasetsById: Map<string, DatasetRecord>;
  spaces: Map<string, PartitionSpace>;
  edges: EdgeRecord[];
}

/**
 * For unit d of the writer's output, the newest publish among the upstream units it reads, per
 * read edge. As-of-now (`latest`) reads are left out: such a unit was built against the
 * snapshot current at its build time by design; that shows up as an input-version difference.
 */
export function upstreamResolver(ctx: UpstreamContext, writer: TaskRecord): (ordinal: number) => UpstreamPublish[] {
  const writes = new Set(ctx.edges.filter((e) => e.taskId === writer.id && e.direction === "write").map((e) => e.datasetId));
  const reads = ctx.edges.filter((e) => e.taskId === writer.id && e.direction === "read" && e.mapping !== "latest");
  const compiled = reads.flatMap((e) => {
    const up = ctx.datasetsById.get(e.datasetId);
    const upSpace = up && ctx.spaces.get(up.id);
    if (!up || !upSpace) return [];
    const declared = { type: e.mapping, ...e.mappingParams } as PartitionMapping;
    // A task reading what it writes: unit d can never be stale against itself. OpenLineage lists a
    // running balance's own table as an input (identity); declared as depending on its own past, it
    // reads the unit before — the one whose republish makes it stale. Otherwise it updates in place.
    const self = writes.has(e.datasetId);
    const inPlace = self && (declared.type === "identity" || declared.type === "all");
    if (inPlace && writer.dependsOnOwnPast !== true) return [];
    try {
      const mapping = compileMapping(inPlace ? { type: "previous", n: 1 } : declared, upSpace, ctx.space);
      const latest = ctx.latest.get(up.id);
      return latest ? [{ up, upSpace, mapping, latest }] : [];
    } catch {
      return []; // a mapping that cannot relate the two definitions is reported by the lineage view
    }
  });
  if (compiled.length === 0) return () => [];
  return (ordinal) => {
    const out: UpstreamPublish[] = [];
    for (const c of compiled) {
      let best = -1;
      let bestOrdinal = -1;
      c.mapping.readsOf(UnitSet.range(ordinal, ordinal)).forEachRange((lo, hi) => {
        for (let o = lo; o <= hi; o++) {
          const at = c.latest[o] ?? -1;
          if (at > best) [best, bestOrdinal] = [at, o];
        }
      });
      if (best >= 0) out.push({ dataset: c.up.nodeId, unitKey: c.upSpace.keyAt(bestOrdinal), publishedAt: best });
    }
    return out;
  };
}

/** The newest publish instant of each unit (−1 where none), which is all staleness needs. */
export function latestPublishByOrdinal(ledger: Map<string, LedgerEntry[]> | undefined, space: PartitionSpace): Float64Array {
  const latest = new Float64Array(space.size).fill(-1);
  for (const [key, entries] of ledger ?? []) {
    const v = space.validate(key);
    if (!v.valid) continue;
    for (const e of entries) latest[v.ordinal] = Math.max(latest[v.ordinal]!, e.publishedAt);
  }
  return latest;
}
