/**
 * Blockers and warnings of a repair plan: the seeds' "what can go wrong" lists as checks.
 *
 * Why each exists (seed 000/001):
 *  - an append task re-run converts a gap into a duplicate → blocker until deduplicated or
 *    fixed to replace; an unknown write mode counts as append;
 *  - a repair against a mutable / unretained source produces a unit unlike its neighbours;
 *  - an as-of-now join builds the repaired unit on a newer world than its neighbours;
 *  - an export already sent, a dashboard already read, a model already trained: re-running
 *    recalls nothing, so the plan carries a communication step.
 * Example: stg_orders (append) in scope with no resolution →
 *   { code: "append_unresolved", node: "job:reparo:stg_orders", … }
 */
import { compositeKey } from "./composite-key";
import { nodeName } from "./ids";
import type { ClosureResult, Seed } from "./closure";
import { parseNodeId, type NodeId, type TaskId } from "./ids";
import { WRITE_MODES, type LineageGraph, type TaskNode } from "./lineage-graph";
import { asOfNowJoins, holds, idempotentOverUnit, sourceReproducible } from "./preconditions";
import { factsOf, type Ledger } from "./repair-scope";
import type { ReasonCode } from "./repair-strategies";
import { toKeyRanges, UnitSet } from "./unit-set";

export type BlockerCode =
  | "append_unresolved"
  | "unknown_write_mode"
  | "unknown_side_effect"
  | "unknown_independence"
  | "nothing_to_recompute"
  | "invalid_key"
  | "active_repair_overlap"
  | "reason_required"
  | "empty_scope"
  /** A planned pair reads a failed upstream unit nothing in the plan re-runs: it would end upstream-failed. */
  | "waits_on_upstream"
  /** A chosen strategy that is not enabled blocks the plan with the reason it is disabled. */
  | ReasonCode;

export interface Blocker {
  readonly code: BlockerCode;
  readonly message: string;
  readonly node?: NodeId;
  /** For a fact nobody declared: which, and the values it may take (the wizard offers each). */
  readonly declare?: { readonly fact: "writeMode" | "sideEffect" | "dependsOnOwnPast"; readonly choices: readonly (string | boolean)[] };
  readonly repairId?: string;
  readonly keyRanges?: readonly [string, string][];
  /** For waits_on_upstream: the pairs that lift it once added to the incident. */
  readonly addPairs?: readonly { readonly task: NodeId; readonly units: readonly string[] }[];
}

export type WarningCode =
  | "as_of_now_join"
  | "mutable_source"
  | "unknown_source_mutability"
  | "input_not_retained"
  | "duplicate_publishes"
  | "cross_pipeline_consumed"
  | "communication_step"
  | "downstream_not_retriggered"
  | "mark_success_risk"
  | "omission_recorded"
  /** An append unit re-run without cleaning because it holds nothing (Resolution unit_empty). */
  | "append_unit_empty"
  /** A planned pair reads a wrong (duplicated, divergent…) upstream unit nothing re-runs: it comes out suspect. */
  | "built_on_wrong_upstream";

export interface Warning {
  readonly code: WarningCode;
  readonly message: string;
  readonly node?: NodeId;
  readonly keyRanges?: readonly [string, string][];
}

export type Resolution =
  | { readonly kind: "unit_deduplicated"; readonly task: TaskId; readonly units?: UnitSet }
  /**
   * Units with nothing to remove: every attempt reported 0 rows written and none was published
   * (e.g. a try that failed before writing) — re-running the append writes their only copy.
   */
  | { readonly kind: "unit_empty"; readonly task: TaskId; readonly units: UnitSet }
  | { readonly kind: "fixed_to_replace"; readonly task: TaskId };

export interface ActiveRepair {
  readonly id: string;
  readonly label?: string;
  readonly pairs: readonly Seed[];
}

const short = nodeName;
const ranges = (graph: LineageGraph, node: NodeId, units: UnitSet) => toKeyRanges(units, graph.nodes[graph.index.get(node)!]!.space);
const spell = (r: readonly [string, string][]) => r.map(([a, b]) => (a === b ? a : `${a}…${b}`)).join(", ");

/** Null when the task may be re-run over `units` (idempotent over the unit, or made so); otherwise the blocker that holds it back. */
export function idempotencyBlocker(graph: LineageGraph, task: TaskNode, units: UnitSet, resolutions: readonly Resolution[]): Blocker | null {
  const mine = resolutions.filter((r) => r.task === task.id);
  const idempotent = idempotentOverUnit(task);
  if (holds(idempotent) || mine.some((r) => r.kind === "fixed_to_replace")) return null;
  if (idempotent.verdict === "unknown") return unknownFact(task, "writeMode", WRITE_MODES, "whether a second run replaces its unit or adds to it");
  let open = units;
  for (const r of mine) {
    if (r.kind === "unit_deduplicated") open = r.units ? open.difference(r.units) : open.difference(units);
    else if (r.kind === "unit_empty") open = open.difference(r.units);
  }
  if (open.isEmpty) return null;
  const keyRanges = ranges(graph, task.id, open);
  return {
    code: "append_unresolved",
    node: task.id,
    keyRanges,
    message: `${short(task.id)} appends: re-running ${spell(keyRanges)} adds a second copy. Deduplicate the unit on its business key, or fix the task to replace its unit.`,
  };
}

const FACT_CODES = { writeMode: "unknown_write_mode", sideEffect: "unknown_side_effect", dependsOnOwnPast: "unknown_independence" } as const;

/**
 * A fact nobody declared holds the task back, naming the fact, what it decides, and how to declare
 * it: one line of the team's declaration file, or (in the wizard) a button per value.
 * Example: `transform has no declared writeMode — … declare it in your declaration file:
 * { namespace: airflow-lab, name: orders_etl.transform, writeMode: replace | merge | append }`.
 */
export function unknownFact(task: TaskNode, fact: keyof typeof FACT_CODES, choices: readonly (string | boolean)[], decides: string): Blocker {
  const { namespace, name } = parseNodeId(task.id) ?? { namespace: "", name: task.id };
  const line = `{ namespace: ${namespace}, name: ${name}, ${fact}: ${choices.join(" | ")} }`;
  return {
    code: FACT_CODES[fact],
    node: task.id,
    declare: { fact, choices },
    message: `${short(task.id)} has no declared ${fact}, which decides ${decides}: unknown is unsafe, so it is held. Declare it — in your declaration file, tasks: [${line}] (npm run declare), or with the buttons here.`,
  };
}

export function overlapBlockers(graph: LineageGraph, pairs: readonly Seed[], active: readonly ActiveRepair[]): Blocker[] {
  const out: Blocker[] = [];
  for (const repair of active) {
    for (const mine of pairs) {
      for (const theirs of repair.pairs) {
        if (theirs.node !== mine.node) continue;
        const both = mine.units.intersect(theirs.units);
        if (both.isEmpty) continue;
        const keyRanges = ranges(graph, mine.node, both);
        out.push({
          code: "active_repair_overlap",
          node: mine.node,
          repairId: repair.id,
          keyRanges,
          message: `${short(mine.node)} ${spell(keyRanges)} is already being repaired by ${repair.label ?? repair.id}.`,
        });
      }
    }
  }
  return out;
}

/**
 * Warnings about what the recomputed tasks read: duplicates, and the answers to "as-of-now
 * joins?" and "source immutable and retained?" (lib/domain/preconditions.ts) for the units re-run.
 */
export function inputWarnings(graph: LineageGraph, ledger: Ledger, pairs: readonly Seed[]): Warning[] {
  const out: Warning[] = [];
  for (const { node, units } of pairs) {
    const i = graph.index.get(node)!;
    const task = graph.nodes[i] as TaskNode;
    // A replace or merge task republishing a unit still holds one copy: nothing to deduplicate.
    const mode = task.writeMode;
    const dup = mode === "replace" || mode === "merge" ? null : factsOf(graph, ledger, i, "publishedMoreThanOnce").intersect(units);
    if (dup && !dup.isEmpty) {
      const keyRanges = ranges(graph, node, dup);
      out.push({
        code: "duplicate_publishes",
        node,
        keyRanges,
        message:
          mode === "append"
            ? `${short(node)} ${spell(keyRanges)} was published more than once by an append task: deduplicate before trusting the repair.`
            : `${short(node)} ${spell(keyRanges)} was published more than once by a task whose write mode nobody declared: declare it (append means a second copy to deduplicate).`,
      });
    }
    for (const joined of asOfNowJoins(graph, task).joins) {
      out.push({
        code: "as_of_now_join",
        node,
        message: `${short(node)} joins ${short(joined)} as of now: the repaired units are built on a newer snapshot than their neighbours.`,
      });
    }
    const source = sourceReproducible(graph, ledger, task, units);
    for (const d of source.mutable)
      out.push({
        code: "mutable_source",
        node: d,
        message: `${short(d)} is mutable: ${short(node)} will read a source that may have moved since the original run.`,
      });
    for (const d of source.unknownMutability)
      out.push({
        code: "unknown_source_mutability",
        node: d,
        message: `${short(d)} has unknown mutability (counted as mutable): ${short(node)} will read a source that may have moved since the original run.`,
      });
    for (const gone of source.notRetained) {
      const keyRanges = ranges(graph, gone.dataset, gone.units);
      out.push({
        code: "input_not_retained",
        node: gone.dataset,
        keyRanges,
        message: `${short(gone.dataset)} ${spell(keyRanges)}: the input version is no longer retained, so the repair cannot reproduce the original.`,
      });
    }
  }
  return dedupe(out);
}

/** Consumers that already read the bad units: other pipelines, exports, dashboards. */
export function consumerWarnings(graph: LineageGraph, ledger: Ledger, scope: ClosureResult, seedPipelines: ReadonlySet<string>): Warning[] {
  const out: Warning[] = [];
  for (const entry of scope.entries.values()) {
    if (entry.seed) continue;
    const i = graph.index.get(entry.node)!;
    const node = graph.nodes[i]!;
    const seen = factsOf(graph, ledger, i, "published")
      .union(factsOf(graph, ledger, i, "consumed"))
      .intersect(entry.units);
    if (seen.isEmpty) continue;
    const keyRanges = ranges(graph, node.id, seen);
    if (node.nodeKind === "task" && !seedPipelines.has(node.pipeline)) {
      out.push({
        code: "cross_pipeline_consumed",
        node: node.id,
        keyRanges,
        message: `${short(node.id)} (pipeline ${node.pipeline}${node.owner ? `, owner ${node.owner}` : ""}) already consumed ${spell(keyRanges)}: tell its owner.`,
      });
    }
    const external =
      node.nodeKind === "dataset" && (node.externalConsumer || graph.in[i]!.some((e) => (graph.nodes[e.from] as TaskNode).sideEffect === "external"));
    if (external) {
      out.push({
        code: "communication_step",
        node: node.id,
        keyRanges,
        message: `${short(node.id)} ${spell(keyRanges)} was already delivered outside the platform; re-running recalls nothing. Communicate the correction to its consumers.`,
      });
    }
  }
  return out;
}

function dedupe(warnings: Warning[]): Warning[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const k = compositeKey(w.code, w.node ?? "", w.message);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Says which append units run again without cleaning because they hold nothing (so nobody wonders why no blocker). */
export function emptyAppendWarnings(graph: LineageGraph, pairs: readonly Seed[], resolutions: readonly Resolution[]): Warning[] {
  const out: Warning[] = [];
  for (const r of resolutions) {
    if (r.kind !== "unit_empty") continue;
    const units = pairs.filter((p) => p.node === r.task).reduce((acc, p) => acc.union(p.units.intersect(r.units)), UnitSet.EMPTY);
    if (units.isEmpty) continue;
    const keyRanges = ranges(graph, r.task, units);
    out.push({
      code: "append_unit_empty",
      node: r.task,
      keyRanges,
      message: `${short(r.task)} ${spell(keyRanges)} holds nothing to remove: every attempt wrote 0 rows and none was published, so the re-run's append writes its only copy.`,
    });
  }
  return out;
}

/** A root cause the scope found upstream of planned pairs, which nothing in the incident re-runs (get-scope's waits-on). */
export interface UpstreamFinding {
  readonly task: NodeId;
  readonly units: readonly string[];
  /** Each unit's state as the matrix shows it. */
  readonly states: Readonly<Record<string, string>>;
  /** "running_balance 2026-08-17…2026-08-25". */
  readonly neededBy: string;
}

/** Upstream states a planned pair cannot run on: its run would end upstream-failed. */
const CANNOT_RUN_ON = new Set(["failed", "blocked", "missing"]);

/**
 * The scope's findings carried into the plan (issue: never "Nothing blocks" before a predictable
 * failure): a failed upstream unit is a blocker lifted by adding it to the incident (one click);
 * a wrong one (duplicated, divergent, empty, known-bad) is a warning — the pairs built on it come
 * out suspect and fail validation unless it is added, or marked known-bad.
 * Example: running_balance 2026-08-17…25 reads stg_orders 2026-08-23 (failed) → waits_on_upstream.
 */
export function upstreamFindingChecks(findings: readonly UpstreamFinding[]): { blockers: Blocker[]; warnings: Warning[] } {
  const blockers: Blocker[] = [];
  const warnings: Warning[] = [];
  for (const f of findings) {
    const failed = f.units.filter((u) => CANNOT_RUN_ON.has(f.states[u] ?? ""));
    const wrong = f.units.filter((u) => !CANNOT_RUN_ON.has(f.states[u] ?? ""));
    const words = (units: readonly string[]) => units.map((u) => `${u} (${(f.states[u] ?? "wrong").replace(/_/g, "-")})`).join(", ");
    if (failed.length > 0)
      blockers.push({
        code: "waits_on_upstream",
        node: f.task,
        keyRanges: failed.map((u) => [u, u] as [string, string]),
        addPairs: [{ task: f.task, units: failed }],
        message: `${f.neededBy} reads ${short(f.task)} ${words(failed)}, which this plan does not re-run: its run would end upstream-failed. Add ${failed.length === 1 ? "it" : "them"} to this incident, or repair ${failed.length === 1 ? "it" : "them"} first.`,
      });
    if (wrong.length > 0)
      warnings.push({
        code: "built_on_wrong_upstream",
        node: f.task,
        keyRanges: wrong.map((u) => [u, u] as [string, string]),
        message: `${f.neededBy} would be rebuilt on ${short(f.task)} ${words(wrong)}, which this plan does not re-run: the rebuilt units come out suspect and fail validation. Add ${wrong.length === 1 ? "it" : "them"} to this incident, or mark ${wrong.length === 1 ? "it" : "them"} known-bad with a reason.`,
      });
  }
  return { blockers, warnings };
}
