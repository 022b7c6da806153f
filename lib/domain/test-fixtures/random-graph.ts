/**
 * Small random lineages for property tests: sources and tasks over daily (20 days), ISO-weekly
 * (3 weeks) and unpartitioned spaces, with every mapping kind and some sequential self-loops.
 * Task i reads only datasets of sources or of tasks j < i, so the graph is a DAG by
 * construction (plus legal previous(n) self-loops).
 */
import fc from "fast-check";
import { datasetId, taskId } from "../ids";
import { mustBuildLineageGraph, type LineageGraph, type LineageSpec, type TaskSpec } from "../lineage-graph";
import type { PartitionMapping } from "../partition-mappings";
import type { PartitionDef } from "../partitions";

const SPACES: PartitionDef[] = [
  { kind: "time", grain: "day", start: "2026-01-05", end: "2026-01-24", timezone: "UTC" },
  { kind: "time", grain: "week", start: "2026-W02", end: "2026-W04", timezone: "UTC" },
  { kind: "none" },
];

function mappingFor(up: number, down: number, pick: number, n: number): PartitionMapping {
  if (up === 2 || down === 2) return pick % 2 === 0 ? { type: "all" } : { type: "latest" };
  if (up !== down) return [{ type: "grain" }, { type: "all" }, { type: "latest" }][pick % 3] as PartitionMapping;
  const same: PartitionMapping[] = [
    { type: "identity" },
    { type: "previous", n },
    { type: "window", k: n },
    { type: "all" },
    { type: "latest" },
    { type: "grain" },
  ];
  return same[pick % same.length]!;
}

const arbTask = fc.record({
  space: fc.nat(2),
  inputs: fc.array(fc.tuple(fc.nat(50), fc.nat(50), fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 3 }),
  selfLoop: fc.option(fc.integer({ min: 1, max: 2 }), { freq: 3 }),
  writeMode: fc.constantFrom<TaskSpec["writeMode"]>("replace", "merge", "append", undefined),
  sideEffect: fc.constantFrom<TaskSpec["sideEffect"]>("none", "none", "external", undefined),
  publish: fc.constantFrom<TaskSpec["publish"]>("per_unit", "per_unit", "atomic_set"),
  dependsOnOwnPast: fc.constantFrom<boolean | undefined>(false, false, undefined),
});

export const arbLineage = fc
  .record({ sources: fc.array(fc.nat(2), { minLength: 1, maxLength: 2 }), tasks: fc.array(arbTask, { minLength: 1, maxLength: 7 }) })
  .map(({ sources, tasks }): LineageSpec => {
    const datasets = sources.map((s, i) => ({
      id: datasetId("p", `src${i}`),
      kind: "table" as const,
      pipeline: "p",
      partitions: SPACES[s]!,
      sourceMutable: i % 2 === 1,
    }));
    const spaceOf = sources.slice();
    const spec: { tasks: TaskSpec[]; reads: LineageSpec["reads"][number][]; writes: LineageSpec["writes"][number][] } = { tasks: [], reads: [], writes: [] };
    tasks.forEach((t, i) => {
      const id = taskId(i % 3 === 2 ? "q" : "p", `t${i}`);
      const out = datasetId("p", `d${i}`);
      datasets.push({ id: out, kind: "table", pipeline: i % 3 === 2 ? "q" : "p", partitions: SPACES[t.space]!, sourceMutable: false });
      spec.tasks.push({
        id,
        pipeline: i % 3 === 2 ? "q" : "p",
        writeMode: t.writeMode,
        sideEffect: t.sideEffect,
        publish: t.publish,
        dependsOnOwnPast: t.dependsOnOwnPast,
      });
      spec.writes.push({ task: id, dataset: out });
      const seen = new Set<number>();
      for (const [which, pick, n] of t.inputs) {
        const d = which % (datasets.length - 1);
        if (seen.has(d)) continue;
        seen.add(d);
        spec.reads.push({ task: id, dataset: datasets[d]!.id, mapping: mappingFor(spaceOf[d]!, t.space, pick, n) });
      }
      if (t.selfLoop !== null && t.space !== 2) spec.reads.push({ task: id, dataset: out, mapping: { type: "previous", n: t.selfLoop } });
      spaceOf.push(t.space);
    });
    return { datasets, ...spec };
  });

export const arbGraph = arbLineage.map((spec) => mustBuildLineageGraph(spec));

export type { LineageGraph };
