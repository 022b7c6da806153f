import { OrchestratorConnectionSchema, type OrchestratorConnection } from "@/lib/contracts/orchestrators";
import type { Db, Tx } from "../database";
import { prismaOf } from "../prisma-handle";

export interface PipelineRecord {
  id: string;
  namespace: string;
  name: string;
}

export interface StoredConnection {
  pipelineId: string;
  connection: OrchestratorConnection;
  updatedBy: string;
  updatedAt: Date;
}

/** Every pipeline, by name. */
export async function listPipelines(db: Db | Tx): Promise<PipelineRecord[]> {
  return prismaOf(db).pipeline.findMany({ select: { id: true, namespace: true, name: true }, orderBy: [{ name: "asc" }, { namespace: "asc" }] });
}

/** A pipeline by its id, or by its name when exactly one pipeline has it. */
/**
 * A pipeline by its id, its name (the DAG, the dbt project's job, as the producer names it), or
 * `<namespace>/<name>` when one name is used in several namespaces (ambiguous by name alone).
 */
export async function findPipeline(db: Db | Tx, idOrName: string): Promise<PipelineRecord | "ambiguous" | null> {
  const select = { id: true, namespace: true, name: true } as const;
  const byId = await prismaOf(db).pipeline.findUnique({ where: { id: idOrName }, select });
  if (byId) return byId;
  const byName = await prismaOf(db).pipeline.findMany({ where: { name: idOrName }, select, take: 2 });
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) return "ambiguous";
  // Namespaces may hold slashes (s3://…): every split of the id is a candidate, the namespace/name pair decides.
  const splits = [...idOrName.matchAll(/\//g)].map((m) => [idOrName.slice(0, m.index), idOrName.slice(m.index! + 1)] as const);
  if (splits.length === 0) return null;
  const candidates = await prismaOf(db).pipeline.findMany({ where: { OR: splits.map(([namespace, name]) => ({ namespace, name })) }, select, take: 2 });
  return candidates.length === 1 ? candidates[0]! : candidates.length > 1 ? "ambiguous" : null;
}

const toStored = (r: { pipelineId: string; config: string; updatedBy: string; updatedAt: Date }): StoredConnection => ({
  pipelineId: r.pipelineId,
  connection: OrchestratorConnectionSchema.parse(JSON.parse(r.config)),
  updatedBy: r.updatedBy,
  updatedAt: r.updatedAt,
});

export async function findConnection(db: Db | Tx, pipelineId: string): Promise<StoredConnection | null> {
  const row = await prismaOf(db).orchestratorConnection.findUnique({ where: { pipelineId } });
  return row ? toStored(row) : null;
}

/** Every stored connection, by pipeline id (a pipeline without one has none: `kind: "none"`). */
export async function listConnections(db: Db | Tx): Promise<Map<string, StoredConnection>> {
  const rows = await prismaOf(db).orchestratorConnection.findMany();
  return new Map(rows.map((r) => [r.pipelineId, toStored(r)]));
}

export async function saveConnection(tx: Tx, pipelineId: string, connection: OrchestratorConnection, updatedBy: string, at: Date): Promise<void> {
  const data = { kind: connection.kind, config: JSON.stringify(connection), updatedBy, updatedAt: at };
  await prismaOf(tx).orchestratorConnection.upsert({ where: { pipelineId }, create: { pipelineId, ...data }, update: data });
}

/** Whether incidents are opened for the pipeline's alert groups (incidents opened for you). */
export async function autoIncidentsOf(db: Db | Tx, pipelineId: string): Promise<boolean> {
  const row = await prismaOf(db).pipeline.findUnique({ where: { id: pipelineId }, select: { autoIncidents: true } });
  return row?.autoIncidents ?? false;
}

export async function setAutoIncidents(tx: Tx, pipelineId: string, enabled: boolean): Promise<void> {
  await prismaOf(tx).pipeline.update({ where: { id: pipelineId }, data: { autoIncidents: enabled } });
}

/** The pipelines whose alert groups open incidents by themselves. */
export async function pipelinesWithAutoIncidents(db: Db | Tx): Promise<PipelineRecord[]> {
  return prismaOf(db).pipeline.findMany({ where: { autoIncidents: true }, select: { id: true, namespace: true, name: true } });
}
