import { compositeKey } from "@/lib/domain/composite-key";
import type { ExecutorLineage, ExecutorTask } from "./executor-lineage";
import { resolvePairInputs, type ResolvedRead } from "./resolve-pair-inputs";

export interface PlannedPair {
  key: string;
  task: ExecutorTask;
  unitKey: string;
  reads: ResolvedRead[];
  /** Pairs of the same run this pair reads from: it runs after them, and only if they succeeded. */
  dependsOn: string[];
  /** Input units no pair of this run produces, as { dataset id, unit keys }. */
  external: { datasetId: string; datasetNodeId: string; unitKeys: string[] }[];
  wave: number;
}

export const pairKey = (taskNodeId: string, unitKey: string) => compositeKey(taskNodeId, unitKey);

/**
 * Orders a run's (task, unit) pairs into waves: a pair's wave is one more than the latest wave
 * of the pairs it reads from in the same run. Inputs produced outside the run (an earlier run,
 * another pipeline, a source) are listed apart: the run's input policy decides about them.
 */
export function planRunPairs(lineage: ExecutorLineage, pairs: readonly { taskNodeId: string; unitKey: string }[]): PlannedPair[][] {
  const planned = new Map<string, PlannedPair>();
  for (const { taskNodeId, unitKey } of pairs) {
    const task = lineage.tasks.get(taskNodeId);
    if (!task) throw new Error(`unknown task ${taskNodeId}`);
    planned.set(pairKey(taskNodeId, unitKey), {
      key: pairKey(taskNodeId, unitKey),
      task,
      unitKey,
      reads: resolvePairInputs(task, unitKey),
      dependsOn: [],
      external: [],
      wave: -1,
    });
  }
  for (const pair of planned.values()) splitInputs(pair, lineage, planned);
  const waveOf = (pair: PlannedPair, path: Set<string>): number => {
    if (pair.wave >= 0) return pair.wave;
    if (path.has(pair.key)) throw new Error(`dependency cycle through ${pair.task.nodeId} ${pair.unitKey}`);
    path.add(pair.key);
    pair.wave = Math.max(-1, ...pair.dependsOn.map((k) => waveOf(planned.get(k)!, path))) + 1;
    path.delete(pair.key);
    return pair.wave;
  };
  const waves: PlannedPair[][] = [];
  for (const pair of planned.values()) (waves[waveOf(pair, new Set())] ??= []).push(pair);
  return waves.map((w) => w.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)));
}

function splitInputs(pair: PlannedPair, lineage: ExecutorLineage, planned: Map<string, PlannedPair>): void {
  for (const read of pair.reads) {
    const writer = lineage.writerOf.get(read.dataset.nodeId);
    const outside: string[] = [];
    for (const key of read.unitKeys) {
      const upstream = writer ? planned.get(pairKey(writer, key)) : undefined;
      if (upstream && upstream !== pair) pair.dependsOn.push(upstream.key);
      else outside.push(key);
    }
    if (outside.length > 0) pair.external.push({ datasetId: read.dataset.id, datasetNodeId: read.dataset.nodeId, unitKeys: outside });
  }
}
