import type { IncidentSummary, OpenIncidentRequest } from "@/lib/contracts/incidents";
import { parseNodeId } from "@/lib/domain/ids";
import { keysOf, type PartitionSpace } from "@/lib/domain/partitions";
import { UnitSet } from "@/lib/domain/unit-set";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { InvalidFieldError } from "@/lib/domain/errors";
import { listTasks } from "../repositories/catalog/catalog-reads";
import { createIncident, originRunOf } from "../repositories/incidents/incidents";
import { loadRepairContext } from "../repair/load-repair-context";
import { toSummary } from "./to-summary";

const MAX_UNITS = 2000;

/** A key, or an inclusive range "from..to" (as the lineage and matrix links write them), validated. */
function expandEntry(space: PartitionSpace, entry: string, field: string, task: string): string[] {
  const [from, to] = entry.includes("..") ? (entry.split("..", 2).map((k) => k.trim()) as [string, string]) : [entry, entry];
  const [a, z] = [space.validate(from), space.validate(to)];
  if (!a.valid) throw new InvalidFieldError(field, `"${from}" is not a unit of ${task}: ${a.reason}`);
  if (!z.valid) throw new InvalidFieldError(field, `"${to}" is not a unit of ${task}: ${z.reason}`);
  if (z.ordinal < a.ordinal) throw new InvalidFieldError(field, `"${entry}" ends before it starts`);
  if (z.ordinal - a.ordinal >= MAX_UNITS) throw new InvalidFieldError(field, `"${entry}" spans more than ${MAX_UNITS} units`);
  return [...keysOf(space, UnitSet.range(a.ordinal, z.ordinal))];
}

/**
 * Opens an incident for failed (task, unit) pairs: from a failure on the overview, lineage or
 * units matrix, or by hand. Keys are validated against the task's partition definition (an
 * invalid key is a 400 naming it, seed 002); the origin run is the run the units last failed in.
 */
export async function openIncident(req: OpenIncidentRequest, actor: Actor, now = new Date(), db: Db = getDb()): Promise<IncidentSummary> {
  const task = (await listTasks(db)).find((t) => t.nodeId === req.taskNodeId);
  if (!task) throw new InvalidFieldError("body.taskNodeId", `no task ${req.taskNodeId} in the lineage`);
  const ctx = await loadRepairContext(db, now);
  const node = ctx.graph.nodes[ctx.graph.index.get(req.taskNodeId as never) ?? -1];
  if (!node) throw new InvalidFieldError("body.taskNodeId", `${req.taskNodeId} is not in the current lineage`);
  const keys = [...new Set(req.units.flatMap((entry, i) => expandEntry(node.space, entry, `body.units.${i}`, req.taskNodeId)))];
  if (keys.length > MAX_UNITS) throw new InvalidFieldError("body.units", `${keys.length} units: open at most ${MAX_UNITS} per incident`);
  const origin = await originRunOf(db, task.id, keys);
  const name = parseNodeId(req.taskNodeId)?.name ?? req.taskNodeId;
  const title = req.title?.trim() || `${name} ${keys.length === 1 ? keys[0] : `${keys.length} units`} failed`;
  const failedPairs = [{ nodeId: req.taskNodeId, units: keys }];
  const incident = await inTransaction(db, async (tx) => {
    const created = await createIncident(tx, {
      title,
      pipelineId: origin?.pipelineId ?? null,
      originRunId: origin?.id ?? null,
      failedPairs,
      openedBy: actor.id,
      detectedAt: origin?.startedAt ?? now,
      openedAt: now,
    });
    await appendAudit(
      tx,
      {
        kind: "incident.opened",
        actor: actor.id,
        actorRole: actor.role,
        reason: req.reason,
        incidentId: created.id,
        targets: failedPairs,
        before: null,
        after: { status: "open", title, failedPairs },
      },
      now,
    );
    return created;
  });
  return toSummary(incident, 0);
}
