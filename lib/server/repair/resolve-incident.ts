import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { RefusedError } from "@/lib/domain/errors";
import { requireIncident } from "../incidents/require-incident";
import { moveIncident } from "../incidents/move-incident";
import { validateIncident } from "./validate-incident";
import { counted } from "@/lib/domain/words";

/**
 * Resolves an incident: only when validation passes now (recomputed here, not trusted from the
 * client). The passing validation and the resolution are both recorded.
 */
export async function resolveIncident(id: string, reason: string, actor: Actor, now = new Date(), db: Db = getDb()) {
  const incident = await requireIncident(db, id, "resolve");
  const v = await validateIncident(id, now, db);
  if (!v.passed) {
    const failing = v.units.filter((u) => !u.passed && !u.mark).map((u) => `${u.name} ${u.unitKey}: ${u.failures.join("; ")}`);
    throw new RefusedError(
      `cannot resolve while validation fails (${counted(failing.length, "unit")}): ${failing.slice(0, 5).join(" | ")}. A commander may override with a reason.`,
      { failing },
    );
  }
  const entry = await inTransaction(db, async (tx) => {
    await moveIncident(tx, incident, "resolve", { resolvedAt: now, closedReason: reason });
    await appendAudit(
      tx,
      {
        kind: "validation.passed",
        actor: actor.id,
        actorRole: actor.role,
        reason: `${counted(v.units.length, "unit")} validated: in the ledger, published once, reconciled, not stale`,
        incidentId: id,
        targets: targetsOf(v.units),
        before: { status: incident.status },
        after: { status: "validating", units: v.units.length },
      },
      now,
    );
    return appendAudit(
      tx,
      {
        kind: "incident.resolved",
        actor: actor.id,
        actorRole: actor.role,
        reason,
        incidentId: id,
        targets: incident.failedPairs,
        before: { status: incident.status },
        after: { status: "resolved" },
      },
      now,
    );
  });
  return { ok: true as const, auditSeq: entry.seq };
}

export function targetsOf(units: { datasetNodeId: string; unitKey: string }[]) {
  const by = new Map<string, string[]>();
  for (const u of units) by.set(u.datasetNodeId, [...(by.get(u.datasetNodeId) ?? []), u.unitKey]);
  return [...by].map(([nodeId, keys]) => ({ nodeId, units: keys }));
}
