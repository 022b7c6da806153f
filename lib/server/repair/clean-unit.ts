import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { getDb, type Db } from "../repositories/database";
import { InvalidFieldError, RefusedError } from "@/lib/domain/errors";
import { requireIncident } from "../incidents/require-incident";
import { listDatasets, listEdgesAt, listTasks } from "../repositories/lineage/catalog-reads";
import { claimHolders } from "../repositories/repair/repair-claims";
import { clearUnitMarksOfEntry, createUnitMarks } from "../repositories/repair/unit-interventions";
import { ConflictError } from "@/lib/domain/errors";
import { unitRows, warehouseFor } from "../warehouses/warehouse-for";

/**
 * Cleans an appended unit before its repair (seed 001: "deduplicate the interval now"): every
 * row of the unit the append task writes is REALLY deleted from the warehouse its dataset's
 * namespace is connected to (the warehouse port), counted before and after in the same
 * warehouse transaction, so the repair's append leaves exactly one copy. The audit entry (rows
 * before → after, the statement) and the "cleaned" mark the unit-state rules read commit
 * together, and the warehouse commits only once they did. A dataset whose warehouse is not
 * connected cannot be cleaned from here: the console never records a cleaning it did not see.
 */
export async function cleanUnit(id: string, body: { taskNodeId: string; unitKey: string; reason: string }, actor: Actor, now = new Date(), db: Db = getDb()) {
  const { task, dataset } = await appendTarget(db, id, body.taskNodeId, now);
  await refuseIfClaimed(db, task, [body.unitKey]);
  const warehouse = await warehouseFor(db, dataset);
  if (!warehouse) {
    throw new RefusedError(
      `${dataset.name}'s rows live in ${dataset.namespace}, which has no warehouse connection: an admin connects it (PUT /api/v1/warehouses/${encodeURIComponent(dataset.namespace)}) so Reparo can delete and count the unit's rows — or clean the unit there yourself, declare it cleaned (POST …/declare-cleaned) and send a count of its rows (POST /api/v1/warehouse-counts), or declare ${task.name} fixed to replace once it overwrites its unit`,
    );
  }
  const unit = unitRows(dataset, body.unitKey, now);
  const statement = warehouse.statement(unit);
  if ("unsupported" in statement) throw new RefusedError(`cannot clean ${dataset.name} ${body.unitKey}: ${statement.unsupported}`);
  const result = await warehouse.clean(
    db,
    unit,
    async (tx, measured) => {
      const entry = await appendAudit(
        tx,
        {
          kind: "unit.deduplicated",
          actor: actor.id,
          actorRole: actor.role,
          reason: body.reason,
          incidentId: id,
          targets: [{ nodeId: dataset.nodeId, units: [body.unitKey] }],
          before: { rows: measured.before },
          after: { rows: measured.after, warehouse: warehouse.kind, statement: statement.sql, params: [...statement.params] },
        },
        now,
      );
      await createUnitMarks(tx, dataset.id, [body.unitKey], "cleaned", body.reason, entry.seq, now);
      return { removed: measured.before - measured.after, seq: entry.seq, rowsAfter: measured.after, rowsBefore: measured.before };
    },
    async (tx, recorded, error) => {
      // The warehouse did not commit the delete: the mark is withdrawn and the log says why.
      await clearUnitMarksOfEntry(tx, recorded.seq, new Date());
      await appendAudit(
        tx,
        {
          kind: "unit.clean_failed",
          actor: actor.id,
          actorRole: actor.role,
          reason: `the warehouse did not commit the delete of entry ${recorded.seq}: ${error.message.slice(0, 300)}`,
          incidentId: id,
          targets: [{ nodeId: dataset.nodeId, units: [body.unitKey] }],
          before: { rows: recorded.rowsBefore },
          after: { rows: recorded.rowsBefore },
        },
        new Date(),
      );
    },
  );
  return {
    ok: true as const,
    auditSeq: result.seq,
    rowsRemoved: result.removed,
    rowsAfter: result.rowsAfter,
    warehouse: warehouse.kind,
    statement: statement.sql,
  };
}

/** The append task an intervention on its units concerns, and the dataset it writes: refused (4xx) unless the lifecycle allows `action` now and the task appends. */
export async function appendTarget(db: Db, id: string, taskNodeId: string, now: Date, action: "clean_unit" | "declare_cleaned" = "clean_unit") {
  await requireIncident(db, id, action);
  const task = (await listTasks(db)).find((t) => t.nodeId === taskNodeId);
  if (!task) throw new InvalidFieldError("body.taskNodeId", `no task ${taskNodeId}`);
  if (task.writeMode !== "append")
    throw new RefusedError(
      `${task.name} ${task.writeMode ? `${task.writeMode}s its unit` : "declares no write mode"}: cleaning is for append tasks, whose re-run would add a second copy`,
    );
  const write = (await listEdgesAt(db, now)).find((e) => e.taskId === task.id && e.direction === "write");
  const dataset = write && (await listDatasets(db)).find((d) => d.id === write.datasetId);
  if (!dataset) throw new RefusedError(`${task.name} writes no dataset`);
  return { task, dataset };
}

/** Refused (409) while a repair holds any of the task's units: wait for it to finish. */
export async function refuseIfClaimed(db: Db, task: { id: string; name: string }, unitKeys: readonly string[]): Promise<void> {
  const holders = await claimHolders(
    db,
    unitKeys.map((unitKey) => ({ taskId: task.id, unitKey })),
  );
  if (holders.length > 0)
    throw new ConflictError(
      `${task.name} ${holders[0]!.unitKey} is being repaired by repair #${holders[0]!.repairNumber} (run ${holders[0]!.runId}); wait for it to finish`,
    );
}
