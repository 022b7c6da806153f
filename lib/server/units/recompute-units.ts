import { compileMapping, type PartitionMapping } from "@/lib/domain/partition-mappings";
import type { PartitionSpace } from "@/lib/domain/partitions";
import { UnitSet } from "@/lib/domain/unit-set";
import type { Db } from "../repositories/database";
import type { DatasetRecord, EdgeRecord, TaskRecord } from "../repositories/catalog/catalog-reads";
import { attemptsByUnit, marksByUnit, publishesByUnit, sourceCountsByUnit } from "../repositories/ledger/unit-ledger";
import { chunked } from "../repositories/sql/chunked";
import { cleanedAtByUnit } from "../repositories/repairs/unit-interventions";
import { statesOf, type DatasetUnitStates } from "./load-unit-states";
import type { DatasetProblems } from "./upstream-problems";

export interface UnitsToRecompute {
  dataset: DatasetRecord;
  writer: TaskRecord | null;
  space: PartitionSpace;
  units: UnitSet;
  /** The dataset's prevailing input version (from its whole ledger, kept with its states). */
  prevailing: string | null;
}

export interface Surroundings {
  edges: readonly EdgeRecord[];
  datasetsById: ReadonlyMap<string, DatasetRecord>;
  spaces: ReadonlyMap<string, PartitionSpace>;
  /** Problem units per dataset as they stand now (updated upstream first by the caller). */
  problemsOf: (datasetId: string) => DatasetProblems | undefined;
}

const CHUNK = 500;

/**
 * The states of some units of one dataset, from their records only — the publishes, attempts,
 * source counts, marks and cleanings of those keys, and the upstream units they read (for
 * staleness) — with the same rules as the whole computation (statesOf): what an incremental
 * update of the unit-state service recomputes after a write, instead of the dataset.
 */
export async function recomputeUnits(db: Db, now: Date, target: UnitsToRecompute, around: Surroundings): Promise<DatasetUnitStates> {
  const { dataset, writer, space } = target;
  const keys = [...target.units].filter((o) => o < space.size).map((o) => space.keyAt(o));
  const scope = chunks(keys).map((k) => ({ id: dataset.id, keys: k }));
  const [ledgerBy, attemptsBy, sourcesBy, marksBy, cleanedBy] = await Promise.all([
    merged(scope.map((s) => publishesByUnit(db, [s]))),
    writer ? merged(chunks(keys).map((k) => attemptsByUnit(db, [{ id: writer.id, keys: k }]))) : Promise.resolve(new Map()),
    merged(scope.map((s) => sourceCountsByUnit(db, [s]))),
    merged(scope.map((s) => marksByUnit(db, [s]))),
    cleanedAtByUnit(db, [dataset.id]),
  ]);
  const latest = writer ? await upstreamLatest(db, writer, space, target.units, around) : new Map<string, Float64Array>();
  return statesOf(
    {
      dataset,
      space,
      writer,
      ledger: ledgerBy.get(dataset.id) ?? new Map(),
      attempts: writer ? attemptsBy.get(writer.id) : undefined,
      sources: sourcesBy.get(dataset.id),
      marks: marksBy.get(dataset.id),
      cleaned: cleanedBy.get(dataset.id),
      latest,
      datasetsById: around.datasetsById as Map<string, DatasetRecord>,
      spaces: around.spaces as Map<string, PartitionSpace>,
      edges: around.edges as EdgeRecord[],
      problemsOf: around.problemsOf,
      only: target.units,
      ownProblems: around.problemsOf(dataset.id),
      neighbourInputVersion: target.prevailing,
    },
    now.getTime(),
  );
}

/**
 * The newest publish of each upstream unit the recomputed units read (staleness), per read
 * dataset, as the whole computation's latest-publish arrays but filled only where read.
 */
export async function upstreamLatest(
  db: Db,
  writer: TaskRecord,
  space: PartitionSpace,
  units: UnitSet,
  around: Pick<Surroundings, "edges" | "spaces">,
): Promise<Map<string, Float64Array>> {
  const out = new Map<string, Float64Array>();
  for (const e of around.edges) {
    if (e.taskId !== writer.id || e.direction !== "read" || e.mapping === "latest" || out.has(e.datasetId)) continue;
    const upSpace = around.spaces.get(e.datasetId);
    if (!upSpace) continue;
    let read: UnitSet;
    try {
      read = compileMapping({ type: e.mapping, ...e.mappingParams } as PartitionMapping, upSpace, space).readsOf(units);
    } catch {
      continue; // the whole computation skips such an edge for staleness too (upstream-resolver.ts)
    }
    const latest = new Float64Array(upSpace.size).fill(-1);
    const keys = [...read].filter((o) => o < upSpace.size).map((o) => upSpace.keyAt(o));
    const publishes = await merged(chunks(keys).map((k) => publishesByUnit(db, [{ id: e.datasetId, keys: k }])));
    for (const [key, entries] of publishes.get(e.datasetId) ?? []) {
      const v = upSpace.validate(key);
      if (v.valid) for (const p of entries) latest[v.ordinal] = Math.max(latest[v.ordinal]!, p.publishedAt);
    }
    out.set(e.datasetId, latest);
  }
  return out;
}

function chunks<T>(items: T[]): T[][] {
  const out = chunked(items, CHUNK);
  return out.length > 0 ? out : [[]];
}

/** Per-owner maps from several chunked reads, merged. */
async function merged<V>(reads: Promise<Map<string, Map<string, V>>>[]): Promise<Map<string, Map<string, V>>> {
  const out = new Map<string, Map<string, V>>();
  for (const part of await Promise.all(reads)) {
    for (const [owner, byKey] of part) {
      const into = out.get(owner) ?? new Map<string, V>();
      for (const [k, v] of byKey) into.set(k, v);
      out.set(owner, into);
    }
  }
  return out;
}
