import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { RefusedError } from "@/lib/domain/errors";
import { validateIncident } from "../repair/validate-incident";
import { moveIncident } from "./move-incident";
import { requireIncident } from "./require-incident";
import { targetsOf } from "./resolve-incident";

/** Resolves despite failing validation: a commander's reasoned override, itself an intervention. */
export async function overrideValidation(id: string, reason: string, actor: Actor, now = new Date(), db: Db = getDb()) {
  const incident = await requireIncident(db, id, "override_validation");
  const v = await validateIncident(id, now, db);
  const failing = v.units.filter((u) => !u.passed && !u.mark);
  if (failing.length === 0) throw new RefusedError("validation passes: resolve the incident instead of overriding");
  const entry = await inTransaction(db, async (tx) => {
    await moveIncident(tx, incident, "override_validation", { resolvedAt: now, closedReason: `validation overridden: ${reason}` });
    return appendAudit(
      tx,
      {
        kind: "validation.overridden",
        actor: actor.id,
        actorRole: actor.role,
        reason,
        incidentId: id,
        targets: targetsOf(failing),
        before: { failedUnits: failing.map((u) => `${u.name} ${u.unitKey}`) },
        after: { status: "resolved" },
      },
      now,
    );
  });
  return { ok: true as const, auditSeq: entry.seq };
}
