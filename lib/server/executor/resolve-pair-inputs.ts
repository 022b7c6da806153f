import { UnitSet } from "@/lib/domain/unit-set";
import type { ExecutorDataset, ExecutorTask } from "./executor-lineage";

export interface ResolvedRead {
  dataset: ExecutorDataset;
  mapping: string;
  unitKeys: string[];
}

/**
 * Which upstream units one unit of a task reads, per read edge, through the edge's partition
 * mapping: identity → the same day, previous → the day before (none for the first unit),
 * grain → the seven days of a week, latest → the dimension's current snapshot.
 */
export function resolvePairInputs(task: ExecutorTask, unitKey: string): ResolvedRead[] {
  const verdict = task.space.validate(unitKey);
  if (!verdict.valid) throw new Error(`${task.nodeId}: ${verdict.reason}`);
  return task.reads.map((read) => {
    const units = read.compiled.readsOf(UnitSet.of(verdict.ordinal)).intersect(read.dataset.space.expected);
    const unitKeys: string[] = [];
    for (const o of units) unitKeys.push(read.dataset.space.keyAt(o));
    return { dataset: read.dataset, mapping: read.mapping, unitKeys };
  });
}
