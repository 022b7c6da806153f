import { nodeName, type NodeId } from "@/lib/domain/ids";
import type { OrchestratorConnection, OrchestratorConnectionView } from "@/lib/contracts/orchestrators";
import type { Actor } from "../auth/roles";
import { appendAudit } from "../audit/append-audit";
import { getDb, type Db } from "../repositories/database";
import { inOneTransaction } from "../ingestion/in-one-transaction";
import { NotFoundError, RefusedError } from "@/lib/domain/errors";
import { localOrchestrator } from "../orchestrators/local";
import { createDagsterPipeline, dagsterPipelineRef } from "../sources/dagster/dagster-pipeline";
import { requireAllowedSecret, secretName, secretReadable } from "../orchestrators/secrets";
import { hasRole } from "../auth/roles";
import { originOnly } from "../http/redact";
import { listTasks } from "../repositories/lineage/catalog-reads";
import {
  findConnection,
  findPipeline,
  listConnections,
  listPipelines,
  saveConnection,
  type PipelineRecord,
} from "../repositories/pipelines/orchestrator-connections";

async function lookupPipeline(db: Db, idOrName: string): Promise<PipelineRecord | null> {
  const found = await findPipeline(db, idOrName);
  if (found === "ambiguous")
    throw new RefusedError(`several pipelines are named ${idOrName}: name it as <namespace>/<name>, or by its id (GET /api/v1/pipelines)`);
  return found;
}

async function requirePipeline(db: Db, idOrName: string): Promise<PipelineRecord> {
  const found = await lookupPipeline(db, idOrName);
  if (!found) throw new NotFoundError(`no pipeline ${idOrName}`);
  return found;
}

/**
 * A connection as its reader may see it: an admin sees it whole, with whether its secret can be
 * read now; anyone else sees the orchestrator's scheme and host only (a path can carry a token,
 * as webhook paths do) and not whether a named file exists on the console's machine.
 */
async function view(
  pipeline: PipelineRecord,
  stored: Awaited<ReturnType<typeof findConnection>>,
  reader: Pick<Actor, "role">,
): Promise<OrchestratorConnectionView> {
  const admin = hasRole(reader, "admin");
  const whole: OrchestratorConnection = stored?.connection ?? { kind: "none" };
  const connection = !admin && "baseUrl" in whole ? { ...whole, baseUrl: originOnly(whole.baseUrl) } : whole;
  const credentials = "credentials" in whole ? whole.credentials : undefined;
  return {
    pipelineId: pipeline.id,
    pipeline: pipeline.name,
    namespace: pipeline.namespace,
    connection,
    secret: credentials ? { name: secretName(credentials), readable: admin ? await secretReadable(credentials) : null } : null,
    updatedBy: stored?.updatedBy ?? null,
    updatedAt: stored?.updatedAt.toISOString() ?? null,
  };
}

/** Every pipeline with where its repairs run (GET /api/v1/pipelines). */
export async function listPipelineConnections(reader: Pick<Actor, "role">, db: Db = getDb()): Promise<OrchestratorConnectionView[]> {
  const [pipelines, connections] = await Promise.all([listPipelines(db), listConnections(db)]);
  return Promise.all(pipelines.map((p) => view(p, connections.get(p.id) ?? null, reader)));
}

export async function getPipelineConnection(idOrName: string, reader: Pick<Actor, "role">, db: Db = getDb()): Promise<OrchestratorConnectionView> {
  const pipeline = await requirePipeline(db, idOrName);
  return view(pipeline, await findConnection(db, pipeline.id), reader);
}

/**
 * Sets where a pipeline's repairs run (PUT /api/v1/pipelines/{id}/orchestrator, admins). The
 * connection names its secret; the value is read only when a request is sent. `local` — the
 * demo's executor — is refused for a pipeline with a task it has no code for. A Dagster
 * connection may name a pipeline Reparo has not seen yet (`<namespace>/<asset group>`): Reparo
 * learns it from that Dagster (lib/server/sources/dagster), so it is created with its connection.
 * The change (the pipeline created, if it was) and its audit entry (before → after, no secret
 * values: there are none) commit together.
 */
export async function setPipelineConnection(
  idOrName: string,
  body: { connection: OrchestratorConnection; reason: string },
  actor: Actor,
  now = new Date(),
  db: Db = getDb(),
): Promise<OrchestratorConnectionView> {
  if ("credentials" in body.connection && body.connection.credentials) requireAllowedSecret(body.connection.credentials, "body.connection.credentials");
  const found = await lookupPipeline(db, idOrName);
  const toCreate = found === null && body.connection.kind === "dagster" ? dagsterPipelineRef(idOrName) : null;
  if (found === null && toCreate === null) throw new NotFoundError(`no pipeline ${idOrName}`);
  if (found && body.connection.kind === "local") {
    const tasks = (await listTasks(db)).filter((t) => t.pipelineId === found.id && t.kind === "task");
    const plan = { pairs: tasks.map((t) => ({ taskNodeId: t.nodeId, unitKey: "", wave: 0 })) };
    const missing = localOrchestrator(null)
      .requests(plan as never)
      .unsupported.map((u) => nodeName(u.taskNodeId as NodeId));
    if (missing.length > 0)
      throw new RefusedError(
        `body.connection.kind: the local executor has no code for ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""} — it runs only the demo's tasks`,
      );
  }
  const before = found ? await findConnection(db, found.id) : null;
  // One retry path for two admins creating the same pipeline at once: the loser finds the winner's.
  const pipeline = await inOneTransaction(db, async (tx) => {
    const pipeline = found ?? (await createDagsterPipeline(tx, toCreate!));
    await saveConnection(tx, pipeline.id, body.connection, actor.id, now);
    await appendAudit(
      tx,
      {
        kind: "pipeline.orchestrator_set",
        actor: actor.id,
        actorRole: actor.role,
        reason: body.reason,
        before: { pipeline: pipeline.name, connection: before ? { ...before.connection } : null },
        after: { pipeline: pipeline.name, connection: { ...body.connection } },
      },
      now,
    );
    return pipeline;
  });
  return view(pipeline, await findConnection(db, pipeline.id), actor);
}
