import type { PartitionDef } from "@/lib/domain/partitions";
import type { WriteMode } from "@/lib/domain/unit-state";
import { WRITE_MODES } from "@/lib/domain/lineage-graph";
import { z } from "zod";
import { PartitionDefSchema } from "@/lib/contracts/partitions";
import type { Db, Tx } from "../database";
import { prismaOf } from "../prisma-handle";
import { formatNodeId } from "@/lib/domain/ids";
import type { FactSourcesOf } from "@/lib/domain/fact-sources";
import { parseFactSources } from "./fact-sources-json";

/** A task as the domain sees it; unknown repair-safety properties stay null (unknown = unsafe). */
export interface TaskRecord {
  id: string;
  nodeId: string;
  namespace: string;
  name: string;
  pipeline: string | null;
  pipelineId: string | null;
  writeMode: WriteMode | null;
  sideEffect: "none" | "external" | null;
  dependsOnOwnPast: boolean | null;
  publishMode: "per_unit" | "atomic_set" | null;
  owner: string;
  /** `check`: tests what it reads (a dbt test) and builds no dataset. */
  kind: "task" | "check";
  /** Where each known fact came from (lib/domain/fact-sources.ts). */
  factSources: FactSourcesOf;
}

export interface DatasetRecord {
  id: string;
  nodeId: string;
  namespace: string;
  name: string;
  pipeline: string | null;
  kind: string;
  external: boolean;
  partitionDef: PartitionDef;
  tolerance: number;
  sourceImmutable: boolean | null;
  /** False until someone declares the definition: the expected units are then unknown, never "missing". */
  partitionsDeclared: boolean;
}

const WRITE_MODE_NAMES: ReadonlySet<string> = new Set(WRITE_MODES);

export async function listTasks(db: Db): Promise<TaskRecord[]> {
  const rows = await prismaOf(db).task.findMany({ include: { pipeline: { select: { name: true } } }, orderBy: { nodeId: "asc" } });
  return rows.map((t) => ({
    id: t.id,
    nodeId: t.nodeId,
    namespace: t.namespace,
    name: t.name,
    pipeline: t.pipeline?.name ?? null,
    pipelineId: t.pipelineId,
    writeMode: t.writeMode && WRITE_MODE_NAMES.has(t.writeMode) ? (t.writeMode as WriteMode) : null,
    sideEffect: t.sideEffect === "none" || t.sideEffect === "external" ? t.sideEffect : null,
    dependsOnOwnPast: t.dependsOnOwnPast,
    publishMode: t.publishMode === "per_unit" || t.publishMode === "atomic_set" ? t.publishMode : null,
    owner: t.owner,
    kind: t.kind === "check" ? "check" : "task",
    factSources: parseFactSources(t.factSources),
  }));
}

export async function listDatasets(db: Db): Promise<DatasetRecord[]> {
  const rows = await prismaOf(db).dataset.findMany({ include: { pipeline: { select: { name: true } } }, orderBy: { nodeId: "asc" } });
  return rows.map((d) => ({
    id: d.id,
    nodeId: d.nodeId,
    namespace: d.namespace,
    name: d.name,
    pipeline: d.pipeline?.name ?? null,
    kind: d.kind,
    external: d.external,
    partitionDef: parsePartitionDef(d.partitionDef, d.nodeId),
    tolerance: d.rowCountTolerance,
    sourceImmutable: d.sourceImmutable,
    partitionsDeclared: d.partitionsDeclared,
  }));
}

/** The one reading of a dataset's `partitionDef` column (JSON, lib/contracts' PartitionDefSchema). */
export function parsePartitionDef(json: string, nodeId: string): z.infer<typeof PartitionDefSchema> {
  const parsed = PartitionDefSchema.safeParse(JSON.parse(json));
  if (!parsed.success) throw new Error(`${nodeId}: stored partition definition is invalid: ${parsed.error.message}`);
  return parsed.data;
}

const MappingParamsSchema = z.record(z.string(), z.unknown());

export interface EdgeRecord {
  taskId: string;
  datasetId: string;
  direction: "read" | "write";
  mapping: string;
  mappingParams: Record<string, unknown>;
  /** When this version of the edge began (a change point of the lineage). */
  validFrom: Date;
}

/** The lineage that held at `asOf`: edges are versioned in time (validFrom ≤ asOf < validTo). */
/** The job node ids that are pipelines (a DAG, dbt-ol's job for the whole command): their runs are their tasks' parents. */
export async function pipelineJobIds(db: Db): Promise<Set<string>> {
  const rows = await prismaOf(db).pipeline.findMany({ select: { namespace: true, name: true } });
  return new Set(rows.map((p) => formatNodeId("job", p.namespace, p.name)));
}

/** Tasks that have had an edge at some time (the others ran without ever naming a dataset). */
export async function taskIdsWithEdges(db: Db): Promise<Set<string>> {
  const rows = await prismaOf(db).lineageEdge.findMany({ select: { taskId: true }, distinct: ["taskId"] });
  return new Set(rows.map((r) => r.taskId));
}

export async function listEdgesAt(db: Db, asOf: Date): Promise<EdgeRecord[]> {
  const rows = await prismaOf(db).lineageEdge.findMany({
    where: { validFrom: { lte: asOf }, OR: [{ validTo: null }, { validTo: { gt: asOf } }] },
    orderBy: [{ taskId: "asc" }, { datasetId: "asc" }],
  });
  return rows.map((e) => ({
    taskId: e.taskId,
    datasetId: e.datasetId,
    direction: e.direction === "write" ? "write" : "read",
    mapping: e.mapping,
    mappingParams: MappingParamsSchema.parse(JSON.parse(e.mappingParams)),
    validFrom: e.validFrom,
  }));
}

/** The id of the dataset with this node id; null when the catalog has none. */
export async function datasetIdOf(db: Db, nodeId: string): Promise<string | null> {
  const row = await prismaOf(db).dataset.findUnique({ where: { nodeId }, select: { id: true } });
  return row?.id ?? null;
}

/** Partition definitions of the datasets that exist, by node id (missing ones are absent). */
export async function partitionDefsByNodeId(tx: Db | Tx, nodeIds: string[]): Promise<Map<string, PartitionDef>> {
  if (nodeIds.length === 0) return new Map();
  const rows = await prismaOf(tx).dataset.findMany({ where: { nodeId: { in: [...new Set(nodeIds)] } }, select: { nodeId: true, partitionDef: true } });
  return new Map(rows.map((r) => [r.nodeId, parsePartitionDef(r.partitionDef, r.nodeId)]));
}
