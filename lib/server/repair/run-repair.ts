import type { Db } from "../db/client";
import { appendAudit } from "../audit/append-audit";
import { executeExistingRun } from "../executor/execute-existing-run";
import type { TaskCode } from "../executor/types";
import { transitionIncident } from "../repositories/incidents";
import { releaseClaims } from "../repositories/repair-claims";
import { attemptsOfRun, findRepairRun, finishRunStatus, heartbeat } from "../repositories/repair-runs";
import { HEARTBEAT_MS, markLive } from "./repair-owner";

export interface RunRepairOptions {
  /** The executor's task-code lookup (the registry by default). */
  taskCode?: (taskNodeId: string) => TaskCode;
}

/**
 * Executes a launched repair run with the local executor against the demo warehouse, in
 * dependency order with the plan's concurrency limit, heartbeating so other console processes
 * can tell it is alive. When it ends, its claims are released, the incident moves on to
 * validation and the outcome is recorded — in one transaction.
 */
export async function runRepair(runId: string, db: Db, options: RunRepairOptions = {}): Promise<string> {
  const run = await findRepairRun(db, runId);
  if (!run) throw new Error(`no repair run ${runId}`);
  markLive(runId, true);
  const beat = setInterval(() => void heartbeat(db, run, Date.now()).catch(() => undefined), HEARTBEAT_MS);
  let status = "failed";
  try {
    const result = await executeExistingRun(db, {
      runId, pairs: run.params.pairs.map(([taskNodeId, unitKey]) => ({ taskNodeId, unitKey })), clock: () => new Date(),
      concurrency: run.params.concurrency, parameters: run.params.parameterOverrides, taskCode: options.taskCode,
      idempotencyKey: (task) => run.params.idempotencyKeys[task],
    });
    status = result.status;
  } catch (e) {
    console.error(`reparo: repair run ${runId} stopped: ${(e as Error).message}`);
    await db.$transaction((tx) => finishRunStatus(tx, runId, "failed", new Date()));
  } finally {
    clearInterval(beat);
  }
  await finishRepair(db, runId, status);
  markLive(runId, false);
  return status;
}

async function finishRepair(db: Db, runId: string, status: string): Promise<void> {
  const run = (await findRepairRun(db, runId))!;
  const attempts = await attemptsOfRun(db, runId);
  const latest = new Map(attempts.map((a) => [`${a.taskNodeId}\u0000${a.unitKey}`, a.status]));
  const count = (s: string) => [...latest.values()].filter((x) => x === s).length;
  await db.$transaction(async (tx) => {
    await releaseClaims(tx, runId);
    if (run.incidentId) await transitionIncident(tx, run.incidentId, ["repairing"], "validating");
    await appendAudit(tx, {
      kind: "repair.finished", actor: run.params.launchedBy.id, actorRole: run.params.launchedBy.role, reason: `repair #${run.repairNumber} ended: ${status}`,
      incidentId: run.incidentId, before: { runStatus: "running" },
      after: { runStatus: status, succeeded: count("succeeded"), failed: count("failed"), blocked: count("upstream_failed") },
    });
  });
}
