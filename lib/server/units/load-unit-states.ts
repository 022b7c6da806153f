import { compileMapping, type PartitionMapping } from "@/lib/domain/partition-mappings";
import { resolvePartitions, type PartitionSpace } from "@/lib/domain/partitions";
import { UnitSet } from "@/lib/domain/unit-set";
import { prevailingInputVersion } from "@/lib/domain/validation";
import { computeUnitStates, type LedgerEntry, type UnitFacts, type UnitStateResult, type UpstreamPublish } from "@/lib/domain/unit-state";
import type { Db } from "../db/client";
import { listDatasets, listEdgesAt, listTasks, type DatasetRecord, type EdgeRecord, type TaskRecord } from "../repositories/catalog";
import { attemptsByUnit, marksByUnit, publishesByUnit, sourceCountsByUnit, type ByUnit } from "../repositories/ledger";

export interface DatasetUnitStates {
  dataset: DatasetRecord;
  writer: TaskRecord | null;
  space: PartitionSpace;
  /** Expected units, in ordinal order, with their computed state. */
  units: { key: string; ordinal: number; result: UnitStateResult }[];
  /** Keys in the ledger that the partition definition rejects (seed 002), with the reason. */
  invalidLedgerKeys: { key: string; reason: string }[];
}

/**
 * The state of every expected unit of every dataset, from the ledger, attempts, source counts,
 * operator marks and the upstream units each one reads (for staleness). The rules are
 * lib/domain's unitState; this only gathers the facts.
 */
export async function loadUnitStates(db: Db, now: Date): Promise<DatasetUnitStates[]> {
  const [datasets, tasks, edges] = await Promise.all([listDatasets(db), listTasks(db), listEdgesAt(db, now)]);
  const ids = datasets.map((d) => d.id);
  const [ledger, attempts, sources, marks] = await Promise.all([
    publishesByUnit(db, ids), attemptsByUnit(db, tasks.map((t) => t.id)), sourceCountsByUnit(db, ids), marksByUnit(db, ids),
  ]);
  const spaces = new Map(datasets.map((d) => [d.id, resolvePartitions(d.partitionDef, { asOf: now.getTime() })]));
  const tasksById = new Map(tasks.map((t) => [t.id, t]));
  const writerOf = new Map(edges.filter((e) => e.direction === "write").map((e) => [e.datasetId, e.taskId]));
  return datasets.map((dataset) => {
    const space = spaces.get(dataset.id)!;
    const writerId = writerOf.get(dataset.id);
    const writer = writerId ? (tasksById.get(writerId) ?? null) : null;
    const ctx: FactsContext = { dataset, space, writer, ledger, attempts, sources, marks, datasets, spaces, edges };
    return statesOf(ctx, now.getTime());
  });
}

interface FactsContext {
  dataset: DatasetRecord;
  space: PartitionSpace;
  writer: TaskRecord | null;
  ledger: ByUnit<LedgerEntry>;
  attempts: ByUnit<import("@/lib/domain/unit-state").Attempt>;
  sources: Map<string, Map<string, number>>;
  marks: ByUnit<import("@/lib/domain/unit-state").OperatorMark>;
  datasets: DatasetRecord[];
  spaces: Map<string, PartitionSpace>;
  edges: EdgeRecord[];
}

function statesOf(ctx: FactsContext, now: number): DatasetUnitStates {
  const { dataset, space, writer } = ctx;
  const ledger = ctx.ledger.get(dataset.id) ?? new Map<string, LedgerEntry[]>();
  const attempts = writer ? ctx.attempts.get(writer.id) : undefined;
  const sources = ctx.sources.get(dataset.id);
  const marks = ctx.marks.get(dataset.id);
  const upstreamOf = writer ? upstreamResolver(ctx, writer) : () => [];
  const neighbourInputVersion = prevailingInputVersion([...ledger].flatMap(([unitKey, rows]) => rows.map((r) => ({ ...r, unitKey }))));
  const keys: { key: string; ordinal: number }[] = [];
  space.expected.forEachRange((lo, hi) => {
    for (let o = lo; o <= hi; o++) keys.push({ key: space.keyAt(o), ordinal: o });
  });
  const facts: UnitFacts[] = keys.map(({ key, ordinal }) => ({
    ledger: ledger.get(key) ?? [],
    attempts: attempts?.get(key) ?? [],
    sourceCount: sources?.get(key) ?? null,
    tolerance: dataset.tolerance,
    // Unknown write mode counts as unsafe: treat it like append when judging duplicates.
    writeMode: writer?.writeMode ?? "append",
    upstream: upstreamOf(ordinal),
    neighbourInputVersion,
    marks: marks?.get(key) ?? [],
  }));
  const results = computeUnitStates(facts, now);
  const defined = definedSpace(dataset, space);
  const invalidLedgerKeys = [...ledger.keys()].flatMap((key) => {
    const verdict = defined.validate(key);
    return verdict.valid ? [] : [{ key, reason: verdict.reason }];
  });
  return { dataset, writer, space, units: keys.map((k, i) => ({ ...k, result: results[i]! })), invalidLedgerKeys };
}

/**
 * Every unit the definition allows, whether or not its window has closed: a bounded definition
 * (meters: 2026-01 … 2026-12) may legitimately publish a unit before it is expected, and that
 * is not an invalid key. Open-ended definitions can only be judged up to now.
 */
function definedSpace(dataset: DatasetRecord, expectedSpace: PartitionSpace): PartitionSpace {
  try {
    return resolvePartitions(dataset.partitionDef);
  } catch {
    return expectedSpace;
  }
}

/**
 * For unit d of the writer's output, the newest publish among the upstream units it reads, per
 * read edge. As-of-now (`latest`) reads are left out: such a unit was built against the
 * snapshot current at its build time by design; that shows up as an input-version difference.
 */
function upstreamResolver(ctx: FactsContext, writer: TaskRecord): (ordinal: number) => UpstreamPublish[] {
  const reads = ctx.edges.filter((e) => e.taskId === writer.id && e.direction === "read" && e.mapping !== "latest");
  const compiled = reads.flatMap((e) => {
    const up = ctx.datasets.find((d) => d.id === e.datasetId);
    const upSpace = up && ctx.spaces.get(up.id);
    if (!up || !upSpace) return [];
    try {
      const mapping = compileMapping({ type: e.mapping, ...e.mappingParams } as PartitionMapping, upSpace, ctx.space);
      return [{ up, upSpace, mapping, latest: latestPublishByOrdinal(ctx.ledger.get(up.id), upSpace) }];
    } catch {
      return []; // a mapping that cannot relate the two definitions is reported by the lineage view
    }
  });
  return (ordinal) => {
    const out: UpstreamPublish[] = [];
    for (const c of compiled) {
      let best = -1;
      let bestKey = "";
      c.mapping.readsOf(UnitSet.of(ordinal)).forEachRange((lo, hi) => {
        for (let o = lo; o <= hi; o++) {
          const at = c.latest[o] ?? -1;
          if (at > best) [best, bestKey] = [at, c.upSpace.keyAt(o)];
        }
      });
      if (best >= 0) out.push({ dataset: c.up.nodeId, unitKey: bestKey, publishedAt: best });
    }
    return out;
  };
}

function latestPublishByOrdinal(ledger: Map<string, LedgerEntry[]> | undefined, space: PartitionSpace): Float64Array {
  const latest = new Float64Array(space.size).fill(-1);
  for (const [key, entries] of ledger ?? []) {
    const v = space.validate(key);
    if (!v.valid) continue;
    for (const e of entries) latest[v.ordinal] = Math.max(latest[v.ordinal]!, e.publishedAt);
  }
  return latest;
}
