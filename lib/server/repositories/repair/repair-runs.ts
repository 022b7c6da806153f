import { recordUnitChanges } from "../units/unit-changes";
import { z } from "zod";
import { OrchestratorConnectionSchema } from "@/lib/contracts/orchestrators";
import { providerOf, type Db, type Tx } from "../database";
import { prismaOf } from "../prisma-handle";
import { ACTIVE_RUN_STATUSES, isActiveRun, isRepairRunStatus, type RepairRunStatus } from "@/lib/domain/repair-run-lifecycle";

/** What a repair run carries besides the Run columns: its pairs (with their plan wave), owner and heartbeat. */
export const RepairRunParamsSchema = z.object({
  planId: z.string(),
  pairs: z.array(z.tuple([z.string(), z.string(), z.number().int()])),
  /** The slice running the run: its console instance and, when run by the job queue, its job id. */
  owner: z.object({ instance: z.string(), host: z.string(), pid: z.number().int(), job: z.string().optional(), slice: z.string().optional() }).optional(),
  /** Slices in a row that stopped on an unexpected error (the run fails at 3). */
  failedSlices: z.number().int().optional(),
  /**
   * Why the last slice stopped on an error (the peer named, the cause in words), while the run
   * retries it; kept once the run failed on it. Cleared by the next slice that goes through.
   */
  fault: z.object({ message: z.string(), at: z.number(), attempt: z.number().int(), of: z.number().int(), retryInSeconds: z.number().nullable() }).optional(),
  heartbeatAt: z.number().optional(),
  concurrency: z.number().int().default(4),
  parameterOverrides: z.record(z.string(), z.string()).default({}),
  idempotencyKeys: z.record(z.string(), z.string()).default({}),
  launchedBy: z.object({ id: z.string(), role: z.string() }),
  /** Where each pipeline's pairs run, as its connection was at launch (secrets named only). A pipeline not listed runs locally (runs launched before connections existed). */
  connections: z.record(z.string(), OrchestratorConnectionSchema).default({}),
  /**
   * The wave in flight and, per pipeline, what was dispatched for which wave: the orchestrator's
   * handle, or null when nothing was sent (every pair held back, or no connection). A pipeline
   * without an entry for the wave in flight has not been dispatched yet (a wave is entered before
   * its pipelines are sent, so a retry or a takeover sends the ones still missing).
   */
  dispatch: z
    .object({
      wave: z.number().int(),
      /** `partial`: the dispatch failed partway; the handle holds what did start (a cancel stops it) and the wave is sent again. */
      handles: z.record(
        z.string(),
        z.object({ wave: z.number().int(), handle: z.record(z.string(), z.unknown()).nullable(), partial: z.boolean().optional() }),
      ),
      /**
       * Calls of polls that changed nothing, not yet in the audit log: carried with the run (so a
       * takeover keeps them) and written with the next progress entry — every request is audited,
       * without an entry per quiet poll.
       */
      quietCalls: z.array(z.record(z.string(), z.unknown())).default([]),
    })
    .optional(),
  /** An operator asked to cancel the run: no slice dispatches or starts anything more; whoever holds the run stops it. */
  cancelRequested: z.object({ actor: z.object({ id: z.string(), role: z.string() }), reason: z.string(), at: z.number() }).optional(),
  /** Each pair's progress as its orchestrator last reported it (by compositeKey(task, unit)). */
  progress: z
    .record(
      z.string(),
      z.object({ status: z.enum(["pending", "running", "succeeded", "failed"]), externalId: z.string().optional(), detail: z.string().optional() }),
    )
    .default({}),
});
export type RepairRunParams = z.infer<typeof RepairRunParamsSchema>;

export interface RepairRunRecord {
  id: string;
  status: RepairRunStatus;
  incidentId: string | null;
  repairNumber: number;
  rootRunId: string | null;
  parentRunId: string | null;
  startedAt: Date | null;
  endedAt: Date | null;
  createdAt: Date;
  params: RepairRunParams;
}

/** The row as stored: the status unchecked, the parameters as JSON text. */
type Row = Omit<RepairRunRecord, "status" | "params"> & { status: string; parameters: string };
const toRecord = (r: Row): RepairRunRecord => {
  if (!isRepairRunStatus(r.status)) throw new Error(`repair run ${r.id} has the status ${JSON.stringify(r.status)}, which no repair run can have`);
  return { ...r, status: r.status, params: RepairRunParamsSchema.parse(JSON.parse(r.parameters)) };
};

export async function createRepairRun(
  tx: Tx,
  data: {
    pipelineId: string | null;
    rootRunId: string | null;
    parentRunId: string | null;
    repairNumber: number;
    incidentId: string;
    triggeredBy: string;
    params: RepairRunParams;
    at: Date;
  },
): Promise<RepairRunRecord> {
  const row = await prismaOf(tx).run.create({
    data: {
      pipelineId: data.pipelineId,
      kind: "repair",
      status: "queued",
      rootRunId: data.rootRunId,
      parentRunId: data.parentRunId,
      repairNumber: data.repairNumber,
      incidentId: data.incidentId,
      parameters: JSON.stringify(data.params),
      triggeredBy: data.triggeredBy,
      codeVersion: "",
      nominalTime: null,
      createdAt: data.at,
    },
  });
  return toRecord(row);
}

export async function findRepairRun(db: Db | Tx, id: string): Promise<RepairRunRecord | null> {
  const row = await prismaOf(db).run.findUnique({ where: { id } });
  return row && row.kind === "repair" ? toRecord(row) : null;
}

export async function repairRunsOfIncident(db: Db | Tx, incidentId: string): Promise<RepairRunRecord[]> {
  const rows = await prismaOf(db).run.findMany({ where: { incidentId, kind: "repair" }, orderBy: { createdAt: "asc" } });
  return rows.map(toRecord);
}

export async function activeRepairRuns(db: Db): Promise<RepairRunRecord[]> {
  const rows = await prismaOf(db).run.findMany({ where: { kind: "repair", status: { in: [...ACTIVE_RUN_STATUSES] } } });
  return rows.map(toRecord);
}

export async function nextRepairNumber(tx: Tx, rootRunId: string | null, incidentId: string): Promise<number> {
  const n = await prismaOf(tx).run.count({ where: { kind: "repair", ...(rootRunId ? { rootRunId } : { incidentId }) } });
  return n + 1;
}

/** Locks the run's row until the transaction ends (PostgreSQL; a SQLite write transaction is exclusive already). */
export async function lockRun(tx: Tx, runId: string): Promise<void> {
  if (providerOf(tx) === "postgresql") await prismaOf(tx).$queryRawUnsafe(`SELECT "id" FROM "Run" WHERE "id" = $1 FOR UPDATE`, runId);
}

async function writeParams(tx: Tx, runId: string, params: RepairRunParams): Promise<void> {
  await prismaOf(tx).run.update({ where: { id: runId }, data: { parameters: JSON.stringify(params) } });
}

/** The slice's heartbeat: written only while that slice still owns the run. */
export async function heartbeat(db: Db, runId: string, slice: string, at: number): Promise<void> {
  await prismaOf(db).$transaction(async (tx) => {
    await lockRun(tx, runId);
    const run = await findRepairRun(tx, runId);
    if (!run || run.params.owner?.slice !== slice || !isActiveRun(run.status)) return;
    await writeParams(tx, runId, { ...run.params, heartbeatAt: at });
  });
}

/**
 * Writes the run's dispatch state and progress, only while `slice` owns it (under the run's
 * lock), so an audit entry written in the same transaction describes what really happened.
 */
export async function saveDispatchState(tx: Tx, runId: string, slice: string, state: Pick<RepairRunParams, "dispatch" | "progress">): Promise<boolean> {
  await lockRun(tx, runId);
  const run = await findRepairRun(tx, runId);
  if (!run || run.params.owner?.slice !== slice || !isActiveRun(run.status)) return false;
  await writeParams(tx, runId, { ...run.params, ...state });
  return true;
}

/** Whether this slice still owns the run and may go on (checked before each pair it starts or wave it sends): not once a cancel was asked for. */
export async function ownsRun(db: Db, runId: string, slice: string): Promise<boolean> {
  const run = await findRepairRun(db, runId);
  return run?.params.owner?.slice === slice && isActiveRun(run.status) && !run.params.cancelRequested;
}

/** Records a cancel request on a still-active run, under its lock; the run as it was, or null when it had ended. */
export async function requestCancel(tx: Tx, runId: string, request: NonNullable<RepairRunParams["cancelRequested"]>): Promise<RepairRunRecord | null> {
  await lockRun(tx, runId);
  const run = await findRepairRun(tx, runId);
  if (!run || !isActiveRun(run.status)) return null;
  await writeParams(tx, runId, { ...run.params, cancelRequested: run.params.cancelRequested ?? request });
  return run;
}

/**
 * Who runs the run now and when it was last touched; null releases it between slices. With
 * `ifOwnedBy`, only the slice that owns it may change it (a slice presumed dead changes nothing).
 */
export async function setRunOwner(
  tx: Tx,
  runId: string,
  owner: RepairRunParams["owner"] | null,
  at: number,
  ifOwnedBy?: string,
  extra: Partial<RepairRunParams> = {},
): Promise<boolean> {
  await lockRun(tx, runId);
  const run = await findRepairRun(tx, runId);
  if (!run) return false;
  if (ifOwnedBy !== undefined && run.params.owner?.slice !== ifOwnedBy) return false;
  const rest: RepairRunParams = { ...run.params, ...extra };
  delete rest.owner;
  await writeParams(tx, runId, { ...rest, ...(owner ? { owner } : {}), heartbeatAt: at });
  return true;
}

/**
 * Moves the run from one of `from` to `to` (the lifecycle's answer, asked by the caller), with
 * when it started or ended; false when it had left `from` meanwhile (compare-and-set).
 */
export async function transitionRun(
  tx: Db | Tx,
  id: string,
  from: readonly RepairRunStatus[],
  to: RepairRunStatus,
  at: { startedAt?: Date; endedAt?: Date },
): Promise<boolean> {
  const { count } = await prismaOf(tx).run.updateMany({ where: { id, kind: "repair", status: { in: [...from] } }, data: { status: to, ...at } });
  return count === 1;
}

/** Per (task node id, unit) the latest attempt of a run: its status, rows and error. */
export async function attemptsOfRun(
  db: Db | Tx,
  runId: string,
): Promise<{ taskNodeId: string; unitKey: string; status: string; rowsWritten: number | null; error: string | null; id: string; tryNumber: number }[]> {
  const rows = await prismaOf(db).attempt.findMany({
    where: { runId },
    orderBy: [{ tryNumber: "asc" }],
    select: { id: true, unitKey: true, status: true, rowsWritten: true, error: true, tryNumber: true, task: { select: { nodeId: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    taskNodeId: r.task.nodeId,
    unitKey: r.unitKey,
    status: r.status,
    rowsWritten: r.rowsWritten,
    error: r.error,
    tryNumber: r.tryNumber,
  }));
}

/** How an attempt its process never finished is marked (status failed, this error prefix). */
export const INTERRUPTED_ATTEMPT = "interrupted:";

/**
 * Attempts a dead process left `running`: failed, with the rows they really left in the
 * warehouse. One that appended rows says so — re-running it would add a second copy.
 */
export async function failOrphanedAttempts(tx: Tx, runId: string, at: Date): Promise<number> {
  const running = await prismaOf(tx).attempt.findMany({
    where: { runId, status: { in: ["running", "queued"] } },
    select: { id: true, taskId: true, unitKey: true, task: { select: { writeMode: true } } },
  });
  for (const a of running) {
    const rowsWritten = await prismaOf(tx).warehouseRow.count({ where: { attemptId: a.id } });
    const error = `${INTERRUPTED_ATTEMPT} the console process running this repair stopped during the attempt${a.task.writeMode === "append" && rowsWritten > 0 ? `; it had appended ${rowsWritten} rows, so the unit must be cleaned before it runs again` : ""}`;
    await prismaOf(tx).attempt.update({ where: { id: a.id }, data: { status: "failed", error, rowsWritten, endedAt: at } });
  }
  await recordUnitChanges(
    tx,
    running.map((a) => ({ taskId: a.taskId, unitKey: a.unitKey })),
    at,
  );
  return running.length;
}

/** Repair runs per status (metrics). */
export async function repairRunCounts(db: Db): Promise<Map<string, number>> {
  const rows = await prismaOf(db).run.groupBy({ by: ["status"], where: { kind: "repair" }, _count: { _all: true } });
  return new Map(rows.map((r) => [r.status, r._count._all]));
}

/** Who launched each of these runs, for which incident, as which repair. */
export async function runLaunchesByIds(
  db: Db | Tx,
  ids: readonly string[],
): Promise<{ id: string; incidentId: string | null; repairNumber: number; triggeredBy: string }[]> {
  if (ids.length === 0) return [];
  return prismaOf(db).run.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, incidentId: true, repairNumber: true, triggeredBy: true } });
}
