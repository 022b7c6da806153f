import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { getDb, type Db } from "../db/client";
import { ConflictError, UnprocessableError } from "../http/errors";
import { requireIncident } from "../incidents/require-incident";
import { transitionIncident } from "../repositories/incidents";
import { targetsOf } from "./resolve-incident";
import { validateIncident } from "./validate-incident";

const FROM = ["validating"] as const;

/** Resolves despite failing validation: a commander's reasoned override, itself an intervention. */
export async function overrideValidation(id: string, reason: string, actor: Actor, now = new Date(), db: Db = getDb()) {
  await requireIncident(db, id, FROM);
  const v = await validateIncident(id, now, db);
  const failing = v.units.filter((u) => !u.passed && !u.mark);
  if (failing.length === 0) throw new UnprocessableError("validation passes: resolve the incident instead of overriding");
  const entry = await db.$transaction(async (tx) => {
    if (!(await transitionIncident(tx, id, FROM, "resolved", { resolvedAt: now, closedReason: `validation overridden: ${reason}` }))) throw new ConflictError(`incident ${id} changed state meanwhile`);
    return appendAudit(tx, { kind: "validation.overridden", actor: actor.id, actorRole: actor.role, reason, incidentId: id, targets: targetsOf(failing), before: { failedUnits: failing.map((u) => `${u.name} ${u.unitKey}`) }, after: { status: "resolved" } }, now);
  });
  return { ok: true as const, auditSeq: entry.seq };
}

