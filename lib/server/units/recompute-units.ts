import type { PartitionSpace } from "@/lib/domain/partitions";
import { UnitSet } from "@/lib/domain/unit-set";
import type { Db } from "../repositories/database";
import type { DatasetRecord, EdgeRecord, TaskRecord } from "../repositories/lineage/catalog-reads";
import { marksByUnit, sourceCountsByUnit } from "../repositories/ledger/unit-ledger";
import { cleanedAtByUnit } from "../repositories/repair/unit-interventions";
import { statesOf, type DatasetUnitStates } from "./load-unit-states";
import { attemptsOfUnits, chunks, merged, publishesOfUnits, upstreamLatest } from "./reads-by-key";
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
  /** The units' source counts, marks and cleanings, read beforehand for every dataset of an update (readUnitRecords). */
  records?: UnitRecords;
}

/** Source counts, operator marks and cleanings of some units, by dataset id and unit key. */
export interface UnitRecords {
  sources: Map<string, Map<string, number>>;
  marks: Awaited<ReturnType<typeof marksByUnit>>;
  cleaned: Map<string, Map<string, number>>;
}

/**
 * The source counts, marks and cleanings of the units an update recomputes, for all its datasets
 * at once: read per dataset, they were three statements of each of an update's datasets — on
 * every console after every fold step (docs/ingestion.md).
 */
export async function readUnitRecords(db: Db, targets: { datasetId: string; keys: string[] }[]): Promise<UnitRecords> {
  const scopes = targets.filter((t) => t.keys.length > 0).flatMap((t) => chunks(t.keys).map((k) => ({ id: t.datasetId, keys: k })));
  // A few hundred keys a statement, however many datasets they belong to.
  const batches: { id: string; keys: string[] }[][] = [];
  let size = Infinity;
  for (const scope of scopes) {
    if (size + scope.keys.length > RECORDS_BATCH) {
      batches.push([]);
      size = 0;
    }
    batches.at(-1)!.push(scope);
    size += scope.keys.length;
  }
  const cleaned = await cleanedAtByUnit(db, [...new Set(targets.map((t) => t.datasetId))]);
  // One batch after another: an update of a big world recomputes up to hundreds of thousands of
  // units, and their batches all at once would take every connection from the pages' reads.
  const sources: Map<string, Map<string, number>>[] = [];
  const marks: UnitRecords["marks"][] = [];
  for (const b of batches) {
    const [s, m] = await Promise.all([sourceCountsByUnit(db, b), marksByUnit(db, b)]);
    sources.push(s);
    marks.push(m);
  }
  return { sources: await merged(sources), marks: await merged(marks), cleaned };
}

const RECORDS_BATCH = 500;

/**
 * The states of some units of one dataset, from their records only — the publishes, attempts,
 * source counts, marks and cleanings of those keys, and the upstream units they read (for
 * staleness) — with the same rules as the whole computation (statesOf): what an incremental
 * update of the unit-state service recomputes after a write, instead of the dataset.
 */
export async function recomputeUnits(db: Db, now: Date, target: UnitsToRecompute, around: Surroundings): Promise<DatasetUnitStates> {
  const { dataset, writer, space } = target;
  const keys = [...target.units].filter((o) => o < space.size).map((o) => space.keyAt(o));
  const [ledger, attempts, records] = await Promise.all([
    publishesOfUnits(db, dataset.id, keys),
    writer ? attemptsOfUnits(db, writer.id, keys) : Promise.resolve(undefined),
    around.records ?? readUnitRecords(db, [{ datasetId: dataset.id, keys }]),
  ]);
  const latest = writer ? await upstreamLatest(db, writer, space, target.units, around) : new Map<string, Float64Array>();
  return statesOf(
    {
      dataset,
      space,
      writer,
      ledger,
      attempts,
      sources: records.sources.get(dataset.id),
      marks: records.marks.get(dataset.id),
      cleaned: records.cleaned.get(dataset.id),
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
