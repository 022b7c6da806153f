import type { PartitionSpace } from "@/lib/domain/partitions";
import type { UnitStateResult } from "@/lib/domain/unit-state";
import type { DatasetRecord, TaskRecord } from "../../repositories/lineage/catalog-reads";

/** One dataset's unit states as the service holds them. */
export interface DatasetStateCodes {
  dataset: DatasetRecord;
  writer: TaskRecord | null;
  space: PartitionSpace;
  /** Byte per unit: the state's index in UNIT_STATE_PRECEDENCE, or NOT_EXPECTED. */
  codes: Uint8Array;
  /** The full result of every unit whose state is not published or repaired, by ordinal. */
  problems: Map<number, UnitStateResult>;
  invalidLedgerKeys: { key: string; reason: string }[];
  /** The input version most of its units were built from (what input-mismatch compares with). */
  prevailing: string | null;
}

export interface UnitStateSnapshot {
  computedAt: Date;
  datasets: DatasetStateCodes[];
  /** Set while a first computation runs: `datasets` holds the `done` of `total` datasets computed so far. */
  computing: { done: number; total: number } | null;
  /** A catalog change is being applied: these states are the ones before it. */
  refreshing: boolean;
}

/**
 * A world this small (a test, the demo) is always computed before answering, never partial; its
 * updates take milliseconds and run unbatched. A bigger one is computed beside the reads.
 */
export const SMALL_WORLD_UNITS = 150_000;

export function unitsOf(snapshot: UnitStateSnapshot): number {
  return snapshot.datasets.reduce((n, d) => n + d.codes.length, 0);
}

export function isBigWorld(snapshot: UnitStateSnapshot): boolean {
  return unitsOf(snapshot) > SMALL_WORLD_UNITS;
}
