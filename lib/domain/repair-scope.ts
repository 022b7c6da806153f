/**
 * The inputs of a repair plan, resolved against the graph: which (task, units) pairs are the
 * seeds, which keys were invalid, and what the ledger says about each node.
 *
 * Why separate: a failed dataset unit is repaired by re-running the task that writes it, a
 * key the definition rejects is a blocker rather than a unit (seed 002), and the ledger is
 * kept as sets so facts about 3,650 units cost one range each.
 */
import type { NodeId, TaskId, UnitKey } from "./ids";
import type { LineageGraph, TaskNode } from "./lineage-graph";
import type { InvalidKeyCode } from "./partitions";
import type { Seed } from "./closure";
import { UnitSet } from "./unit-set";

/** A failed (or operator-chosen) set of units of a task or dataset, as ordinals or keys. */
export interface RepairTarget {
  readonly node: NodeId;
  readonly units?: UnitSet;
  readonly keys?: readonly UnitKey[];
}

/** What the publish ledger says about one node (task or the dataset it writes). */
export interface NodeLedgerFacts {
  /** Units with at least one publish. */
  readonly published?: UnitSet;
  /** Units published more than once (a non-idempotent write announcing itself). */
  readonly publishedMoreThanOnce?: UnitSet;
  /** Units whose input version is no longer retained: a repair cannot reproduce them. */
  readonly inputNotRetained?: UnitSet;
  /** Units already read outside the platform (an export sent, a model trained). */
  readonly consumed?: UnitSet;
}

export type Ledger = ReadonlyMap<NodeId, NodeLedgerFacts>;

/** One ledger row per (node, unit), as the repository returns it. */
export interface LedgerRow {
  readonly node: NodeId;
  readonly key: UnitKey;
  readonly publishCount: number;
  readonly inputVersion?: string;
  readonly inputVersionRetained?: boolean;
  readonly consumed?: boolean;
}

export interface InvalidTargetKey {
  readonly node: NodeId;
  readonly key: UnitKey;
  readonly code: InvalidKeyCode | "unknown_node";
  readonly reason: string;
}

/** Folds per-unit rows into per-node sets; rows with invalid keys are returned, not dropped. */
export function summariseLedger(graph: LineageGraph, rows: readonly LedgerRow[]): { ledger: Ledger; invalid: InvalidTargetKey[] } {
  const acc = new Map<NodeId, { published: number[]; twice: number[]; gone: number[]; consumed: number[] }>();
  const invalid: InvalidTargetKey[] = [];
  for (const row of rows) {
    const i = graph.index.get(row.node);
    if (i === undefined) {
      invalid.push({ node: row.node, key: row.key, code: "unknown_node", reason: `${row.node} is not in the lineage` });
      continue;
    }
    const verdict = graph.nodes[i]!.space.validate(row.key);
    if (!verdict.valid) {
      invalid.push({ node: row.node, key: row.key, code: verdict.code, reason: verdict.reason });
      continue;
    }
    const a = acc.get(row.node) ?? { published: [], twice: [], gone: [], consumed: [] };
    acc.set(row.node, a);
    if (row.publishCount > 0) a.published.push(verdict.ordinal);
    if (row.publishCount > 1) a.twice.push(verdict.ordinal);
    if (row.inputVersionRetained === false) a.gone.push(verdict.ordinal);
    if (row.consumed) a.consumed.push(verdict.ordinal);
  }
  const ledger = new Map<NodeId, NodeLedgerFacts>();
  for (const [node, a] of acc) {
    ledger.set(node, {
      published: UnitSet.fromOrdinals(a.published),
      publishedMoreThanOnce: UnitSet.fromOrdinals(a.twice),
      inputNotRetained: UnitSet.fromOrdinals(a.gone),
      consumed: UnitSet.fromOrdinals(a.consumed),
    });
  }
  return { ledger, invalid };
}

/** Facts about a task are its own plus those of the datasets it writes (same unit space). */
export function factsOf(graph: LineageGraph, ledger: Ledger, nodeIndex: number, field: keyof NodeLedgerFacts): UnitSet {
  const node = graph.nodes[nodeIndex]!;
  let set = ledger.get(node.id)?.[field] ?? UnitSet.EMPTY;
  if (node.nodeKind === "task") {
    for (const e of graph.out[nodeIndex]!) set = set.union(ledger.get(graph.nodes[e.to]!.id)?.[field] ?? UnitSet.EMPTY);
  }
  return set;
}

export interface ResolvedTargets {
  readonly seeds: Seed[];
  readonly seedTasks: ReadonlySet<TaskId>;
  readonly invalid: InvalidTargetKey[];
}

/** Dataset targets become their writer's units; a source dataset stays a dataset seed. */
export function resolveTargets(graph: LineageGraph, targets: readonly RepairTarget[]): ResolvedTargets {
  const seeds: Seed[] = [];
  const invalid: InvalidTargetKey[] = [];
  const seedTasks = new Set<TaskId>();
  for (const t of targets) {
    const i = graph.index.get(t.node);
    if (i === undefined) {
      invalid.push({ node: t.node, key: "", code: "unknown_node", reason: `${t.node} is not in the lineage` });
      continue;
    }
    const node = graph.nodes[i]!;
    const ordinals: number[] = [];
    for (const key of t.keys ?? []) {
      const v = node.space.validate(key);
      if (v.valid) ordinals.push(v.ordinal);
      else invalid.push({ node: t.node, key, code: v.code, reason: v.reason });
    }
    const units = (t.units ?? UnitSet.EMPTY).union(UnitSet.fromOrdinals(ordinals)).clip(node.space.size);
    if (units.isEmpty) continue;
    const writers = node.nodeKind === "task" ? [node] : graph.in[i]!.map((e) => graph.nodes[e.from]! as TaskNode);
    if (writers.length === 0) seeds.push({ node: node.id, units });
    for (const w of writers) {
      seeds.push({ node: w.id, units });
      seedTasks.add(w.id as TaskId);
    }
  }
  return { seeds, seedTasks, invalid };
}
