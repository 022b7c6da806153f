import { keysOf } from "@/lib/domain/partitions";
import { UnitSet } from "@/lib/domain/unit-set";
import type { NodeId } from "@/lib/domain/ids";
import { nextStatus } from "@/lib/domain/incident-lifecycle";
import type { PlanOptions } from "@/lib/contracts/repair";
import type { Db } from "../repositories/database";
import { ConflictError, RefusedError } from "@/lib/domain/errors";
import { requireIncident } from "../incidents/require-incident";
import type { currentPlan } from "../repositories/repair/repair-plans";
import { attemptsOfRun, repairRunsOfIncident } from "../repositories/repair/repair-runs";
import type { RepairPlan } from "@/lib/domain/repair-planner";
import { dispatchGroups, progressKey, type DispatchGroup } from "./dispatch-groups";
import { loadRepairContext, type RepairContext } from "./load-repair-context";
import { planIncidentRepair } from "./plan-incident-repair";
import { isActiveRun } from "@/lib/domain/repair-run-lifecycle";

/**
 * The confirmed plan's (task, unit, wave) pairs still to run — all of them, or on a resume
 * those no earlier repair of the incident finished — refused while the plan is blocked.
 */
export async function launchablePairs(
  db: Db,
  incident: Awaited<ReturnType<typeof requireIncident>>,
  stored: NonNullable<Awaited<ReturnType<typeof currentPlan>>>,
  resume: boolean,
  now: Date,
) {
  const id = incident.id;
  const options = stored.options;
  const ctx = await loadRepairContext(db, now);
  const plan = await planIncidentRepair(db, ctx, incident, options);
  const done = resume ? await donePairs(db, id) : new Set<string>();
  // Resuming, an append unit this incident already re-published needs no cleaning: it is not run again.
  const blockers = plan.blockers.filter(
    (b) => !(b.code === "append_unresolved" && b.node && keysOfRanges(ctx, b.node, b.keyRanges ?? []).every((k) => done.has(progressKey(b.node!, k)))),
  );
  const all = planPairs(ctx, plan);
  const pairs = all.filter(([t, u]) => !done.has(progressKey(t, u)));
  if (blockers.length > 0 || pairs.length === 0) {
    // Another launch may have won while this one re-planned, and its run already changed what
    // the plan sees (an append unit re-published): that launch is the reason, not the plan.
    const current = await requireIncident(db, id);
    if (nextStatus(current.status, "launch") === null) throw await notLaunchable(db, id, current.status);
    if (blockers.length > 0) throw new RefusedError(`the confirmed plan is blocked now: ${blockers.map((b) => b.message).join(" ")}`);
    throw new RefusedError("nothing left to run: every pair of the plan already succeeded");
  }
  return { ctx, plan, pairs, options };
}

/** The plan's (task, unit, wave) pairs, unit by unit, in wave order. */
export function planPairs(ctx: RepairContext, plan: RepairPlan): [string, string, number][] {
  return plan.waves.flatMap((w, wave) =>
    w.flatMap((p) =>
      [...keysOf(ctx.graph.nodes[ctx.graph.index.get(p.task)!]!.space, p.units)].map((k) => [p.task as string, k, wave] as [string, string, number]),
    ),
  );
}

/** The repair's pairs split by pipeline, each with its orchestrator: the same for the dry run and the launch (so their digests agree). */
export function repairGroups(
  db: Db,
  ctx: RepairContext,
  incidentId: string,
  pairs: [string, string, number][],
  options: PlanOptions,
  plan: RepairPlan,
  failedRunId: string | null,
): Promise<DispatchGroup[]> {
  return dispatchGroups(
    db,
    ctx,
    {
      incidentId,
      runId: null,
      repairNumber: 0,
      pairs,
      parameterOverrides: options.parameterOverrides,
      idempotencyKeys: Object.fromEntries(options.replay.map((r) => [r.taskNodeId, r.idempotencyKey])),
      excluded: plan.excluded.map((e) => e.task),
      failedRunId,
    },
    null,
  );
}

/** Why this incident cannot be launched now, naming the repair that is running when there is one. */
export async function notLaunchable(db: Db, id: string, status: string): Promise<ConflictError> {
  const latest = (await repairRunsOfIncident(db, id)).at(-1);
  if (!latest) return new ConflictError(`incident ${id} is ${status} and has no confirmed plan to launch: confirm a plan first`);
  const active = isActiveRun(latest.status);
  const details = { runningRepair: { runId: latest.id, repairNumber: latest.repairNumber, status: latest.status } };
  return active
    ? new ConflictError(
        `incident ${id} is already being repaired by repair #${latest.repairNumber} (run ${latest.id}, launched by ${latest.params.launchedBy.id})`,
        details,
      )
    : new ConflictError(
        `incident ${id} was already launched as repair #${latest.repairNumber} (run ${latest.id}, launched by ${latest.params.launchedBy.id}, now ${latest.status}): confirm a new plan to repair again`,
        details,
      );
}

/** Pairs that already succeeded in an earlier repair run of this incident: a resume does not run them again. */
async function donePairs(db: Db, id: string): Promise<Set<string>> {
  const done = new Set<string>();
  for (const run of await repairRunsOfIncident(db, id)) {
    for (const a of await attemptsOfRun(db, run.id)) if (a.status === "succeeded") done.add(progressKey(a.taskNodeId, a.unitKey));
    for (const [key, p] of Object.entries(run.params.progress)) if (p.status === "succeeded") done.add(key);
  }
  return done;
}

function keysOfRanges(ctx: RepairContext, node: string, ranges: readonly (readonly [string, string])[]): string[] {
  const space = ctx.graph.nodes[ctx.graph.index.get(node as NodeId)!]!.space;
  return ranges.flatMap(([lo, hi]) => {
    const [a, z] = [space.validate(lo), space.validate(hi)];
    return a.valid && z.valid ? [...keysOf(space, UnitSet.range(a.ordinal, z.ordinal))] : [lo];
  });
}
