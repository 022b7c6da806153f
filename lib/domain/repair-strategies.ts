/**
 * Which responses to a partial failure are available, and why the others are not.
 *
 * Why a separate function: seed 000 — "the first question is always whether the units are
 * independent, because it removes options rather than ranking them". The wizard shows every
 * strategy with its verdict; only the ones whose preconditions hold are enabled, and each
 * disabled one says which precondition failed, in words an operator at 03:00 can act on.
 *
 * Example: a failed unit of running_balance (reads its own previous unit) →
 *   targeted: disabled, "running_balance is sequential …"; recompute_forward: enabled, recommended.
 */
import { nodeName } from "./ids";
import type { TaskId } from "./ids";
import { counted } from "./words";

export const STRATEGIES = [
  "targeted",
  "targeted_with_closure",
  "recompute_forward",
  "full_rerun",
  "atomic_set_republish",
  "mark_known_bad",
  "skip_with_omission",
  "mark_success",
] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** Strategies that recompute units (and so need idempotent tasks); the others only record a mark. */
export const RECOMPUTING: ReadonlySet<Strategy> = new Set(["targeted", "targeted_with_closure", "recompute_forward", "full_rerun", "atomic_set_republish"]);

export type ReasonCode =
  | "sequential_targeted"
  | "atomic_set_partial"
  | "downstream_already_built"
  | "source_not_reproducible"
  | "no_task_to_rerun"
  | "no_sequential_model"
  | "no_atomic_set"
  | "evidence_required"
  | "unpublished_units";

export interface Reason {
  readonly code: ReasonCode;
  readonly message: string;
}

/** Facts about the scope (failed pairs + downstream closure) that decide the options. */
export interface ScopeFacts {
  /** Seed tasks whose units are not independent, or not known to be (preconditions.ts unitsIndependent). */
  readonly sequentialSeeds: readonly TaskId[];
  /** Any task in the closure that is sequential (or unknown). */
  readonly sequentialInScope: readonly TaskId[];
  /** Tasks in the closure whose whole set is the unit: atomic-set publish, or not declared (preconditions.ts atomicSetPublish). */
  readonly atomicSetInScope: readonly TaskId[];
  readonly seedTaskCount: number;
  /** Non-seed closure pairs that already published from the bad inputs. */
  readonly downstreamAlreadyBuilt: number;
  /** Inputs of the scope that are mutable, of unknown mutability, or not retained (preconditions.ts sourceReproducible). */
  readonly unreproducibleSources: readonly string[];
  /** Seed units with no publish in the ledger. */
  readonly unpublishedSeedUnits: number;
  /** A passing reconciliation (or equivalent) was attached. */
  readonly hasEvidence: boolean;
}

export interface StrategyOption {
  readonly strategy: Strategy;
  readonly enabled: boolean;
  readonly recommended: boolean;
  /** Why not enabled; empty when enabled. */
  readonly why: readonly Reason[];
  /** What the operator must still supply when choosing it. */
  readonly requires: readonly ("reason" | "evidence")[];
  readonly when: string;
  readonly cost: string;
}

/** What each strategy is for and what it costs, as the wizard shows it beside the choice. */
export const STRATEGY_GUIDE: Record<Strategy, { when: string; cost: string; requires: StrategyOption["requires"] }> = {
  targeted: {
    when: "Units independent, tasks replace their unit, inputs immutable, nothing downstream has run.",
    cost: "Cheapest; wrong once a downstream task consumed the bad unit.",
    requires: [],
  },
  targeted_with_closure: {
    when: "Downstream already ran (or you cannot tell); every task in the closure replaces its unit.",
    cost: "The compute of the whole closure; the routine answer for a well-built graph.",
    requires: [],
  },
  recompute_forward: {
    when: "A sequential model (running balance, SCD2, sessions): recompute from the earliest affected unit to the end.",
    cost: "Grows with the age of the failure.",
    requires: [],
  },
  full_rerun: {
    when: "Units are cheap or the dependency structure is not trustworthy, and the source is immutable.",
    cost: "Recomputes every unit of every task in scope, correct ones included.",
    requires: [],
  },
  atomic_set_republish: { when: "An atomic-set publish: the whole set is the unit.", cost: "One failed unit re-publishes the entire set.", requires: [] },
  mark_known_bad: { when: "The source data for the unit is itself wrong; consumers must see a gap.", cost: "An honest, unpopular gap.", requires: ["reason"] },
  skip_with_omission: {
    when: "Almost never: a genuinely optional unit, with the omission recorded and visible.",
    cost: "Silently incomplete data with a green pipeline unless surfaced.",
    requires: ["reason"],
  },
  mark_success: {
    when: "Only with independent evidence (a passing reconciliation) that the output is correct.",
    cost: "A permanent claim every future coverage query will believe.",
    requires: ["reason", "evidence"],
  },
};

function list(ids: readonly string[]): string {
  const names = ids.map((id) => nodeName(id));
  return names.length <= 3 ? names.join(", ") : `${names.slice(0, 3).join(", ")} and ${names.length - 3} more`;
}

function whyNot(strategy: Strategy, f: ScopeFacts): Reason[] {
  const why: Reason[] = [];
  const partialKinds = strategy === "targeted" || strategy === "targeted_with_closure" || strategy === "recompute_forward";
  if (strategy === "targeted") {
    if (f.seedTaskCount === 0)
      why.push({
        code: "no_task_to_rerun",
        message: "The failed units belong to a source; no task re-creates them. Repair the source, then repair its closure.",
      });
    if (f.sequentialSeeds.length > 0) {
      why.push({
        code: "sequential_targeted",
        message: `${list(f.sequentialSeeds)} reads its own previous unit (or its independence is unknown): repairing the hole leaves every later unit computed from a history that no longer exists. Recompute forward.`,
      });
    }
    if (f.downstreamAlreadyBuilt > 0) {
      why.push({
        code: "downstream_already_built",
        message: `${f.downstreamAlreadyBuilt} downstream pairs already ran on the bad units and would stay stale. Include the closure.`,
      });
    }
  }
  if (partialKinds && f.atomicSetInScope.length > 0) {
    why.push({
      code: "atomic_set_partial",
      message: `${list(f.atomicSetInScope)} publishes as an atomic set (or does not say how it publishes): partial repair is not observable, the whole set is the unit.`,
    });
  }
  if (strategy === "recompute_forward" && f.sequentialInScope.length === 0) {
    why.push({ code: "no_sequential_model", message: "No sequential model in scope: recomputing forward would redo independent units for nothing." });
  }
  if (strategy === "atomic_set_republish" && f.atomicSetInScope.length === 0) {
    why.push({ code: "no_atomic_set", message: "No task in scope publishes as an atomic set." });
  }
  if (strategy === "full_rerun" && f.unreproducibleSources.length > 0) {
    why.push({
      code: "source_not_reproducible",
      message: `${list(f.unreproducibleSources)} is mutable, of unknown mutability, or no longer retained: a full re-run recomputes correct units against a source that has moved.`,
    });
  }
  if (strategy === "mark_success") {
    if (!f.hasEvidence) why.push({ code: "evidence_required", message: "Marking success needs evidence, such as a passing reconciliation for these units." });
    if (f.unpublishedSeedUnits > 0) {
      why.push({
        code: "unpublished_units",
        message: `${counted(f.unpublishedSeedUnits, "unit")} ${f.unpublishedSeedUnits === 1 ? "has" : "have"} no publish in the ledger: marking ${f.unpublishedSeedUnits === 1 ? "it" : "them"} successful records a claim about data that does not exist.`,
      });
    }
  }
  return why;
}

/** The default: closure for a well-built graph, recompute forward when a seed is sequential. */
function recommend(options: readonly Omit<StrategyOption, "recommended">[], f: ScopeFacts): Strategy {
  const enabled = (s: Strategy) => options.some((o) => o.strategy === s && o.enabled);
  const order: Strategy[] =
    f.atomicSetInScope.length > 0
      ? ["atomic_set_republish"]
      : f.sequentialSeeds.length > 0
        ? ["recompute_forward", "targeted_with_closure"]
        : ["targeted_with_closure", "recompute_forward", "targeted"];
  return order.find(enabled) ?? "mark_known_bad";
}

export function resolveStrategyOptions(facts: ScopeFacts): StrategyOption[] {
  const base = STRATEGIES.map((strategy) => {
    const why = whyNot(strategy, facts);
    return { strategy, enabled: why.length === 0, why, ...STRATEGY_GUIDE[strategy] };
  });
  const recommended = recommend(base, facts);
  return base.map((o) => ({ ...o, recommended: o.strategy === recommended }));
}
