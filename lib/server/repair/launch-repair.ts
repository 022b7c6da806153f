import { nodeName } from "@/lib/domain/ids";
import type { NodeId } from "@/lib/domain/ids";
import { keysOf } from "@/lib/domain/partitions";
import { UnitSet } from "@/lib/domain/unit-set";
import { PlanOptionsSchema } from "@/lib/contracts/repair";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { getDb, type Db } from "../db/client";
import { isUniqueViolation } from "../db/db-errors";
import { ConflictError, UnprocessableError } from "../http/errors";
import { requireIncident } from "../incidents/require-incident";
import { listTasks } from "../repositories/catalog";
import { transitionIncident } from "../repositories/incidents";
import { claimHolders, insertClaims } from "../repositories/repair-claims";
import { currentPlan, markPlanLaunched } from "../repositories/repair-plans";
import { createRepairRun, nextRepairNumber, repairRunsOfIncident, attemptsOfRun } from "../repositories/repair-runs";
import { loadRepairContext, type RepairContext } from "./load-repair-context";
import { planIncidentRepair } from "./plan-incident-repair";
import { runningJobQueue } from "../jobs/job-queue";
import { runRepairToEnd, type RunRepairOptions } from "./run-repair";

export interface LaunchOptions {
  resume: boolean;
  concurrency: number;
  /** How the run executes once launched (the executor's task code by default). */
  run?: RunRepairOptions;
}

/**
 * Launches the confirmed plan as a repair run linked to the original (root run, parent run,
 * repair number, incident). The run row, its (task, unit) claims, the incident's move to
 * `repairing` and the audit entry commit in ONE transaction: the claims' unique index is what
 * lets exactly one of many overlapping launches through, across console processes; the others
 * get a 409 naming the repair that holds the units. The run then executes in the background, in
 * slices of the `repair-run` queue (run-repair.ts).
 */
export async function launchRepair(id: string, opts: LaunchOptions, actor: Actor, now = new Date(), db: Db = getDb()) {
  const incident = await requireIncident(db, id);
  const stored = await currentPlan(db, id);
  if (incident.status !== "planned" || stored?.status !== "confirmed") throw await notLaunchable(db, id, incident.status);
  const options = PlanOptionsSchema.parse(stored.options);
  const ctx = await loadRepairContext(db, now);
  const plan = await planIncidentRepair(db, ctx, incident, options);
  const done = opts.resume ? await donePairs(db, id) : new Set<string>();
  // Resuming, an append unit this incident already re-published needs no cleaning: it is not run again.
  const blockers = plan.blockers.filter((b) => !(b.code === "append_unresolved" && b.node && keysOfRanges(ctx, b.node, b.keyRanges ?? []).every((k) => done.has(`${b.node}\u0000${k}`))));
  const all = plan.waves.flatMap((w, wave) => w.flatMap((p) => [...keysOf(ctx.graph.nodes[ctx.graph.index.get(p.task)!]!.space, p.units)].map((k) => [p.task as string, k, wave] as [string, string, number])));
  const pairs = all.filter(([t, u]) => !done.has(`${t}\u0000${u}`));
  if (blockers.length > 0 || pairs.length === 0) {
    // Another launch may have won while this one re-planned, and its run already changed what
    // the plan sees (an append unit re-published): that launch is the reason, not the plan.
    const current = await requireIncident(db, id);
    if (current.status !== "planned") throw await notLaunchable(db, id, current.status);
    if (blockers.length > 0) throw new UnprocessableError(`the confirmed plan is blocked now: ${blockers.map((b) => b.message).join(" ")}`);
    throw new UnprocessableError("nothing left to run: every pair of the plan already succeeded");
  }
  const taskIds = new Map((await listTasks(db)).map((t) => [t.nodeId, t.id]));
  const claimPairs = pairs.map(([task, unitKey]) => ({ taskId: taskIds.get(task)!, unitKey }));
  const previous = (await repairRunsOfIncident(db, id)).at(-1);
  try {
    const run = await db.$transaction(async (tx) => {
      const repairNumber = await nextRepairNumber(tx, incident.originRunId, id);
      const created = await createRepairRun(tx, {
        pipelineId: incident.pipelineId, rootRunId: incident.originRunId, parentRunId: previous?.id ?? incident.originRunId, repairNumber, incidentId: id, triggeredBy: actor.id, at: now,
        params: { planId: stored.id, pairs, heartbeatAt: now.getTime(), concurrency: opts.concurrency, parameterOverrides: options.parameterOverrides, idempotencyKeys: Object.fromEntries(options.replay.map((r) => [r.taskNodeId, r.idempotencyKey])), launchedBy: { id: actor.id, role: actor.role } },
      });
      await insertClaims(tx, created.id, claimPairs, now);
      if (!(await transitionIncident(tx, id, ["planned"], "repairing"))) throw new ConflictError(`incident ${id} was launched meanwhile`);
      await markPlanLaunched(tx, stored.id);
      await appendAudit(tx, {
        kind: "repair.launched", actor: actor.id, actorRole: actor.role, reason: opts.resume ? "resume the interrupted repair: the pairs not yet done" : `launch the confirmed ${stored.strategy} plan`, incidentId: id,
        targets: groupTargets(pairs), before: { status: "planned" }, after: { status: "repairing", runId: created.id, rootRunId: incident.originRunId, repairNumber, pairs: pairs.length },
      }, now);
      return created;
    }, { timeout: 30_000, maxWait: 30_000 });
    return { runId: run.id, repairNumber: run.repairNumber, pairs: pairs.length, execution: startRepair(run.id, db, opts.run) };
  } catch (e) {
    if (isUniqueViolation(e) || e instanceof ConflictError) throw await overlapError(db, id, claimPairs, e);
    throw e;
  }
}

/**
 * A console server hands the run to its `repair-run` queue (any instance runs its slices; one
 * that dies is taken over); a script, test or a run with its own task code runs it here. If the
 * send is lost, the repair watchdog queues the run once it has been untouched for STALE_MS.
 */
async function startRepair(runId: string, db: Db, options: RunRepairOptions | undefined): Promise<string> {
  const queue = runningJobQueue();
  if (queue && !options) {
    await queue.send("repair-run", { runId }, { key: runId });
    return "queued";
  }
  return runRepairToEnd(runId, db, options);
}

/** Why this incident cannot be launched now, naming the repair that is running when there is one. */
async function notLaunchable(db: Db, id: string, status: string): Promise<ConflictError> {
  const latest = (await repairRunsOfIncident(db, id)).at(-1);
  if (!latest) return new ConflictError(`incident ${id} is ${status} and has no confirmed plan to launch: confirm a plan first`);
  const active = latest.status === "queued" || latest.status === "running";
  const details = { runningRepair: { runId: latest.id, repairNumber: latest.repairNumber, status: latest.status } };
  return active
    ? new ConflictError(`incident ${id} is already being repaired by repair #${latest.repairNumber} (run ${latest.id}, launched by ${latest.params.launchedBy.id})`, details)
    : new ConflictError(`incident ${id} was already launched as repair #${latest.repairNumber} (run ${latest.id}, launched by ${latest.params.launchedBy.id}, now ${latest.status}): confirm a new plan to repair again`, details);
}

function groupTargets(pairs: [string, string, number][]) {
  const by = new Map<string, string[]>();
  for (const [task, unit] of pairs) by.set(task, [...(by.get(task) ?? []), unit]);
  return [...by].map(([nodeId, units]) => ({ nodeId, units }));
}

/** Pairs that already succeeded in an earlier repair run of this incident: a resume does not run them again. */
async function donePairs(db: Db, id: string): Promise<Set<string>> {
  const done = new Set<string>();
  for (const run of await repairRunsOfIncident(db, id)) {
    for (const a of await attemptsOfRun(db, run.id)) if (a.status === "succeeded") done.add(`${a.taskNodeId}\u0000${a.unitKey}`);
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


async function overlapError(db: Db, id: string, pairs: { taskId: string; unitKey: string }[], cause: unknown): Promise<ConflictError> {
  const holders = await claimHolders(db, pairs);
  // The repair that won may have finished already: name it from the incident's runs.
  if (holders.length === 0) return (await repairRunsOfIncident(db, id)).length > 0 ? notLaunchable(db, id, "planned") : cause instanceof ConflictError ? cause : new ConflictError("another repair of these units started at the same moment; reload and try again");
  const h = holders[0]!;
  const name = nodeName(h.taskNodeId);
  return new ConflictError(
    `${name} ${h.unitKey}${holders.length > 1 ? ` and ${holders.length - 1} more pairs` : ""} are already being repaired by repair #${h.repairNumber} (run ${h.runId}${h.incidentId ? `, incident ${h.incidentId}` : ""}, launched by ${h.triggeredBy})`,
    { runningRepair: { runId: h.runId, repairNumber: h.repairNumber, incidentId: h.incidentId, launchedBy: h.triggeredBy } },
  );
}
