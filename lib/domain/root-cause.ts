/**
 * Root cause first (seed 001, "B is green, its table is wrong"): from a symptom — a unit that is
 * divergent, suspect, blocked, stale — walk upstream through the partition mappings, following
 * only units that are themselves wrong, to the earliest ones: wrong units none of whose inputs is
 * wrong. Those are what an incident should repair; re-running the symptom alone rebuilds it on
 * the same bad input.
 *
 * Why per unit and only through wrong units: a sound unit stops the walk (whatever happened
 * further up did not reach it), so an old failure two hops above a healthy day is never blamed;
 * and a sequential task (a running balance reading its own previous day) is followed day by day
 * back to the first bad one, not to the start of its range.
 *
 * Example (the demo's meters): dedupe_readings 2026-07 is divergent; it reads meter_readings_raw
 * 2026-07 (identity), failed after 120 of 200 rows; that unit reads nothing wrong: the root cause
 * is land_meter_readings 2026-07, and dedupe_readings 2026-07 is its symptom.
 */
import type { NodeId } from "./ids";
import type { LineageGraph } from "./lineage-graph";
import { UnitSet } from "./unit-set";
import type { UnitState } from "./unit-state";

/** States a unit is wrong in — followed upstream, and a root cause where nothing above it is wrong. */
export const WRONG_STATES: ReadonlySet<UnitState> = new Set<UnitState>([
  "failed",
  "blocked",
  "missing",
  "empty",
  "duplicate",
  "divergent",
  "suspect",
  "stale",
  "known_bad",
]);

export interface CauseUnit {
  readonly key: string;
  readonly state: UnitState;
}

export interface RootCause {
  /** The task that writes the units (null: a source dataset nothing in the lineage writes). */
  readonly taskNodeId: NodeId | null;
  readonly datasetNodeId: NodeId;
  readonly units: readonly CauseUnit[];
}

export interface RootCauseWalk {
  /** The symptom's own wrong units (its output datasets' units), in the order walked. */
  readonly symptom: readonly (CauseUnit & { readonly datasetNodeId: NodeId })[];
  /** The earliest wrong units, grouped by (task, dataset), in execution order. Empty when the symptom is sound. */
  readonly roots: readonly RootCause[];
  /** Whether the symptom is its own root cause (nothing it reads is wrong). */
  readonly symptomIsRoot: boolean;
  /** The walk stopped at its budget of units visited: the roots named are the ones reached. */
  readonly truncated: boolean;
}

/** At most this many units are looked at per walk (an `all` mapping over years of days stays bounded). */
export const ROOT_CAUSE_BUDGET = 20_000;

/** Each node's place in the graph's topological order, built once per graph (a walk per alert would rebuild it each time). */
const topoOrders = new WeakMap<LineageGraph, ReadonlyMap<number, number>>();
function topoOrder(graph: LineageGraph): ReadonlyMap<number, number> {
  let order = topoOrders.get(graph);
  if (!order) topoOrders.set(graph, (order = new Map(graph.topo.map((i, n) => [i, n]))));
  return order;
}

/**
 * The root causes of a task's units. `stateOf(datasetIndex, ordinal)` is the unit's state as the
 * matrix shows it (undefined: not expected yet). Pure: the caller reads the states.
 */
export function walkToRootCauses(
  graph: LineageGraph,
  symptom: { readonly taskNodeId: NodeId; readonly units: UnitSet },
  stateOf: (datasetIndex: number, ordinal: number) => UnitState | undefined,
  budget = ROOT_CAUSE_BUDGET,
): RootCauseWalk {
  const ti = graph.index.get(symptom.taskNodeId);
  if (ti === undefined) return { symptom: [], roots: [], symptomIsRoot: false, truncated: false };
  const wrong = (d: number, o: number): UnitState | null => {
    const s = stateOf(d, o);
    return s !== undefined && WRONG_STATES.has(s) ? s : null;
  };
  let visits = 0;
  let truncated = false;
  /** The wrong units of `d` in `units`, counted against the budget. */
  const wrongIn = (d: number, units: UnitSet): number[] => {
    const out: number[] = [];
    for (const o of units) {
      if (++visits > budget) {
        truncated = true;
        break;
      }
      if (wrong(d, o)) out.push(o);
    }
    return out;
  };

  /** The wrong units a dataset unit was built from: its writer's inputs, and for a sequential writer its own earlier units. */
  const wrongInputs = (d: number, o: number): [number, number][] => {
    const out: [number, number][] = [];
    for (const w of graph.in[d]!) {
      if (w.kind !== "writes") continue;
      const taskUnits = w.up(UnitSet.of(o));
      for (const r of graph.in[w.from]!) {
        if (r.kind !== "reads" || r.from === d) continue;
        for (const u of wrongIn(r.from, r.up(taskUnits))) out.push([r.from, u]);
      }
      const past = graph.selfLoops.get(w.from);
      if (past !== undefined) for (let k = 1; k <= past && o - k >= 0; k++) if (wrong(d, o - k)) out.push([d, o - k]);
    }
    return out;
  };

  const start: (CauseUnit & { datasetNodeId: NodeId })[] = [];
  const queue: [number, number][] = [];
  for (const e of graph.out[ti]!) {
    if (e.kind !== "writes") continue;
    const ds = graph.nodes[e.to]!;
    for (const o of wrongIn(e.to, e.down(symptom.units))) {
      start.push({ datasetNodeId: ds.id, key: ds.space.keyAt(o), state: wrong(e.to, o)! });
      queue.push([e.to, o]);
    }
  }
  const seen = new Set(queue.map(([d, o]) => `${d}:${o}`));
  const roots = new Map<number, Set<number>>();
  while (queue.length > 0 && !truncated) {
    const [d, o] = queue.shift()!;
    const inputs = wrongInputs(d, o);
    if (inputs.length === 0) {
      roots.set(d, (roots.get(d) ?? new Set()).add(o));
      continue;
    }
    for (const [d2, o2] of inputs) {
      const id = `${d2}:${o2}`;
      if (seen.has(id)) continue;
      seen.add(id);
      queue.push([d2, o2]);
    }
  }
  const order = topoOrder(graph);
  const grouped = [...roots]
    .sort(([a], [b]) => order.get(a)! - order.get(b)!)
    .map(([d, ordinals]): RootCause => {
      const ds = graph.nodes[d]!;
      const writer = graph.in[d]!.find((w) => w.kind === "writes");
      return {
        taskNodeId: writer ? graph.nodes[writer.from]!.id : null,
        datasetNodeId: ds.id,
        units: [...ordinals].sort((a, b) => a - b).map((o) => ({ key: ds.space.keyAt(o), state: wrong(d, o)! })),
      };
    });
  const symptomIsRoot =
    grouped.length > 0 && grouped.every((r) => r.taskNodeId === symptom.taskNodeId) && grouped.flatMap((r) => r.units).length === start.length;
  return { symptom: start, roots: grouped, symptomIsRoot, truncated };
}
