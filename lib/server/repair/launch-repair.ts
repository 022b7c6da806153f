import { nodeName } from "@/lib/domain/ids";
import type { NodeId } from "@/lib/domain/ids";
import { nextStatus } from "@/lib/domain/incident-lifecycle";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { isUniqueViolation } from "../db/db-errors";
import { InvalidFieldError, ConflictError, RefusedError } from "@/lib/domain/errors";
import { requireIncident } from "../incidents/require-incident";
import { listTasks } from "../repositories/lineage/catalog-reads";
import { moveIncident } from "../incidents/move-incident";
import { claimHolders, insertClaims } from "../repositories/repair/repair-claims";
import { currentPlan, markPlanLaunched } from "../repositories/repair/repair-plans";
import { createRepairRun, nextRepairNumber, repairRunsOfIncident } from "../repositories/repair/repair-runs";
import { runningJobQueue } from "../jobs/job-queue";
import { runRepairToEnd, type RunRepairOptions } from "./run-repair-slice";
import type { DispatchGroup } from "./dispatch-groups";
import { launchablePairs, notLaunchable, repairGroups } from "./launch-input";
import { dryRun, recordPreview } from "./dry-run";

export interface LaunchOptions {
  resume: boolean;
  concurrency: number;
  /** The digest of the dry run the operator reviewed (a repair dispatched to an orchestrator needs it). */
  preview?: string;
  /** How the run executes when this process runs it (no job queue): the executor's task code by default. */
  run?: RunRepairOptions;
}

/**
 * Launches the confirmed plan as a repair run linked to the original (root run, parent run,
 * repair number, incident). The run row, its (task, unit) claims, the incident's move to
 * `repairing` and the audit entry commit in ONE transaction: the claims' unique index is what
 * lets exactly one of many overlapping launches through, across console processes; the others
 * get a 409 naming the repair that holds the units. The run then executes in the background, in
 * slices of the `repair-run` queue (run-repair-slice.ts).
 */
export async function launchRepair(id: string, opts: LaunchOptions, actor: Actor, now = new Date(), db: Db = getDb()) {
  const incident = await requireIncident(db, id);
  const stored = await currentPlan(db, id);
  // Refused with the repair that holds the incident when there is one: more useful than the bare lifecycle answer.
  if (nextStatus(incident.status, "launch") === null || stored?.status !== "confirmed") throw await notLaunchable(db, id, incident.status);
  const { ctx, pairs, options, plan } = await launchablePairs(db, incident, stored, opts.resume, now);
  // Where each pipeline's pairs run: its orchestrator connection now, kept with the run.
  const groups = await repairGroups(db, ctx, id, pairs, options, plan, incident.originRunId);
  refuseUndispatchable(groups);
  if (groups.some((g) => g.orchestrator && g.orchestrator.kind !== "local")) {
    if (!opts.preview)
      throw new InvalidFieldError(
        "body.preview",
        "this repair runs in your orchestrator: review its dry run first (POST /api/v1/incidents/{id}/dry-run) and pass its digest",
      );
    const fresh = await dryRun(groups);
    // The launch's own dry run sent requests too: on the record, whether the launch goes on or not.
    await recordPreview(db, id, actor, fresh, "the reviewed plan, checked again at launch", now);
    if (fresh.digest !== opts.preview)
      throw new ConflictError("the orchestrator's dry run has changed since it was reviewed: review the new one (POST …/dry-run) and confirm again", {
        dryRun: fresh.preview,
      });
  }
  const connections = Object.fromEntries(groups.map((g) => [g.pipelineId, g.connection]));
  const taskIds = new Map((await listTasks(db)).map((t) => [t.nodeId, t.id]));
  const claimPairs = pairs.map(([task, unitKey]) => ({ taskId: taskIds.get(task)!, unitKey }));
  const previous = (await repairRunsOfIncident(db, id)).at(-1);
  try {
    const run = await inTransaction(
      db,
      async (tx) => {
        const repairNumber = await nextRepairNumber(tx, incident.originRunId, id);
        const created = await createRepairRun(tx, {
          pipelineId: incident.pipelineId,
          rootRunId: incident.originRunId,
          parentRunId: previous?.id ?? incident.originRunId,
          repairNumber,
          incidentId: id,
          triggeredBy: actor.id,
          at: now,
          params: {
            planId: stored.id,
            pairs,
            heartbeatAt: now.getTime(),
            concurrency: opts.concurrency,
            parameterOverrides: options.parameterOverrides,
            idempotencyKeys: Object.fromEntries(options.replay.map((r) => [r.taskNodeId, r.idempotencyKey])),
            launchedBy: { id: actor.id, role: actor.role },
            connections,
            progress: {},
          },
        });
        await insertClaims(tx, created.id, claimPairs, now);
        await moveIncident(tx, incident, "launch");
        await markPlanLaunched(tx, stored.id);
        await appendAudit(
          tx,
          {
            kind: "repair.launched",
            actor: actor.id,
            actorRole: actor.role,
            reason: opts.resume ? "resume the interrupted repair: the pairs not yet done" : `launch the confirmed ${stored.strategy} plan`,
            incidentId: id,
            targets: groupTargets(pairs),
            before: { status: "planned" },
            after: { status: "repairing", runId: created.id, rootRunId: incident.originRunId, repairNumber, pairs: pairs.length },
          },
          now,
        );
        return created;
      },
      { timeout: 30_000, maxWait: 30_000 },
    );
    return { runId: run.id, repairNumber: run.repairNumber, pairs: pairs.length, execution: startRepair(run.id, db, opts.run) };
  } catch (e) {
    if (isUniqueViolation(e) || e instanceof ConflictError) throw await overlapError(db, id, claimPairs, e);
    throw e;
  }
}

/**
 * A console server hands the run to its `repair-run` queue (any instance runs its slices; one
 * that dies is taken over); a process without one (a script, a test) runs it here, with
 * `options`. Where it runs depends on the queue alone, so a test takes the path a console does.
 * If the send is lost, the repair watchdog queues the run once it has been untouched for STALE_MS.
 */
async function startRepair(runId: string, db: Db, options: RunRepairOptions | undefined): Promise<string> {
  const queue = runningJobQueue();
  if (queue) {
    await queue.send("repair-run", { runId }, { key: runId });
    return "queued";
  }
  return runRepairToEnd(runId, db, options);
}

/** A pipeline with nowhere to run, or a planned task its orchestrator cannot address, stops the launch — naming each. */
function refuseUndispatchable(groups: DispatchGroup[]): void {
  const problems: string[] = [];
  for (const g of groups) {
    if (!g.orchestrator) {
      problems.push(
        `pipeline ${g.pipeline} has no orchestrator connection: an admin sets one with PUT /api/v1/pipelines/${g.pipelineId}/orchestrator (or copy the export)`,
      );
      continue;
    }
    for (const u of g.orchestrator.requests(g.plan).unsupported)
      problems.push(`${nodeName(u.taskNodeId as NodeId)} (${g.pipeline}, ${g.orchestrator.kind}): ${u.reason}`);
  }
  if (problems.length > 0) throw new RefusedError(`this repair cannot be dispatched as planned: ${problems.join("; ")}`, { undispatchable: problems });
}

function groupTargets(pairs: [string, string, number][]) {
  const by = new Map<string, string[]>();
  for (const [task, unit] of pairs) by.set(task, [...(by.get(task) ?? []), unit]);
  return [...by].map(([nodeId, units]) => ({ nodeId, units }));
}

async function overlapError(db: Db, id: string, pairs: { taskId: string; unitKey: string }[], cause: unknown): Promise<ConflictError> {
  const holders = await claimHolders(db, pairs);
  // The repair that won may have finished already: name it from the incident's runs.
  if (holders.length === 0)
    return (await repairRunsOfIncident(db, id)).length > 0
      ? notLaunchable(db, id, "planned")
      : cause instanceof ConflictError
        ? cause
        : new ConflictError("another repair of these units started at the same moment; reload and try again");
  const h = holders[0]!;
  const name = nodeName(h.taskNodeId);
  return new ConflictError(
    `${name} ${h.unitKey}${holders.length > 1 ? ` and ${holders.length - 1} more pairs` : ""} are already being repaired by repair #${h.repairNumber} (run ${h.runId}${h.incidentId ? `, incident ${h.incidentId}` : ""}, launched by ${h.triggeredBy})`,
    { runningRepair: { runId: h.runId, repairNumber: h.repairNumber, incidentId: h.incidentId, launchedBy: h.triggeredBy } },
  );
}
