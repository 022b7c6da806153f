/**
 * The closure of (node, units) pairs through the lineage's partition mappings: downstream is
 * the blast radius of a failure, upstream is what a unit was built from. One traversal with a
 * direction, not two copies (Marquez's twins drifted apart by one word).
 *
 * Why sets of ranges through a topological pass: each node is visited once, after everything
 * that can reach it, and each edge maps whole ranges. A sequential model (previous self-loop)
 * extends its set to the end of its range in one step — a gap in a running balance
 * invalidates every later balance — instead of iterating day by day.
 *
 * Example (seed 001 demo, downstream from stg_orders 2026-08-17):
 *   stg_orders[08-17] → fct_orders[08-17] → revenue_daily[08-17] → finance_export[2026-W34]
 *                                     └──→ running_balance[08-17..08-25]  (previous(1) self-loop)
 */
import type { NodeId, TaskId } from "./ids";
import type { GraphEdge, LineageGraph } from "./lineage-graph";
import { UnitSet } from "./unit-set";

export type Direction = "downstream" | "upstream";

export interface Seed {
  readonly node: NodeId;
  readonly units: UnitSet;
}

export interface ClosureOptions {
  /** Included when reached, but not traversed past. */
  readonly stopAt?: ReadonlySet<NodeId>;
  /** Their set widens to every expected unit: an atomic-set publish makes the whole set the unit. */
  readonly widenToFull?: ReadonlySet<NodeId>;
  /** Also treated as sequential (previous(1) self-loop): unknown independence counts as unsafe. */
  readonly assumeSequential?: ReadonlySet<TaskId>;
}

export interface ClosureEntry {
  readonly node: NodeId;
  readonly nodeKind: "task" | "dataset";
  readonly units: UnitSet;
  readonly seed: boolean;
  /** Predecessors in the traversal direction that contributed units. */
  readonly via: readonly NodeId[];
  /** Those of `via` reached over a degraded edge (walked as all units), with the reason. */
  readonly degradedVia: readonly { readonly node: NodeId; readonly reason: string }[];
  /** The contributing predecessor nearest a seed; follow it for the edge path. */
  readonly parent: NodeId | null;
  /** Hops from the nearest seed. */
  readonly depth: number;
  /** Execution order over all included nodes (0 runs first). */
  readonly nodeWave: number;
}

export interface ClosureResult {
  readonly direction: Direction;
  readonly entries: ReadonlyMap<NodeId, ClosureEntry>;
  /** Included nodes grouped in dependency (execution) order, whichever the direction. */
  readonly nodeWaves: readonly (readonly NodeId[])[];
  /** Included tasks only: wave i depends only on tasks in waves < i. */
  readonly taskWaves: readonly (readonly TaskId[])[];
  /** Σ units over included nodes. */
  readonly pairCount: number;
  /** Σ units over included tasks: the (task, unit) pairs — what the plan, the run and the history count. */
  readonly taskPairCount: number;
}

/**
 * Fixpoint of X ∪ shift(X, ±n) in O(log size) set operations. With n = 1, or any range at
 * least n long, that is simply "from the earliest unit to the end" (downstream) or "from the
 * start to the latest unit" (upstream); a sparse set with n > 1 keeps its residues.
 *   sequentialExtent({91}, 1, 100, "downstream") → {91..99}
 */
export function sequentialExtent(units: UnitSet, n: number, size: number, direction: Direction): UnitSet {
  if (units.isEmpty) return units;
  let everyRangeLong = true;
  units.forEachRange((lo, hi) => {
    if (hi - lo + 1 < n) everyRangeLong = false;
  });
  if (n === 1 || everyRangeLong) {
    return direction === "downstream" ? UnitSet.range(units.min!, size - 1) : UnitSet.range(0, units.max!);
  }
  let x = units;
  for (let step = n; step < size * 2; step *= 2) {
    const next = x.union(x.shift(direction === "downstream" ? step : -step, size));
    if (next.equals(x)) break;
    x = next;
  }
  return x;
}

// The walk's state is per node index, in flat arrays and typed flags rather than per-node objects:
// the bench's closure (9,146 nodes, 19,895 edges) spends most of its time reading edges and what
// they point at, and in scavenges of what it allocated (docs/lineage.md, issue 35).
interface Work {
  sets: (UnitSet | undefined)[];
  /** Contributing predecessors, as the ids the result lists (ids and indices are one-to-one). */
  via: (NodeId[] | undefined)[];
  degraded: (Map<number, string> | undefined)[];
  parent: number[];
  depth: number[];
  /** 1 where a seed named the node. */
  seeded: Uint8Array;
}

function seedWork(graph: LineageGraph, seeds: readonly Seed[]): Work {
  const n = graph.nodes.length;
  const work: Work = {
    sets: new Array(n),
    via: new Array(n),
    degraded: new Array(n),
    parent: new Array(n).fill(-1),
    depth: new Array(n).fill(0),
    seeded: new Uint8Array(n),
  };
  for (const s of seeds) {
    const i = graph.index.get(s.node);
    if (i === undefined) throw new Error(`closure seed is not in the graph: ${s.node}`);
    const clipped = s.units.clip(graph.nodes[i]!.space.size);
    work.sets[i] = (work.sets[i] ?? UnitSet.EMPTY).union(clipped);
    work.seeded[i] = 1;
  }
  return work;
}

/** Named by a seed and holding units: a seed's units may all fall outside its space. */
const isSeed = (work: Work, i: number) => work.seeded[i] === 1 && !work.sets[i]!.isEmpty;

function contribute(work: Work, from: number, fromId: NodeId, to: number, units: UnitSet, degraded: string | null) {
  if (units.isEmpty) return;
  work.sets[to] = work.sets[to] ? work.sets[to].union(units) : units;
  const via = (work.via[to] ??= []);
  if (!via.includes(fromId)) via.push(fromId);
  if (degraded !== null) (work.degraded[to] ??= new Map()).set(from, degraded);
  const depth = work.depth[from]! + 1;
  if (!isSeed(work, to) && (work.parent[to] === -1 || depth < work.depth[to]!)) {
    work.parent[to] = from;
    work.depth[to] = depth;
  }
}

export function closure(graph: LineageGraph, seeds: readonly Seed[], direction: Direction, options: ClosureOptions = {}): ClosureResult {
  const work = seedWork(graph, seeds);
  const down = direction === "downstream";
  const order = down ? graph.topo : [...graph.topo].reverse();
  const assumed = new Set([...(options.assumeSequential ?? [])].map((id) => graph.index.get(id)));
  for (const i of order) {
    let units = work.sets[i];
    if (!units || units.isEmpty) continue;
    const node = graph.nodes[i]!;
    const loop = graph.selfLoops.get(i) ?? (assumed.has(i) ? 1 : undefined);
    if (loop !== undefined) units = sequentialExtent(units, loop, node.space.size, direction);
    if (options.widenToFull?.has(node.id)) units = units.union(node.space.expected);
    work.sets[i] = units;
    if (options.stopAt?.has(node.id)) continue;
    const edges: readonly GraphEdge[] = down ? graph.out[i]! : graph.in[i]!;
    for (const e of edges) {
      const target = down ? e.to : e.from;
      contribute(work, i, node.id, target, down ? e.down(units) : e.up(units), e.degraded);
    }
  }
  return assemble(graph, work, direction);
}

const NONE: readonly never[] = Object.freeze([]);

function assemble(graph: LineageGraph, work: Work, direction: Direction): ClosureResult {
  const n = graph.nodes.length;
  const inClosure = new Uint8Array(n);
  work.sets.forEach((units, i) => {
    if (units && !units.isEmpty) inClosure[i] = 1;
  });
  const nodeWave = new Int32Array(n).fill(-1);
  // The task wave a node's successors start from: its own, plus one if it is a task.
  const levelAfter = new Int32Array(n);
  const entries = new Map<NodeId, ClosureEntry>();
  const nodeWaves: NodeId[][] = [];
  const taskWaves: TaskId[][] = [];
  let pairCount = 0;
  let taskPairCount = 0;
  for (const i of graph.topo) {
    if (inClosure[i] === 0) continue;
    const node = graph.nodes[i]!;
    let wave = 0;
    let level = 0;
    for (const e of graph.in[i]!) {
      if (inClosure[e.from] === 0) continue;
      wave = Math.max(wave, nodeWave[e.from]! + 1);
      level = Math.max(level, levelAfter[e.from]!);
    }
    nodeWave[i] = wave;
    levelAfter[i] = node.nodeKind === "task" ? level + 1 : level;
    (nodeWaves[wave] ??= []).push(node.id);
    if (node.nodeKind === "task") (taskWaves[level] ??= []).push(node.id);
    const units = work.sets[i]!;
    pairCount += units.size;
    if (node.nodeKind === "task") taskPairCount += units.size;
    entries.set(node.id, {
      node: node.id,
      nodeKind: node.nodeKind,
      units,
      seed: isSeed(work, i),
      via: work.via[i] ?? NONE,
      degradedVia: work.degraded[i] ? [...work.degraded[i]].map(([v, reason]) => ({ node: graph.nodes[v]!.id, reason })) : NONE,
      parent: work.parent[i]! >= 0 ? graph.nodes[work.parent[i]!]!.id : null,
      depth: work.depth[i]!,
      nodeWave: wave,
    });
  }
  return { direction, entries, nodeWaves, taskWaves: taskWaves.filter((w) => w !== undefined), pairCount, taskPairCount };
}

/** The edge path that put `node` in the closure: seed first, `node` last. */
export function closurePath(result: ClosureResult, node: NodeId): NodeId[] {
  const path: NodeId[] = [];
  let at: NodeId | null = node;
  while (at !== null) {
    const entry = result.entries.get(at);
    if (!entry) break;
    path.push(at);
    at = entry.seed ? null : entry.parent;
  }
  return path.reverse();
}
