import type { AuditTarget } from "@/lib/contracts/audit";
import { planRepair } from "@/lib/domain/repair-planner";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { supersedeConfirmedPlans } from "../repositories/repair/repair-plans";
import { InvalidFieldError } from "@/lib/domain/errors";
import { requireIncident } from "../incidents/require-incident";
import { moveIncident } from "../incidents/move-incident";
import { assessSeverity } from "../incidents/assess-severity";
import { writeIncidentSeverity } from "../repositories/incidents/incidents";
import { incidentTargets } from "./incident-targets";
import { loadRepairContext } from "./load-repair-context";

/**
 * Confirms the scope (optionally adding related failures the closure waits on): the failed
 * pairs and the closure's size are recorded, and the incident is scoped. Re-scoping a planned
 * incident sends it back to scoped: its plan must be confirmed again for the new scope.
 * The severity is computed again for the new closure; a level a person set stays in force (the
 * new computation is kept beside it).
 */
export async function recordScope(
  id: string,
  body: { reason: string; addPairs: { taskNodeId: string; units: string[] }[] },
  actor: Actor,
  now = new Date(),
  db: Db = getDb(),
) {
  const incident = await requireIncident(db, id, "scope");
  const ctx = await loadRepairContext(db, now);
  const failedPairs: AuditTarget[] = incident.failedPairs.map((p) => ({ nodeId: p.nodeId, units: [...p.units] }));
  body.addPairs.forEach((add, i) => {
    const node = ctx.graph.nodes[ctx.graph.index.get(add.taskNodeId as never) ?? -1];
    if (!node || node.nodeKind !== "task") throw new InvalidFieldError(`body.addPairs.${i}.taskNodeId`, `no task ${add.taskNodeId} in the lineage`);
    add.units.forEach((k, j) => {
      const v = node.space.validate(k);
      if (!v.valid) throw new InvalidFieldError(`body.addPairs.${i}.units.${j}`, `"${k}" is not a unit of ${add.taskNodeId}: ${v.reason}`);
    });
    const existing = failedPairs.find((p) => p.nodeId === add.taskNodeId);
    if (existing) existing.units = [...new Set([...existing.units, ...add.units])];
    else failedPairs.push({ nodeId: add.taskNodeId, units: [...new Set(add.units)] });
  });
  const { scope } = planRepair({ graph: ctx.graph, targets: incidentTargets({ failedPairs }), ledger: ctx.ledger });
  const computed = await assessSeverity(db, { failedPairs, detectedAt: incident.detectedAt }, now, ctx);
  const person = incident.severity?.set ?? null;
  const entry = await inTransaction(db, async (tx) => {
    await moveIncident(tx, incident, "scope", { failedPairs, closure: { pairCount: scope.taskPairCount, taskWaves: scope.taskWaves } });
    // Compare-and-set on the basis read: a level a person sets meanwhile is theirs, and stays.
    const recomputed = await writeIncidentSeverity(tx, id, incident.severity, { computed, set: person });
    if (incident.status === "planned") await supersedeConfirmedPlans(tx, id);
    return appendAudit(
      tx,
      {
        kind: "incident.scoped",
        actor: actor.id,
        actorRole: actor.role,
        reason: body.reason,
        incidentId: id,
        targets: failedPairs,
        before: { status: incident.status },
        after: {
          status: "scoped",
          pairCount: scope.taskPairCount,
          failedPairs,
          ...(recomputed && !person ? { severity: { level: computed.level, reasons: computed.reasons } } : {}),
        },
      },
      now,
    );
  });
  return { ok: true as const, auditSeq: entry.seq };
}
