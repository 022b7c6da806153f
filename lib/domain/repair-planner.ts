/**
 * planRepair: from failed (or chosen) pairs to the exact (task, units) list a repair runs, in
 * dependency order, with what blocks it, what to warn about and what it costs. Pure: the UI
 * previews this before anything runs (plan → preview → confirm).
 *
 * Why the rules (seed 000/001): the decision is about (task, unit) pairs and their downstream
 * closure, not "the DAG"; a non-idempotent task turns a repair into a duplicate; a task with
 * external side effects is excluded unless deliberately replayed with an idempotency key;
 * unknown properties count as unsafe. Every property of a task is read through the six
 * questions of lib/domain/preconditions.ts, the answers the Preconditions step shows.
 *
 * Example (demo graph, stg_orders 2026-08-17 failed, stg_orders resolved as deduplicated):
 *   strategy targeted_with_closure, waves
 *     0: stg_orders[08-17]   1: fct_orders[08-17]
 *     2: revenue_daily[08-17], running_balance[08-17…08-25], ml_features[08-17]
 *     3: executive_dashboard[08-17]          excluded: finance_weekly_export[2026-W34]
 */
import { nodeName } from "./ids";
import { closure, type ClosureResult, type Seed } from "./closure";
import type { TaskId } from "./ids";
import { SIDE_EFFECTS, type LineageGraph, type TaskNode } from "./lineage-graph";
import {
  consumerWarnings,
  emptyAppendWarnings,
  idempotencyBlocker,
  unknownFact,
  inputWarnings,
  overlapBlockers,
  type ActiveRepair,
  type Blocker,
  type Resolution,
  type Warning,
} from "./repair-checks";
import { atomicSetPublish, holds, sideEffects, sourceReproducible, unitsIndependent, unreproducibleInputs } from "./preconditions";
import { factsOf, resolveTargets, type Ledger, type RepairTarget, type ResolvedTargets } from "./repair-scope";
import { RECOMPUTING, resolveStrategyOptions, type ScopeFacts, type Strategy, type StrategyOption } from "./repair-strategies";
import { toKeyRanges, UnitSet } from "./unit-set";

export interface RepairOptions {
  readonly strategy?: Strategy;
  /** Side-effecting tasks replayed deliberately; anything else external stays excluded. */
  readonly replay?: readonly { readonly task: TaskId; readonly idempotencyKey: string }[];
  readonly resolutions?: readonly Resolution[];
  readonly parameterOverrides?: Readonly<Record<string, string>>;
  readonly reason?: string;
  readonly evidence?: { readonly kind: "reconciliation"; readonly passed: boolean; readonly ref: string };
}

export interface RepairInput {
  readonly graph: LineageGraph;
  readonly targets: readonly RepairTarget[];
  readonly ledger?: Ledger;
  readonly activeRepairs?: readonly ActiveRepair[];
  readonly options?: RepairOptions;
}

export interface PlannedTask {
  readonly task: TaskId;
  readonly pipeline: string;
  readonly units: UnitSet;
  readonly keyRanges: readonly [string, string][];
  readonly idempotencyKey?: string;
}

export interface ExcludedTask extends PlannedTask {
  readonly reason: string;
}

export interface RepairPlan {
  readonly strategy: Strategy;
  readonly recommended: Strategy;
  /** Scheduled tasks in dependency order; never an unresolved append or an unreplayed side effect. */
  readonly waves: readonly (readonly PlannedTask[])[];
  /** In scope but held back by a blocker (e.g. an append task awaiting deduplication). */
  readonly held: readonly PlannedTask[];
  readonly excluded: readonly ExcludedTask[];
  /** For mark_known_bad / skip_with_omission / mark_success: the pairs the operator marks. */
  readonly marks: readonly Seed[];
  readonly blockers: readonly Blocker[];
  readonly warnings: readonly Warning[];
  readonly cost: { readonly unitsRecomputed: number; readonly fullRerunUnits: number; readonly tasks: number };
  readonly options: readonly StrategyOption[];
  readonly parameterOverrides: Readonly<Record<string, string>>;
  /** The downstream closure of the failed pairs: the blast radius, whatever the strategy. */
  readonly scope: ClosureResult;
  readonly runnable: boolean;
}

const isTask = (graph: LineageGraph, i: number) => graph.nodes[i]!.nodeKind === "task";
const taskAt = (graph: LineageGraph, id: string) => graph.nodes[graph.index.get(id as TaskId)!] as TaskNode;

/** Tasks whose independence nobody declared: the closure walks them as sequential (unknown counts as unsafe). */
function unknownIndependence(graph: LineageGraph): Set<TaskId> {
  const out = new Set<TaskId>();
  for (const n of graph.nodes) if (n.nodeKind === "task" && unitsIndependent(graph, n).verdict === "unknown") out.add(n.id);
  return out;
}

/** Tasks whose whole set is the unit: published as an atomic set, or not saying how they publish. */
function atomicSets(graph: LineageGraph): Set<TaskId> {
  return new Set(graph.nodes.filter((n): n is TaskNode => n.nodeKind === "task" && !holds(atomicSetPublish(n))).map((n) => n.id));
}

function scopeFacts(graph: LineageGraph, ledger: Ledger, scope: ClosureResult, targets: ResolvedTargets, opts: RepairOptions): ScopeFacts {
  const sequential = (id: TaskId) => !holds(unitsIndependent(graph, taskAt(graph, id)));
  const tasks = [...scope.entries.values()].filter((e) => e.nodeKind === "task");
  let built = 0;
  const sources = new Set<string>();
  for (const e of tasks) {
    const i = graph.index.get(e.node)!;
    if (!e.seed) built += factsOf(graph, ledger, i, "published").intersect(e.units).size;
    for (const d of unreproducibleInputs(sourceReproducible(graph, ledger, taskAt(graph, e.node), e.units))) sources.add(d);
  }
  let unpublished = 0;
  for (const s of targets.seeds) unpublished += s.units.difference(factsOf(graph, ledger, graph.index.get(s.node)!, "published")).size;
  const seedTasks = [...targets.seedTasks];
  return {
    sequentialSeeds: seedTasks.filter(sequential),
    sequentialInScope: tasks.map((e) => e.node as TaskId).filter(sequential),
    atomicSetInScope: tasks.filter((e) => !holds(atomicSetPublish(taskAt(graph, e.node)))).map((e) => e.node as TaskId),
    seedTaskCount: seedTasks.length,
    downstreamAlreadyBuilt: built,
    unreproducibleSources: [...sources],
    unpublishedSeedUnits: unpublished,
    hasEvidence: opts.evidence?.kind === "reconciliation" && opts.evidence.passed,
  };
}

/** The (task, units) pairs a recomputing strategy touches, and the closure that orders them. */
function strategyPairs(strategy: Strategy, graph: LineageGraph, scope: ClosureResult, targets: ResolvedTargets, assumed: Set<TaskId>) {
  if (!RECOMPUTING.has(strategy)) return { pairs: [] as Seed[], order: scope };
  let order = scope;
  if (strategy === "atomic_set_republish") {
    order = closure(graph, targets.seeds, "downstream", { widenToFull: atomicSets(graph), assumeSequential: assumed });
  }
  const pairs: Seed[] = [];
  for (const e of order.entries.values()) {
    const i = graph.index.get(e.node)!;
    if (!isTask(graph, i) || (strategy === "targeted" && !targets.seedTasks.has(e.node as TaskId))) continue;
    const space = graph.nodes[i]!.space;
    const units =
      strategy === "targeted"
        ? targets.seeds.filter((s) => s.node === e.node).reduce((acc, s) => acc.union(s.units), UnitSet.EMPTY)
        : strategy === "recompute_forward"
          ? UnitSet.range(e.units.min!, space.size - 1).intersect(space.expected)
          : strategy === "full_rerun"
            ? space.expected
            : e.units;
    pairs.push({ node: e.node, units });
  }
  return { pairs, order };
}

/** Splits the strategy's pairs into scheduled, held back (idempotency) and excluded (side effects). */
function partitionTasks(graph: LineageGraph, pairs: readonly Seed[], opts: RepairOptions) {
  const scheduled: PlannedTask[] = [];
  const held: PlannedTask[] = [];
  const excluded: ExcludedTask[] = [];
  const blockers: Blocker[] = [];
  for (const { node, units } of pairs) {
    const task = graph.nodes[graph.index.get(node)!] as TaskNode;
    let planned: PlannedTask = { task: task.id, pipeline: task.pipeline, units, keyRanges: toKeyRanges(units, task.space) };
    const effects = sideEffects(task);
    if (!holds(effects)) {
      const key = opts.replay?.find((r) => r.task === task.id && r.idempotencyKey.trim() !== "")?.idempotencyKey;
      if (key === undefined && effects.verdict === "unsafe") {
        excluded.push({
          ...planned,
          reason: `${nodeName(task.id)} has external side effects: excluded by default; replay it deliberately with an idempotency key.`,
        });
        continue;
      }
      if (key !== undefined) planned = { ...planned, idempotencyKey: key };
    }
    // Unknown is unsafe, and never silently dropped: each fact nobody declared holds the task back
    // with a blocker that says what to declare. (Replayed with a key, its side effect is deliberate.)
    const unknowns = [
      idempotencyBlocker(graph, task, units, opts.resolutions ?? []),
      effects.verdict === "unknown" && planned.idempotencyKey === undefined
        ? unknownFact(task, "sideEffect", SIDE_EFFECTS, "whether re-running it sends something outside the platform")
        : null,
      task.dependsOnOwnPast === undefined && !graph.selfLoops.has(task.index)
        ? unknownFact(task, "dependsOnOwnPast", [false, true], "whether its units can be repaired alone or only forward to the end of the range")
        : null,
    ].filter((b): b is Blocker => b !== null);
    if (unknowns.length > 0) {
      blockers.push(...unknowns);
      held.push(planned);
    } else scheduled.push(planned);
  }
  return { scheduled, held, excluded, blockers };
}

function strategyBlockers(targets: ResolvedTargets, chosen: StrategyOption, opts: RepairOptions): Blocker[] {
  const blockers: Blocker[] = targets.invalid.map((k) => ({
    code: k.code === "unknown_node" ? "empty_scope" : "invalid_key",
    node: k.node,
    message: k.reason,
    keyRanges: k.key ? [[k.key, k.key]] : [],
  }));
  if (targets.seeds.length === 0) blockers.push({ code: "empty_scope", message: "No valid failed units to repair." });
  for (const why of chosen.why) blockers.push({ code: why.code, message: why.message });
  if (chosen.requires.includes("reason") && !opts.reason?.trim()) {
    blockers.push({ code: "reason_required", message: `${chosen.strategy} needs a reason; it is recorded with the intervention and shown to consumers.` });
  }
  return blockers;
}

function strategyWarnings(strategy: Strategy, scope: ClosureResult): Warning[] {
  const warnings: Warning[] = [];
  if (strategy === "targeted" && [...scope.entries.values()].some((e) => e.nodeKind === "task" && !e.seed)) {
    warnings.push({
      code: "downstream_not_retriggered",
      message: "Downstream tasks in the closure are not part of a targeted repair; the orchestrator will not re-run ones it already considers terminal.",
    });
  }
  if (strategy === "mark_success")
    warnings.push({
      code: "mark_success_risk",
      message: "Mark success writes a permanent claim that these units were processed; review it like a production data edit.",
    });
  if (strategy === "skip_with_omission")
    warnings.push({ code: "omission_recorded", message: "The omission is written to the ledger and stays visible to consumers." });
  return warnings;
}

function inWaves(order: ClosureResult, scheduled: readonly PlannedTask[]): PlannedTask[][] {
  const byTask = new Map(scheduled.map((p) => [p.task as string, p]));
  return order.taskWaves.map((w) => w.flatMap((id) => byTask.get(id) ?? [])).filter((w) => w.length > 0);
}

export function planRepair(input: RepairInput): RepairPlan {
  const { graph } = input;
  const ledger: Ledger = input.ledger ?? new Map();
  const opts = input.options ?? {};
  const targets = resolveTargets(graph, input.targets);
  const assumed = unknownIndependence(graph);
  const scope = closure(graph, targets.seeds, "downstream", { assumeSequential: assumed });
  const options = resolveStrategyOptions(scopeFacts(graph, ledger, scope, targets, opts));
  const recommended = options.find((o) => o.recommended)!.strategy;
  const strategy = opts.strategy ?? recommended;
  const chosen = options.find((o) => o.strategy === strategy)!;
  const { pairs, order } = strategyPairs(strategy, graph, scope, targets, assumed);
  const { scheduled, held, excluded, blockers: heldBy } = partitionTasks(graph, pairs, opts);
  const marks = RECOMPUTING.has(strategy) ? [] : targets.seeds;
  const blockers = [...strategyBlockers(targets, chosen, opts), ...heldBy];
  blockers.push(...overlapBlockers(graph, RECOMPUTING.has(strategy) ? pairs : marks, input.activeRepairs ?? []));
  const recomputed = [...scheduled, ...held];
  // A plan that would recompute nothing is no repair: it cannot be confirmed (the excluded tasks say why).
  if (RECOMPUTING.has(strategy) && recomputed.length === 0 && targets.seeds.length > 0)
    blockers.push({
      code: "nothing_to_recompute",
      message: `This plan recomputes no unit${excluded.length > 0 ? `: every task in it is excluded (${excluded.map((e) => nodeName(e.task)).join(", ")})` : ""}. Choose another response, or replay a side-effecting task with an idempotency key.`,
    });
  const seedPipelines = new Set([...targets.seedTasks].map((t) => graph.nodes[graph.index.get(t)!]!.pipeline));
  const warnings = [
    ...inputWarnings(
      graph,
      ledger,
      recomputed.map((p) => ({ node: p.task, units: p.units })),
    ),
    ...consumerWarnings(graph, ledger, scope, seedPipelines),
    ...strategyWarnings(strategy, scope),
    ...emptyAppendWarnings(
      graph,
      recomputed.map((p) => ({ node: p.task, units: p.units })),
      opts.resolutions ?? [],
    ),
  ];
  return {
    strategy,
    recommended,
    waves: inWaves(order, scheduled),
    held,
    excluded,
    marks,
    blockers,
    warnings,
    cost: {
      unitsRecomputed: recomputed.reduce((n, p) => n + p.units.size, 0),
      fullRerunUnits: recomputed.reduce((n, p) => n + graph.nodes[graph.index.get(p.task)!]!.space.expected.size, 0),
      tasks: recomputed.length,
    },
    options,
    parameterOverrides: opts.parameterOverrides ?? {},
    scope,
    runnable: blockers.length === 0,
  };
}
