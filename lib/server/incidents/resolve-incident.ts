import type { Actor } from "../auth/roles";
import type { AuditDraft } from "@/lib/contracts/audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { RefusedError } from "@/lib/domain/errors";
import { validateIncident } from "../repair/validate-incident";
import { endIncident } from "./end-incident";
import { requireIncident } from "./require-incident";
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
  const validated: AuditDraft = {
    kind: "validation.passed",
    actor: actor.id,
    actorRole: actor.role,
    reason: `${counted(v.units.length, "unit")} validated: in the ledger, published once, reconciled, not stale`,
    incidentId: id,
    targets: targetsOf(v.units),
    before: { status: incident.status },
    after: { status: "validating", units: v.units.length },
  };
  const entry = await inTransaction(db, (tx) => endIncident(tx, incident, "resolve", reason, actor, now, [validated]));
  return { ok: true as const, auditSeq: entry.seq };
}

export function targetsOf(units: { datasetNodeId: string; unitKey: string }[]) {
  const by = new Map<string, string[]>();
  for (const u of units) by.set(u.datasetNodeId, [...(by.get(u.datasetNodeId) ?? []), u.unitKey]);
  return [...by].map(([nodeId, keys]) => ({ nodeId, units: keys }));
}
