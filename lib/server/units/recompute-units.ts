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
}

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
  const [ledger, attempts, sourcesBy, marksBy, cleanedBy] = await Promise.all([
    publishesOfUnits(db, dataset.id, keys),
    writer ? attemptsOfUnits(db, writer.id, keys) : Promise.resolve(undefined),
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
      ledger,
      attempts,
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
