import type { TaskPropertiesPut, TaskPropertiesResult } from "@/lib/contracts/ingestion-catalog";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { saveTaskProperties, taskProperties, type TaskProperties } from "../repositories/lineage/declared-properties";
import { findOrDeclareNode } from "./find-node";
import { TASK_FACTS } from "@/lib/domain/fact-sources";

/**
 * Sets a task's repair-safety properties (write mode, side effect, dependsOnOwnPast, publish
 * mode, owner): the planner trusts them, so the change and its audit entry (before → after)
 * commit together. Sending what is already stored changes nothing and records nothing.
 */
export async function setTaskProperties(id: string, body: TaskPropertiesPut, actor: Actor, db: Db = getDb(), now = new Date()): Promise<TaskPropertiesResult> {
  return inTransaction(db, async (tx) => {
    const task = await findOrDeclareNode(tx, "job", id);
    const before = await taskProperties(tx, task.id);
    const after: TaskProperties = { ...before };
    for (const name of TASK_FACTS) if (body[name] !== undefined) (after as Record<string, unknown>)[name] = body[name];
    const changed = TASK_FACTS.some((n) => before[n] !== after[n]);
    let auditSeq: number | null = null;
    if (changed) {
      await saveTaskProperties(
        tx,
        task.id,
        after,
        TASK_FACTS.filter((n) => body[n] !== undefined),
      );
      const entry = await appendAudit(
        tx,
        {
          kind: "task.properties_changed",
          actor: actor.id,
          actorRole: actor.role,
          reason: body.reason,
          targets: [{ nodeId: task.nodeId, units: [] }],
          before,
          after,
        },
        now,
      );
      auditSeq = entry.seq;
    }
    return { nodeId: task.nodeId, changed, before, after, auditSeq };
  });
}
