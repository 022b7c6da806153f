import { compositeKey } from "@/lib/domain/composite-key";
import type { Db, Tx } from "../database";
import { recordUnitChanges } from "../units/unit-changes";
import { prismaOf } from "../prisma-handle";

/**
 * What the local executor (lib/server/executor) records as it runs: its runs, each try of a
 * (task, unit), the publishes, the source counts and the external deliveries of side-effecting
 * tasks. Each write that changes a unit's state records the unit change in the same transaction.
 */
export interface NewExecutorRun {
  pipelineId: string | null;
  kind: string;
  rootRunId: string | null;
  parentRunId: string | null;
  repairNumber: number;
  incidentId: string | null;
  parameters: Record<string, unknown>;
  codeVersion: string;
  triggeredBy: string;
  nominalTime: Date | null;
  startedAt: Date;
}

/** A run the executor starts: status `running` until finishExecutorRun. */
export async function createExecutorRun(tx: Tx, run: NewExecutorRun): Promise<{ id: string }> {
  return prismaOf(tx).run.create({ data: { ...run, status: "running", parameters: JSON.stringify(run.parameters) }, select: { id: true } });
}

export async function finishExecutorRun(tx: Tx, runId: string, status: string, endedAt: Date): Promise<void> {
  await prismaOf(tx).run.update({ where: { id: runId }, data: { status, endedAt } });
}

/** A try that starts now: `running`, its unit changed. */
export async function startAttempt(
  tx: Tx,
  a: { runId: string; taskId: string; unitKey: string; tryNumber: number; codeVersion: string; startedAt: Date },
): Promise<{ id: string }> {
  const created = await prismaOf(tx).attempt.create({ data: { ...a, status: "running" }, select: { id: true } });
  await recordUnitChanges(tx, [{ taskId: a.taskId, unitKey: a.unitKey }], a.startedAt);
  return created;
}

export async function failAttempt(
  tx: Tx,
  a: { id: string; taskId: string; unitKey: string; error: string; rowsWritten: number; endedAt: Date },
): Promise<void> {
  await prismaOf(tx).attempt.update({ where: { id: a.id }, data: { status: "failed", error: a.error, rowsWritten: a.rowsWritten, endedAt: a.endedAt } });
  await recordUnitChanges(tx, [{ taskId: a.taskId, unitKey: a.unitKey }]);
}

/** A pair that never ran because what it reads is not available: upstream_failed, no start, no rows. */
export async function recordBlockedTry(
  tx: Tx,
  a: { runId: string; taskId: string; unitKey: string; tryNumber: number; error: string; endedAt: Date },
): Promise<void> {
  await prismaOf(tx).attempt.create({ data: { ...a, status: "upstream_failed" } });
  await recordUnitChanges(tx, [{ taskId: a.taskId, unitKey: a.unitKey }], a.endedAt);
}

/** Only a running attempt may succeed; false when it no longer runs (taken over and failed meanwhile). */
export async function succeedRunningAttempt(tx: Tx, id: string, rowsWritten: number, endedAt: Date): Promise<boolean> {
  const { count } = await prismaOf(tx).attempt.updateMany({ where: { id, status: "running" }, data: { status: "succeeded", rowsWritten, endedAt } });
  return count === 1;
}

export interface ExecutorPublish {
  datasetId: string;
  taskId: string;
  unitKey: string;
  runId: string;
  attemptId: string;
  publishedAt: Date;
  inputVersion: string;
  codeVersion: string;
  rowCount: number;
}

/** The ledger row of a successful write; the task's and the dataset's unit both changed. */
export async function recordExecutorPublish(tx: Tx, p: ExecutorPublish): Promise<void> {
  const { taskId, ...row } = p;
  await prismaOf(tx).publish.create({ data: row });
  await recordUnitChanges(
    tx,
    [
      { taskId, unitKey: p.unitKey },
      { datasetId: p.datasetId, unitKey: p.unitKey },
    ],
    p.publishedAt,
  );
}

/** The source's own row count for a unit of each dataset (latest wins). */
export async function recordSourceCounts(
  tx: Tx,
  datasetIds: readonly string[],
  c: { unitKey: string; rowCount: number; measuredAt: Date; source: string },
): Promise<void> {
  for (const datasetId of datasetIds) {
    await prismaOf(tx).sourceCount.upsert({
      where: { datasetId_unitKey: { datasetId, unitKey: c.unitKey } },
      create: { datasetId, unitKey: c.unitKey, rowCount: c.rowCount, measuredAt: c.measuredAt, source: c.source },
      update: { rowCount: c.rowCount, measuredAt: c.measuredAt, source: c.source },
    });
  }
  await recordUnitChanges(
    tx,
    datasetIds.map((datasetId) => ({ datasetId, unitKey: c.unitKey })),
    c.measuredAt,
  );
}

/** Records a delivery once per (task, idempotency key): false when that key was delivered already. */
export async function recordDeliveryOnce(
  tx: Tx,
  d: { taskId: string; unitKey: string; runId: string; idempotencyKey: string; destination: string; payload: unknown; sentAt: Date },
): Promise<boolean> {
  const existing = await prismaOf(tx).externalDelivery.findUnique({
    where: { taskId_idempotencyKey: { taskId: d.taskId, idempotencyKey: d.idempotencyKey } },
    select: { id: true },
  });
  if (existing) return false;
  await prismaOf(tx).externalDelivery.create({ data: { ...d, payload: JSON.stringify(d.payload) } });
  return true;
}

/** Keys a partition definition rejected, with its reason; a key reported again takes the latest report. */
export async function upsertInvalidKeys(
  tx: Tx,
  keys: readonly { nodeId: string; unitKey: string; reason: string }[],
  r: { source: string; runId: string | null; observedAt: Date },
): Promise<void> {
  for (const k of keys) {
    await prismaOf(tx).invalidKey.upsert({
      where: { nodeId_unitKey: { nodeId: k.nodeId, unitKey: k.unitKey } },
      create: { nodeId: k.nodeId, unitKey: k.unitKey, reason: k.reason, source: r.source, runId: r.runId, observedAt: r.observedAt },
      update: { reason: k.reason, source: r.source, runId: r.runId, observedAt: r.observedAt },
    });
  }
}

/** How many times each (dataset id, unit) was published, keyed by compositeKey(datasetId, unitKey). */
export async function publishCounts(db: Db | Tx, units: readonly { datasetId: string; unitKeys: readonly string[] }[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const wanted = units.filter((u) => u.unitKeys.length > 0);
  if (wanted.length === 0) return out;
  const rows = await prismaOf(db).publish.findMany({
    where: { OR: wanted.map((u) => ({ datasetId: u.datasetId, unitKey: { in: [...u.unitKeys] } })) },
    select: { datasetId: true, unitKey: true },
  });
  for (const p of rows) {
    const key = compositeKey(p.datasetId, p.unitKey);
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}
