/**
 * The six questions the guided repair asks of every task in scope before anything is re-run
 * (PRODUCT.md "The guided repair", seeds 000 and 001), one function each. The Preconditions
 * step shows their answers, the planner acts on them (blockers, exclusions, the strategies it
 * enables) and the orchestrator exports are built from the same answers, so the three cannot
 * disagree about a task.
 *
 * Why each matters:
 *  - idempotent over the unit: a repair is a second execution; an append turns a gap into a duplicate;
 *  - units independent: a model reading its own previous unit makes a targeted repair a trap;
 *  - source immutable and retained: otherwise the repair computes something new, unlike its neighbours;
 *  - side effects: the world cannot un-receive an email or an export;
 *  - atomic-set publish: when the whole set is swapped at once, the set is the unit;
 *  - as-of-now joins: a repaired unit joined to today's dimension is built on a newer world.
 *
 * Every answer is safe, unsafe or unknown, and unknown counts as unsafe (`holds` is false): a
 * property nobody declared is never assumed to be the convenient one.
 *
 * Example (seed 000's graph): stg_orders appends → idempotentOverUnit: unsafe;
 * running_balance reads its previous day → unitsIndependent: unsafe; fct_orders joins
 * dim_customers as of now → asOfNowJoins: unsafe, joins [dim_customers].
 */
import type { DatasetId } from "./ids";
import type { LineageGraph, PublishMode, SideEffect, TaskNode, WriteMode } from "./lineage-graph";
import { factsOf, type Ledger } from "./repair-scope";
import type { UnitSet } from "./unit-set";

export type Verdict = "safe" | "unsafe" | "unknown";
export const PRECONDITION_KEYS = ["idempotent", "independent", "source_reproducible", "side_effects", "atomic_set", "as_of_now"] as const;
export type PreconditionKey = (typeof PRECONDITION_KEYS)[number];

interface Answer<K extends PreconditionKey> {
  readonly key: K;
  readonly verdict: Verdict;
}

/** Whether a precondition holds. Unknown counts as unsafe: this is the one reading of a verdict. */
export function holds(answer: { readonly verdict: Verdict }): boolean {
  return answer.verdict === "safe";
}

export interface IdempotenceAnswer extends Answer<"idempotent"> {
  readonly writeMode: WriteMode | undefined;
}

/** Does a second run replace the unit (replace, merge: safe) or add to it (append: unsafe)? Undeclared: unknown. */
export function idempotentOverUnit(task: Pick<TaskNode, "writeMode">): IdempotenceAnswer {
  const verdict = task.writeMode === undefined ? "unknown" : task.writeMode === "append" ? "unsafe" : "safe";
  return { key: "idempotent", verdict, writeMode: task.writeMode };
}

export interface IndependenceAnswer extends Answer<"independent"> {
  /** How far back the task reads its own output (previous(n)), when it does. */
  readonly readsOwnPast: number | null;
}

/**
 * Is each unit computed from inputs scoped to it? A task that reads its own earlier units (a
 * previous(n) self-read, or declared dependsOnOwnPast) is sequential: unsafe. Safe only when
 * declared independent (dependsOnOwnPast: false) and no self-read says otherwise.
 */
export function unitsIndependent(graph: LineageGraph, task: Pick<TaskNode, "index" | "dependsOnOwnPast">): IndependenceAnswer {
  const loop = graph.selfLoops.get(task.index);
  if (loop !== undefined) return { key: "independent", verdict: "unsafe", readsOwnPast: loop };
  return { key: "independent", verdict: task.dependsOnOwnPast === false ? "safe" : "unknown", readsOwnPast: null };
}

export interface SourceAnswer extends Answer<"source_reproducible"> {
  /** Inputs that move under the repair and are declared mutable. */
  readonly mutable: readonly DatasetId[];
  /** Inputs that may move under the repair and do not say whether they do. */
  readonly unknownMutability: readonly DatasetId[];
  /** Inputs whose version for the units the repair reads is no longer retained. */
  readonly notRetained: readonly { readonly dataset: DatasetId; readonly units: UnitSet }[];
}

/**
 * Will re-running `units` of the task read what the first attempt read? An input can move
 * under the repair when nothing in the platform writes it (a source) or when it is read as of
 * now (a current snapshot moves even when a task writes it: seed 000's dim_customers); such an
 * input must be declared immutable. Any input whose version for the units read is no longer
 * retained cannot be read again. Inputs written by tasks and read as of the unit are versioned
 * by the ledger (and recomputed by the plan when in scope).
 */
export function sourceReproducible(graph: LineageGraph, ledger: Ledger, task: Pick<TaskNode, "index">, units: UnitSet): SourceAnswer {
  const mutable: DatasetId[] = [];
  const unknownMutability: DatasetId[] = [];
  const notRetained: { dataset: DatasetId; units: UnitSet }[] = [];
  for (const e of graph.in[task.index]!) {
    const input = graph.nodes[e.from]!;
    if (input.nodeKind !== "dataset") continue;
    const moves = graph.in[e.from]!.length === 0 || e.mapping.type === "latest";
    if (moves && input.sourceMutable === true) mutable.push(input.id);
    else if (moves && input.sourceMutable === undefined) unknownMutability.push(input.id);
    const gone = factsOf(graph, ledger, e.from, "inputNotRetained").intersect(e.up(units));
    if (!gone.isEmpty) notRetained.push({ dataset: input.id, units: gone });
  }
  const verdict = mutable.length > 0 || notRetained.length > 0 ? "unsafe" : unknownMutability.length > 0 ? "unknown" : "safe";
  return { key: "source_reproducible", verdict, mutable, unknownMutability, notRetained };
}

/** Inputs of the task that a repair may read differently than the first attempt did (mutable, unknown, or not retained). */
export function unreproducibleInputs(answer: SourceAnswer): DatasetId[] {
  return [...new Set([...answer.mutable, ...answer.unknownMutability, ...answer.notRetained.map((n) => n.dataset)])];
}

export interface SideEffectAnswer extends Answer<"side_effects"> {
  readonly sideEffect: SideEffect | undefined;
}

/** Does the task act outside the platform (emails, exports, payments)? external: unsafe; undeclared: unknown. */
export function sideEffects(task: Pick<TaskNode, "sideEffect">): SideEffectAnswer {
  const verdict = task.sideEffect === undefined ? "unknown" : task.sideEffect === "external" ? "unsafe" : "safe";
  return { key: "side_effects", verdict, sideEffect: task.sideEffect };
}

export interface AtomicSetAnswer extends Answer<"atomic_set"> {
  readonly publish: PublishMode | undefined;
  /** The task has a single expected unit: the set is the unit, however it is published. */
  readonly singleUnit: boolean;
}

/**
 * Is the whole set of units swapped at once? Then partial success is not observable and the
 * whole set is the unit (unsafe for any partial repair). Per-unit publish is safe, and so is an
 * undeclared task with a single expected unit (its set is its unit); otherwise undeclared: unknown.
 */
export function atomicSetPublish(task: Pick<TaskNode, "publish" | "space">): AtomicSetAnswer {
  const singleUnit = task.space.expected.size <= 1;
  const verdict = task.publish === "atomic_set" ? "unsafe" : task.publish === "per_unit" || singleUnit ? "safe" : "unknown";
  return { key: "atomic_set", verdict, publish: task.publish, singleUnit };
}

export interface AsOfNowAnswer extends Answer<"as_of_now"> {
  /** Inputs read as of now rather than as of the unit. */
  readonly joins: readonly DatasetId[];
}

/**
 * Does the task read a current snapshot instead of the unit's own version? Every read declares
 * its mapping (one Reparo cannot interpret is walked as every unit, never as now), so this
 * answer is never unknown.
 */
export function asOfNowJoins(graph: LineageGraph, task: Pick<TaskNode, "index">): AsOfNowAnswer {
  const joins = graph.in[task.index]!.filter((e) => e.mapping.type === "latest" && graph.nodes[e.from]!.nodeKind === "dataset").map(
    (e) => graph.nodes[e.from]!.id as DatasetId,
  );
  return { key: "as_of_now", verdict: joins.length > 0 ? "unsafe" : "safe", joins };
}

export type PreconditionAnswer = IdempotenceAnswer | IndependenceAnswer | SourceAnswer | SideEffectAnswer | AtomicSetAnswer | AsOfNowAnswer;

/** The six answers for re-running `units` of the task, in PRODUCT.md's order. */
export function preconditionsOf(graph: LineageGraph, ledger: Ledger, task: TaskNode, units: UnitSet): PreconditionAnswer[] {
  return [
    idempotentOverUnit(task),
    unitsIndependent(graph, task),
    sourceReproducible(graph, ledger, task, units),
    sideEffects(task),
    atomicSetPublish(task),
    asOfNowJoins(graph, task),
  ];
}
