/**
 * A seeded, deterministic lineage for the domain benchmark: 5,000 tasks (each writing one
 * dataset) and ~15,000 read edges over 3,650 daily units (2016-01-01 … 2025-12-28), with
 * monthly roll-ups (day → month), month → day fan-outs, 7-day windows, previous(1) reads,
 * sequential self-loops, a few unpartitioned snapshots read with `all`.
 *
 * The generator also returns the edges in plain form so the naive baseline can apply each
 * mapping unit by unit with its own arithmetic, independent of lib/domain's range code.
 */
import { datasetId, taskId, type DatasetId, type TaskId } from "../lib/domain/ids";
import type { DatasetSpec, LineageSpec, ReadSpec, TaskSpec } from "../lib/domain/lineage-graph";
import type { PartitionDef } from "../lib/domain/partitions";

export const DAYS = 3650;
export const MONTHS = 120;
const DAILY: PartitionDef = { kind: "time", grain: "day", start: "2016-01-01", end: "2025-12-28", timezone: "UTC" };
const MONTHLY: PartitionDef = { kind: "time", grain: "month", start: "2016-01", end: "2025-12", timezone: "UTC" };
const NONE: PartitionDef = { kind: "none" };

export type SpaceKind = "day" | "month" | "none";
export type NaiveMapping = { type: "identity" } | { type: "previous"; n: number } | { type: "window"; k: number } | { type: "grain" } | { type: "all" };

export interface BenchGraph {
  spec: LineageSpec;
  /** Per dataset/task id, which space it lives in. */
  spaceOf: Map<string, SpaceKind>;
  reads: { task: TaskId; dataset: DatasetId; mapping: NaiveMapping; self: boolean }[];
  tasks: TaskId[];
}

/** mulberry32: tiny, fast, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mappingBetween(up: SpaceKind, down: SpaceKind, r: number): NaiveMapping {
  if (up === "none" || down === "none") return { type: "all" };
  if (up !== down) return { type: "grain" };
  if (up === "month") return { type: "identity" };
  return r < 0.7 ? { type: "identity" } : r < 0.9 ? { type: "window", k: 7 } : { type: "previous", n: 1 };
}

const defOf = (k: SpaceKind) => (k === "day" ? DAILY : k === "month" ? MONTHLY : NONE);

export function generateBenchGraph(taskCount = 5000, seed = 20260817): BenchGraph {
  const random = rng(seed);
  const spaceOf = new Map<string, SpaceKind>();
  const datasets: DatasetSpec[] = [];
  const tasks: TaskSpec[] = [];
  const writes: LineageSpec["writes"][number][] = [];
  const reads: BenchGraph["reads"] = [];
  const produced: { id: DatasetId; kind: SpaceKind }[] = [];
  for (let s = 0; s < 50; s++) {
    const id = datasetId("bench", `source_${s}`);
    datasets.push({ id, kind: "file_set", pipeline: "ingest", partitions: DAILY, sourceMutable: false });
    spaceOf.set(id, "day");
    produced.push({ id, kind: "day" });
  }
  for (let i = 0; i < taskCount; i++) {
    const r = random();
    const kind: SpaceKind = r < 0.85 ? "day" : r < 0.97 ? "month" : "none";
    const id = taskId("bench", `task_${i}`);
    const out = datasetId("bench", `table_${i}`);
    const selfLoop = kind === "day" && random() < 0.03;
    tasks.push({
      id,
      pipeline: `pipeline_${i % 40}`,
      writeMode: random() < 0.02 ? "append" : "replace",
      sideEffect: random() < 0.01 ? "external" : "none",
      dependsOnOwnPast: selfLoop,
      publish: "per_unit",
    });
    datasets.push({ id: out, kind: "table", pipeline: `pipeline_${i % 40}`, partitions: defOf(kind) });
    spaceOf.set(id, kind).set(out, kind);
    writes.push({ task: id, dataset: out });
    const inputs = 2 + Math.floor(random() * 3);
    const chosen = new Set<number>();
    for (let k = 0; k < inputs; k++) {
      const window = Math.min(produced.length, 150);
      let pick = produced.length - 1 - Math.floor(random() * window);
      if (produced[pick]!.kind === "none" && random() < 0.8) pick = Math.floor(random() * 50); // snapshots are read rarely
      if (chosen.has(pick)) continue;
      chosen.add(pick);
      const up = produced[pick]!;
      reads.push({ task: id, dataset: up.id, mapping: mappingBetween(up.kind, kind, random()), self: false });
    }
    if (selfLoop) reads.push({ task: id, dataset: out, mapping: { type: "previous", n: 1 }, self: true });
    produced.push({ id: out, kind });
  }
  const spec: LineageSpec = { tasks, datasets, writes, reads: reads.map((r): ReadSpec => ({ task: r.task, dataset: r.dataset, mapping: r.mapping })) };
  return { spec, spaceOf, reads, tasks: tasks.map((t) => t.id) };
}
