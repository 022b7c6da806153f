import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { InvalidFieldError, RefusedError } from "@/lib/domain/errors";
import { requireIncident } from "../incidents/require-incident";
import { listTasks } from "../repositories/lineage/catalog-reads";
import { recordTaskFacts } from "../repositories/lineage/catalog-writes";

/**
 * Declares a task fixed to replace its unit (its code now overwrites instead of appending): a
 * configuration change recorded with its reason; from now on the executor replaces the unit.
 */
export async function declareReplace(id: string, body: { taskNodeId: string; reason: string }, actor: Actor, now = new Date(), db: Db = getDb()) {
  await requireIncident(db, id, "declare_replace");
  const task = (await listTasks(db)).find((t) => t.nodeId === body.taskNodeId);
  if (!task) throw new InvalidFieldError("body.taskNodeId", `no task ${body.taskNodeId}`);
  if (task.writeMode === "replace") throw new RefusedError(`${task.name} already replaces its unit`);
  const entry = await inTransaction(db, async (tx) => {
    await recordTaskFacts(tx, [{ taskId: task.id, facts: { writeMode: "replace" }, source: "declared" }]);
    return appendAudit(
      tx,
      {
        kind: "task.declared_replace",
        actor: actor.id,
        actorRole: actor.role,
        reason: body.reason,
        incidentId: id,
        targets: [{ nodeId: task.nodeId, units: [] }],
        before: { writeMode: task.writeMode },
        after: { writeMode: "replace" },
      },
      now,
    );
  });
  return { ok: true as const, auditSeq: entry.seq };
}
