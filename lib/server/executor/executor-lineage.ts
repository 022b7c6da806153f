/**
 * The lineage as the executor needs it: each task with the dataset it writes and the read
 * edges (compiled partition mappings) that say which upstream units one of its units reads.
 */
import type { CompiledMapping } from "@/lib/domain/partition-mappings";
import type { PartitionSpace } from "@/lib/domain/partitions";
import type { WriteMode } from "@/lib/domain/unit-state";

export interface ExecutorDataset {
  id: string;
  nodeId: string;
  space: PartitionSpace;
}

export interface ExecutorRead {
  dataset: ExecutorDataset;
  mapping: string;
  compiled: CompiledMapping;
}

export interface ExecutorTask {
  id: string;
  nodeId: string;
  writeMode: WriteMode | null;
  sideEffect: "none" | "external" | null;
  output: ExecutorDataset;
  /** The task's unit space: the partition definition of the dataset it writes. */
  space: PartitionSpace;
  reads: ExecutorRead[];
}

export interface ExecutorLineage {
  tasks: ReadonlyMap<string, ExecutorTask>;
  datasets: ReadonlyMap<string, ExecutorDataset>;
  /** Dataset node id → node id of the task that writes it. */
  writerOf: ReadonlyMap<string, string>;
}
