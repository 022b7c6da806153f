import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { getDb, type Db } from "../db/client";
import { BadRequestError, UnprocessableError } from "../http/errors";
import { ACTIVE, requireIncident } from "../incidents/require-incident";
import { listDatasets, listEdgesAt, listTasks } from "../repositories/catalog";
import { claimHolders } from "../repositories/repair-claims";
import { createUnitMarks, deleteUnitRows } from "../repositories/unit-interventions";
import { ConflictError } from "../http/errors";

/**
 * Cleans an appended unit before its repair (seed 001: "deduplicate the interval now"): every
 * row of the unit the append task writes is REALLY deleted from the warehouse, so the repair's
 * append leaves exactly one copy. The deletion, the audit entry (rows before → after) and the
 * "cleaned" mark the unit-state rules read commit in one transaction.
 */
export async function cleanUnit(id: string, body: { taskNodeId: string; unitKey: string; reason: string }, actor: Actor, now = new Date(), db: Db = getDb()) {
  await requireIncident(db, id, ACTIVE);
  const task = (await listTasks(db)).find((t) => t.nodeId === body.taskNodeId);
  if (!task) throw new BadRequestError("body.taskNodeId", `no task ${body.taskNodeId}`);
  if (task.writeMode !== "append") throw new UnprocessableError(`${task.name} ${task.writeMode ? `${task.writeMode}s its unit` : "declares no write mode"}: cleaning is for append tasks, whose re-run would add a second copy`);
  const write = (await listEdgesAt(db, now)).find((e) => e.taskId === task.id && e.direction === "write");
  const dataset = write && (await listDatasets(db)).find((d) => d.id === write.datasetId);
  if (!dataset) throw new UnprocessableError(`${task.name} writes no dataset`);
  const holders = await claimHolders(db, [{ taskId: task.id, unitKey: body.unitKey }]);
  if (holders.length > 0) throw new ConflictError(`${task.name} ${body.unitKey} is being repaired by repair #${holders[0]!.repairNumber} (run ${holders[0]!.runId}); wait for it to finish`);
  const result = await db.$transaction(async (tx) => {
    const removed = await deleteUnitRows(tx, dataset.id, body.unitKey);
    const entry = await appendAudit(tx, {
      kind: "unit.deduplicated", actor: actor.id, actorRole: actor.role, reason: body.reason, incidentId: id,
      targets: [{ nodeId: dataset.nodeId, units: [body.unitKey] }], before: { rows: removed }, after: { rows: 0 },
    }, now);
    await createUnitMarks(tx, dataset.id, [body.unitKey], "cleaned", body.reason, entry.seq, now);
    return { removed, seq: entry.seq };
  });
  return { ok: true as const, auditSeq: result.seq, rowsRemoved: result.removed };
}
