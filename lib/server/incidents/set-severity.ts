import type { SeverityLevel } from "@/lib/contracts/incidents";
import { ConflictError } from "@/lib/domain/errors";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { inTransaction, getDb, type Db } from "../repositories/database";
import { severityInForce, writeIncidentSeverity } from "../repositories/incidents/incidents";
import { assessSeverity } from "./assess-severity";
import { requireIncident } from "./require-incident";

/**
 * A person sets the incident's severity, with their reason (POST /api/v1/incidents/{id}/severity):
 * kept over every later computation — the closure's facts are shown beside it, never silently put
 * back. The write and its `incident.severity_set` entry commit together, and only on the basis
 * read (compare-and-set): two people setting it at once get one answer each, the second a 409.
 */
export async function setSeverity(id: string, body: { severity: SeverityLevel; reason: string }, actor: Actor, now = new Date(), db: Db = getDb()) {
  const incident = await requireIncident(db, id, "set_severity");
  // Before severities (older incidents) there is no computation to keep beside the choice: made now.
  const computed = incident.severity?.computed ?? (await assessSeverity(db, incident, now));
  const before = incident.severity;
  const basis = { computed, set: { level: body.severity, by: actor.id, reason: body.reason, at: now.toISOString() } };
  const entry = await inTransaction(db, async (tx) => {
    if (!(await writeIncidentSeverity(tx, id, before, basis)))
      throw new ConflictError(`incident ${id} changed meanwhile (closed, or its severity set); reload it`);
    return appendAudit(
      tx,
      {
        kind: "incident.severity_set",
        actor: actor.id,
        actorRole: actor.role,
        reason: body.reason,
        incidentId: id,
        before: { level: before ? severityInForce(before) : null, source: before ? (before.set ? "set" : "computed") : null },
        after: { level: body.severity, source: "set", computed: computed.level },
      },
      now,
    );
  });
  return { ok: true as const, auditSeq: entry.seq };
}
