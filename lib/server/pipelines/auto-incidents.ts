import type { AutoIncidentsView, PutAutoIncidentsBody } from "@/lib/contracts/auto-incidents";
import { ForbiddenError, NotFoundError, RefusedError } from "@/lib/domain/errors";
import { holdsIn, type Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { getDb, inTransaction, type Db } from "../repositories/database";
import { autoIncidentsOf, findPipeline, setAutoIncidents, type PipelineRecord } from "../repositories/pipelines/orchestrator-connections";

async function requirePipeline(db: Db, idOrName: string): Promise<PipelineRecord> {
  const found = await findPipeline(db, idOrName);
  if (found === "ambiguous")
    throw new RefusedError(`several pipelines are named ${idOrName}: name it as <namespace>/<name>, or by its id (GET /api/v1/pipelines)`);
  if (!found) throw new NotFoundError(`no pipeline ${idOrName}`);
  return found;
}

/** GET /api/v1/pipelines/{id}/auto-incidents: whether its alert groups open incidents by themselves. */
export async function getAutoIncidents(idOrName: string, db: Db = getDb()): Promise<AutoIncidentsView> {
  const p = await requirePipeline(db, idOrName);
  return { pipelineId: p.id, pipeline: p.name, enabled: await autoIncidentsOf(db, p.id) };
}

/** PUT …/auto-incidents: turned on or off with a reason; the change and its audit entry in one transaction. */
export async function putAutoIncidents(
  idOrName: string,
  body: PutAutoIncidentsBody,
  actor: Actor,
  now = new Date(),
  db: Db = getDb(),
): Promise<AutoIncidentsView> {
  const p = await requirePipeline(db, idOrName);
  // A commander limited to some namespaces turns it on only for pipelines of theirs.
  if (!holdsIn(actor, p.namespace))
    throw new ForbiddenError(`${actor.id} holds the commander role in ${actor.namespaces.join(", ")} only: pipeline ${p.name} is in namespace ${p.namespace}`);
  await inTransaction(db, async (tx) => {
    const before = await autoIncidentsOf(tx, p.id);
    await setAutoIncidents(tx, p.id, body.enabled);
    await appendAudit(
      tx,
      {
        kind: "pipeline.auto_incidents_set",
        actor: actor.id,
        actorRole: actor.role,
        reason: body.reason,
        before: { pipeline: p.name, enabled: before },
        after: { pipeline: p.name, enabled: body.enabled },
      },
      now,
    );
  });
  return { pipelineId: p.id, pipeline: p.name, enabled: body.enabled };
}
