import type { NodeId, TaskId } from "@/lib/domain/ids";
import type { TaskNode } from "@/lib/domain/lineage-graph";
import { planRepair, type RepairPlan } from "@/lib/domain/repair-planner";
import { upstreamFindingChecks, type ActiveRepair, type Resolution } from "@/lib/domain/repair-checks";
import { RECOMPUTING } from "@/lib/domain/repair-strategies";
import { UnitSet } from "@/lib/domain/unit-set";
import { holdsNothing } from "@/lib/domain/cleanings";
import { compositeKey } from "@/lib/domain/composite-key";
import { keysOf } from "@/lib/domain/partitions";
import type { PlanOptions } from "@/lib/contracts/repair";
import type { Db } from "../repositories/database";
import type { IncidentRecord } from "../repositories/incidents/incidents";
import { activeClaims } from "../repositories/repair/repair-claims";
import { runLaunchesByIds } from "../repositories/repair/repair-runs";
import { cleanedAtByUnit, latestAttemptStarts, writtenFacts } from "../repositories/repair/unit-interventions";
import { incidentTargets } from "./incident-targets";
import type { RepairContext } from "./load-repair-context";
import { scopeWaitsOn } from "./get-scope";

/**
 * The domain planner on this incident: its failed pairs, the ledger, the repairs running now
 * (other incidents' claims), and the resolutions the facts support — an append unit counts as
 * deduplicated only when it was cleaned after its latest attempt (a later partial write undoes it).
 */
export async function planIncidentRepair(db: Db, ctx: RepairContext, incident: IncidentRecord, opts: PlanOptions): Promise<RepairPlan> {
  const [resolutions, activeRepairs] = await Promise.all([cleanResolutions(db, ctx), otherRepairs(db, ctx, incident.id)]);
  const plan = (extra: Resolution[]) =>
    planRepair({
      graph: ctx.graph,
      targets: incidentTargets(incident),
      ledger: ctx.ledger,
      activeRepairs,
      options: {
        strategy: opts.strategy,
        resolutions: [...resolutions, ...extra],
        parameterOverrides: opts.parameterOverrides,
        reason: opts.reason,
        replay: opts.replay.map((r) => ({ task: r.taskNodeId as TaskId, idempotencyKey: r.idempotencyKey })),
      },
    });
  const first = plan([]);
  // Append units still blocked that provably hold nothing (no publish, every try wrote 0 rows) need no cleaning: plan again without them.
  const empty = await emptyResolutions(db, ctx, first);
  return withScopeFindings(db, ctx, incident, empty.length > 0 ? plan(empty) : first);
}

/**
 * The plan carries what the Scope step found: a planned task that reads a failed upstream unit
 * nothing in the incident re-runs is blocked (add the unit: one click), one that would be rebuilt
 * on a wrong unit is warned about — the same finding, never "Nothing blocks" before a predictable failure.
 */
async function withScopeFindings(db: Db, ctx: RepairContext, incident: IncidentRecord, plan: RepairPlan): Promise<RepairPlan> {
  if (!RECOMPUTING.has(plan.strategy)) return plan;
  const planned = new Set(plan.waves.flatMap((w) => w.map((t) => t.task as string)));
  const findings = (await scopeWaitsOn(db, ctx, plan.scope, incident.failedPairs))
    .filter((w) => w.neededByTasks.some((t) => planned.has(t)))
    .map((w) => ({ task: w.taskNodeId as NodeId, units: w.units, states: w.states, neededBy: w.neededBy }));
  if (findings.length === 0) return plan;
  const { blockers, warnings } = upstreamFindingChecks(findings);
  return { ...plan, blockers: [...plan.blockers, ...blockers], warnings: [...plan.warnings, ...warnings], runnable: plan.runnable && blockers.length === 0 };
}

async function emptyResolutions(db: Db, ctx: RepairContext, plan: RepairPlan): Promise<Resolution[]> {
  const out: Resolution[] = [];
  for (const b of plan.blockers) {
    if (b.code !== "append_unresolved" || !b.node) continue;
    const task = ctx.tasks.get(b.node);
    const output = ctx.outputOf.get(b.node);
    const node = ctx.graph.nodes[ctx.graph.index.get(b.node as NodeId) ?? -1] as TaskNode | undefined;
    if (!task || !output || !node) continue;
    const keys = (b.keyRanges ?? [])
      .flatMap(([lo, hi]) => {
        const [a, z] = [node.space.validate(lo), node.space.validate(hi)];
        return a.valid && z.valid ? [...keysOf(node.space, UnitSet.range(a.ordinal, z.ordinal))] : [];
      })
      .slice(0, 5_000);
    const facts = await writtenFacts(db, task.id, output.id, keys);
    const ordinals = keys
      .filter((k) => holdsNothing(facts.attempts.get(k) ?? [], facts.publishes.get(k) ?? 0))
      .map((k) => node.space.validate(k))
      .flatMap((v) => (v.valid ? [v.ordinal] : []));
    if (ordinals.length > 0) out.push({ kind: "unit_empty", task: b.node as TaskId, units: UnitSet.fromOrdinals(ordinals) });
  }
  return out;
}

async function cleanResolutions(db: Db, ctx: RepairContext): Promise<Resolution[]> {
  const appendTasks = [...ctx.tasks.values()].filter((t) => t.writeMode === "append" && ctx.outputOf.has(t.nodeId));
  if (appendTasks.length === 0) return [];
  const [cleaned, starts] = await Promise.all([
    cleanedAtByUnit(
      db,
      appendTasks.map((t) => ctx.outputOf.get(t.nodeId)!.id),
    ),
    latestAttemptStarts(
      db,
      appendTasks.map((t) => t.id),
    ),
  ]);
  const out: Resolution[] = [];
  for (const t of appendTasks) {
    const node = ctx.graph.nodes[ctx.graph.index.get(t.nodeId as NodeId) ?? -1] as TaskNode | undefined;
    if (!node) continue;
    const ordinals: number[] = [];
    for (const [unitKey, at] of cleaned.get(ctx.outputOf.get(t.nodeId)!.id) ?? []) {
      const v = node.space.validate(unitKey);
      if (v.valid && at > (starts.get(compositeKey(t.id, unitKey)) ?? -Infinity)) ordinals.push(v.ordinal);
    }
    if (ordinals.length > 0) out.push({ kind: "unit_deduplicated", task: t.nodeId as TaskId, units: UnitSet.fromOrdinals(ordinals) });
  }
  return out;
}

async function otherRepairs(db: Db, ctx: RepairContext, incidentId: string): Promise<ActiveRepair[]> {
  const claims = await activeClaims(db);
  if (claims.length === 0) return [];
  const runs = await runLaunchesByIds(
    db,
    claims.map((c) => c.runId),
  );
  return runs
    .filter((r) => r.incidentId !== incidentId)
    .map((r) => {
      const byTask = new Map<string, number[]>();
      for (const c of claims.filter((x) => x.runId === r.id)) {
        const node = ctx.graph.nodes[ctx.graph.index.get(c.taskNodeId as NodeId) ?? -1];
        const v = node?.space.validate(c.unitKey);
        if (v?.valid) byTask.set(c.taskNodeId, [...(byTask.get(c.taskNodeId) ?? []), v.ordinal]);
      }
      const pairs = [...byTask].map(([node, ordinals]) => ({ node: node as NodeId, units: UnitSet.fromOrdinals(ordinals) }));
      return { id: r.id, label: `repair #${r.repairNumber} (run ${r.id}, launched by ${r.triggeredBy})`, pairs };
    });
}
