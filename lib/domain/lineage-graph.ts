/**
 * The lineage graph: tasks and datasets across pipelines, "task reads dataset" edges carrying
 * a partition mapping, and "task writes dataset" edges. A task's unit space is the partition
 * definition of the dataset it writes.
 *
 * Why the graph is compiled once: closure and planning run on every page of an incident, so
 * ids become array indices, mappings become range functions, and the topological order is
 * computed here — a cycle is found (and reported with its path) before anything walks it.
 *
 * The one legal cycle is the sequential model: a task reading its OWN output's earlier unit
 *   running_balance --writes--> running_balance_ds --previous(1)--> running_balance
 * is kept aside as a self-loop (closure extends it forward in one step), not an edge.
 */
import type { DatasetId, NodeId, TaskId } from "./ids";
import { compileMapping, describeMapping, type CompiledMapping, type PartitionMapping } from "./partition-mappings";
import { resolvePartitions, sameDefinition, type PartitionDef, type PartitionSpace } from "./partitions";
import { UnitSet } from "./unit-set";

export type WriteMode = "replace" | "merge" | "append";
export type SideEffect = "none" | "external";
export type PublishMode = "per-unit" | "atomic-set";
export type DatasetKind = "table" | "file_set" | "dashboard" | "export" | "feature_set" | "model";

/** Properties left undefined are unknown, and the planner treats unknown as unsafe. */
export interface TaskSpec {
  readonly id: TaskId;
  readonly pipeline: string;
  readonly owner?: string;
  readonly writeMode?: WriteMode;
  readonly sideEffect?: SideEffect;
  readonly dependsOnOwnPast?: boolean;
  readonly publish?: PublishMode;
}

export interface DatasetSpec {
  readonly id: DatasetId;
  readonly kind: DatasetKind;
  readonly pipeline: string;
  readonly partitions: PartitionDef;
  readonly owner?: string;
  /** Read outside the platform (a partner, a spreadsheet): re-running recalls nothing. */
  readonly externalConsumer?: boolean;
  /** For sources: does a unit's content change after it lands? Undefined = unknown. */
  readonly sourceMutable?: boolean;
}

export interface ReadSpec {
  readonly task: TaskId;
  readonly dataset: DatasetId;
  readonly mapping: PartitionMapping;
}

export interface WriteSpec {
  readonly task: TaskId;
  readonly dataset: DatasetId;
}

export interface LineageSpec {
  readonly tasks: readonly TaskSpec[];
  readonly datasets: readonly DatasetSpec[];
  readonly reads: readonly ReadSpec[];
  readonly writes: readonly WriteSpec[];
}

export type GraphNode =
  | ({ readonly nodeKind: "task"; readonly index: number; readonly space: PartitionSpace } & TaskSpec)
  | ({ readonly nodeKind: "dataset"; readonly index: number; readonly space: PartitionSpace } & DatasetSpec);
export type TaskNode = Extract<GraphNode, { nodeKind: "task" }>;
export type DatasetNode = Extract<GraphNode, { nodeKind: "dataset" }>;

export interface GraphEdge {
  readonly kind: "reads" | "writes";
  /** Node indices in the direction data flows: dataset → task for reads, task → dataset for writes. */
  readonly from: number;
  readonly to: number;
  readonly mapping: PartitionMapping;
  /** Units of `to` affected by units of `from`. */
  readonly down: (units: UnitSet) => UnitSet;
  /** Units of `from` needed by units of `to`. */
  readonly up: (units: UnitSet) => UnitSet;
}

export interface LineageGraph {
  readonly nodes: readonly GraphNode[];
  readonly index: ReadonlyMap<NodeId, number>;
  readonly out: readonly (readonly GraphEdge[])[];
  readonly in: readonly (readonly GraphEdge[])[];
  /** Node indices, every edge pointing forward. */
  readonly topo: readonly number[];
  /** Sequential tasks: task index → n of their previous(n) self-read (dependsOnOwnPast ⇒ 1). */
  readonly selfLoops: ReadonlyMap<number, number>;
}

export type GraphError =
  | { readonly code: "cycle"; readonly cycle: readonly NodeId[]; readonly message: string }
  | { readonly code: "unknown_node" | "duplicate_node" | "bad_mapping" | "bad_partitions"; readonly message: string };

export type GraphBuildResult = { readonly ok: true; readonly graph: LineageGraph } | { readonly ok: false; readonly errors: readonly GraphError[] };

export interface BuildOptions {
  /** Bounds open-ended time partitions (units whose window closed by then are expected). */
  readonly asOf?: string | number;
}

const identityEdge = (u: UnitSet) => u;

export function buildLineageGraph(spec: LineageSpec, options: BuildOptions = {}): GraphBuildResult {
  const errors: GraphError[] = [];
  const index = new Map<NodeId, number>();
  const nodes: GraphNode[] = [];
  const writesOf = new Map<TaskId, DatasetSpec[]>();
  const datasetById = new Map<DatasetId, DatasetSpec>();
  for (const d of spec.datasets) datasetById.set(d.id, d);
  for (const w of spec.writes) {
    const d = datasetById.get(w.dataset);
    if (d) writesOf.set(w.task, [...(writesOf.get(w.task) ?? []), d]);
  }
  const add = (node: GraphNode) => {
    if (index.has(node.id)) errors.push({ code: "duplicate_node", message: `${node.id} is declared twice` });
    else index.set(node.id, nodes.push(node) - 1);
  };
  for (const d of spec.datasets) {
    const space = resolveOrError(d.partitions, options, d.id, errors);
    if (space) add(datasetNode(d, nodes.length, space));
  }
  for (const t of spec.tasks) {
    const written = writesOf.get(t.id) ?? [];
    const first = written[0];
    if (written.some((d) => first && !sameDefinition(d.partitions, first.partitions))) {
      errors.push({ code: "bad_partitions", message: `${t.id} writes datasets with different partition definitions` });
    }
    const space = first ? nodes[index.get(first.id) ?? -1]?.space : resolvePartitions({ kind: "none" });
    if (space) add(taskNode(t, nodes.length, space));
  }
  const out: GraphEdge[][] = nodes.map(() => []);
  const inn: GraphEdge[][] = nodes.map(() => []);
  const selfLoops = new Map<number, number>();
  const lookup = (id: NodeId) => {
    const i = index.get(id);
    if (i === undefined) errors.push({ code: "unknown_node", message: `edge refers to undeclared node ${id}` });
    return i;
  };
  const link = (edge: GraphEdge) => {
    out[edge.from]!.push(edge);
    inn[edge.to]!.push(edge);
  };
  for (const w of spec.writes) {
    const [t, d] = [lookup(w.task), lookup(w.dataset)];
    if (t !== undefined && d !== undefined) {
      link({ kind: "writes", from: t, to: d, mapping: { type: "identity" }, down: identityEdge, up: identityEdge });
    }
  }
  for (const r of spec.reads) {
    const [d, t] = [lookup(r.dataset), lookup(r.task)];
    if (d === undefined || t === undefined) continue;
    const ownOutput = (writesOf.get(r.task) ?? []).some((w) => w.id === r.dataset);
    if (ownOutput && r.mapping.type === "previous") {
      selfLoops.set(t, r.mapping.n);
      continue;
    }
    const compiled = compileOrError(r, nodes[d]!.space, nodes[t]!.space, errors);
    if (compiled) link({ kind: "reads", from: d, to: t, mapping: r.mapping, down: compiled.readersOf, up: compiled.readsOf });
  }
  for (const node of nodes) {
    if (node.nodeKind === "task" && node.dependsOnOwnPast && !selfLoops.has(node.index)) selfLoops.set(node.index, 1);
  }
  if (errors.length > 0) return { ok: false, errors };
  const topo = topologicalOrder(nodes.length, out);
  if (!topo.ok) {
    const cycle = topo.cycle.map((i) => nodes[i]!.id);
    return { ok: false, errors: [{ code: "cycle", cycle, message: `lineage cycle: ${cycle.join(" → ")}` }] };
  }
  return { ok: true, graph: { nodes, index, out, in: inn, topo: topo.order, selfLoops } };
}

/**
 * Nodes are built field by field in one fixed order (not by spreading the spec) so every task
 * and every dataset shares one object shape: property reads in the closure's hot loop stay
 * monomorphic instead of falling back to dictionary lookups (measured: 10× on 10k nodes).
 */
function taskNode(t: TaskSpec, index: number, space: PartitionSpace): TaskNode {
  return {
    nodeKind: "task", index, space, id: t.id, pipeline: t.pipeline, owner: t.owner, writeMode: t.writeMode,
    sideEffect: t.sideEffect, dependsOnOwnPast: t.dependsOnOwnPast, publish: t.publish,
  };
}

function datasetNode(d: DatasetSpec, index: number, space: PartitionSpace): DatasetNode {
  return {
    nodeKind: "dataset", index, space, id: d.id, kind: d.kind, pipeline: d.pipeline, partitions: d.partitions,
    owner: d.owner, externalConsumer: d.externalConsumer, sourceMutable: d.sourceMutable,
  };
}

/** For fixtures and generated graphs: throws with every error message. */
export function mustBuildLineageGraph(spec: LineageSpec, options: BuildOptions = {}): LineageGraph {
  const result = buildLineageGraph(spec, options);
  if (!result.ok) throw new Error(result.errors.map((e) => e.message).join("\n"));
  return result.graph;
}

function resolveOrError(def: PartitionDef, options: BuildOptions, id: NodeId, errors: GraphError[]) {
  try {
    return resolvePartitions(def, options);
  } catch (e) {
    errors.push({ code: "bad_partitions", message: `${id}: ${(e as Error).message}` });
    return undefined;
  }
}

function compileOrError(r: ReadSpec, up: PartitionSpace, down: PartitionSpace, errors: GraphError[]): CompiledMapping | undefined {
  try {
    return compileMapping(r.mapping, up, down);
  } catch (e) {
    errors.push({ code: "bad_mapping", message: `${r.task} reads ${r.dataset} with ${describeMapping(r.mapping)}: ${(e as Error).message}` });
    return undefined;
  }
}

/**
 * Kahn's algorithm; on failure, walks predecessors inside the unsorted remainder until a node
 * repeats, which yields one concrete cycle to show the operator (never an infinite loop:
 * every step visits a node of the finite remainder, and the walk stops at the first repeat).
 */
export function topologicalOrder(
  n: number,
  out: readonly (readonly { readonly to: number }[])[]
): { ok: true; order: number[] } | { ok: false; cycle: number[] } {
  const indegree = new Array<number>(n).fill(0);
  for (const edges of out) for (const e of edges) indegree[e.to]!++;
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (indegree[i] === 0) order.push(i);
  for (let head = 0; head < order.length; head++) {
    for (const e of out[order[head]!]!) if (--indegree[e.to]! === 0) order.push(e.to);
  }
  if (order.length === n) return { ok: true, order };
  const next = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (indegree[i]! === 0) continue;
    const e = out[i]!.find((edge) => indegree[edge.to]! > 0);
    if (e) next.set(i, e.to);
  }
  let at = [...next.keys()][0]!;
  const seen = new Map<number, number>();
  const path: number[] = [];
  while (!seen.has(at)) {
    seen.set(at, path.push(at) - 1);
    at = next.get(at)!;
  }
  const cycle = path.slice(seen.get(at));
  return { ok: false, cycle: [...cycle, at] };
}

export function nodeOf(graph: LineageGraph, id: NodeId): GraphNode {
  const i = graph.index.get(id);
  if (i === undefined) throw new Error(`unknown node ${id}`);
  return graph.nodes[i]!;
}

export function isSequential(graph: LineageGraph, task: TaskId): boolean {
  return graph.selfLoops.has(nodeOf(graph, task).index);
}

/** Tasks writing a dataset (its producers); empty for a source. */
export function writersOf(graph: LineageGraph, dataset: DatasetId): TaskNode[] {
  const i = nodeOf(graph, dataset).index;
  return graph.in[i]!.map((e) => graph.nodes[e.from]!).filter((n): n is TaskNode => n.nodeKind === "task");
}
