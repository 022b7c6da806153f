import { z } from "zod";
import { AuditTargetSchema, type AuditTarget } from "@/lib/contracts/audit";
import { IncidentStatusSchema, type IncidentStatus, type RunRef } from "@/lib/contracts/incidents";
import { providerOf, type Db, type Tx } from "../database";
import { prismaOf } from "../prisma-handle";

export interface IncidentRecord {
  id: string;
  title: string;
  status: IncidentStatus;
  pipelineId: string | null;
  pipeline: string | null;
  originRunId: string | null;
  failedPairs: AuditTarget[];
  openedBy: string;
  detectedAt: Date;
  openedAt: Date;
  resolvedAt: Date | null;
  closedReason: string | null;
}

type Row = {
  id: string;
  title: string;
  status: string;
  pipelineId: string | null;
  originRunId: string | null;
  failedPairs: string;
  openedBy: string;
  detectedAt: Date;
  openedAt: Date;
  resolvedAt: Date | null;
  closedReason: string | null;
};

const FailedPairsSchema = z.array(AuditTargetSchema);

/** The one reading of an incident's `failedPairs` column: JSON [{ nodeId, units }], as it was written. */
export function parseFailedPairs(json: string): AuditTarget[] {
  return FailedPairsSchema.parse(JSON.parse(json));
}

function toRecord(r: Row, pipelines: Map<string, { namespace: string; name: string }>): IncidentRecord {
  return {
    ...r,
    status: IncidentStatusSchema.parse(r.status),
    pipeline: r.pipelineId ? (pipelines.get(r.pipelineId)?.name ?? null) : null,
    failedPairs: parseFailedPairs(r.failedPairs),
  };
}

/**
 * Pipelines by id, named as every other screen names them: by name (a DAG's id, dbt's project),
 * not by its OpenLineage namespace — an Airflow's namespace holds all its DAGs.
 */
async function pipelineNames(db: Db | Tx): Promise<Map<string, { namespace: string; name: string }>> {
  const rows = await prismaOf(db).pipeline.findMany({ select: { id: true, namespace: true, name: true } });
  return new Map(rows.map((p) => [p.id, { namespace: p.namespace, name: p.name }]));
}

export async function createIncident(
  tx: Tx,
  data: {
    title: string;
    pipelineId: string | null;
    originRunId: string | null;
    failedPairs: AuditTarget[];
    openedBy: string;
    detectedAt: Date;
    openedAt: Date;
  },
): Promise<IncidentRecord> {
  const row = await prismaOf(tx).incident.create({ data: { ...data, status: "open", failedPairs: JSON.stringify(data.failedPairs) } });
  return toRecord(row, await pipelineNames(tx));
}

export async function findIncident(db: Db | Tx, id: string): Promise<IncidentRecord | null> {
  const row = await prismaOf(db).incident.findUnique({ where: { id } });
  return row ? toRecord(row, await pipelineNames(db)) : null;
}

export async function listIncidentRecords(db: Db, where: { statuses?: IncidentStatus[]; openedBy?: string; pipelineName?: string }): Promise<IncidentRecord[]> {
  const pipelines = await pipelineNames(db);
  // By name, or namespace/name where two namespaces share a name.
  const named = (p: { namespace: string; name: string }) => p.name === where.pipelineName || `${p.namespace}/${p.name}` === where.pipelineName;
  const pipelineIds = where.pipelineName ? [...pipelines].filter(([, p]) => named(p)).map(([id]) => id) : undefined;
  const rows = await prismaOf(db).incident.findMany({
    where: {
      ...(where.statuses ? { status: { in: where.statuses } } : {}),
      ...(where.openedBy ? { openedBy: where.openedBy } : {}),
      ...(pipelineIds ? { pipelineId: { in: pipelineIds } } : {}),
    },
    orderBy: { openedAt: "desc" },
    take: 500,
  });
  return rows.map((r) => toRecord(r, pipelines));
}

/**
 * Moves an incident from one of `from` to `to`; false when another request moved it first
 * (the caller answers 409). Conditional, so two concurrent steps cannot both succeed.
 */
export async function transitionIncident(
  tx: Tx,
  id: string,
  from: readonly IncidentStatus[],
  to: IncidentStatus,
  extra: { failedPairs?: AuditTarget[]; closure?: unknown; resolvedAt?: Date; closedReason?: string } = {},
): Promise<boolean> {
  const { count } = await prismaOf(tx).incident.updateMany({
    where: { id, status: { in: [...from] } },
    data: {
      status: to,
      ...(extra.failedPairs ? { failedPairs: JSON.stringify(extra.failedPairs) } : {}),
      ...(extra.closure !== undefined ? { closure: JSON.stringify(extra.closure) } : {}),
      ...(extra.resolvedAt ? { resolvedAt: extra.resolvedAt } : {}),
      ...(extra.closedReason ? { closedReason: extra.closedReason } : {}),
    },
  });
  return count === 1;
}

export async function repairRunsOf(db: Db | Tx, incidentId: string): Promise<RunRef[]> {
  const runs = await prismaOf(db).run.findMany({ where: { incidentId }, orderBy: { createdAt: "asc" } });
  return runs.map((r) => ({
    id: r.id,
    status: r.status,
    kind: r.kind,
    repairNumber: r.repairNumber,
    rootRunId: r.rootRunId,
    parentRunId: r.parentRunId,
    triggeredBy: r.triggeredBy,
    startedAt: r.startedAt?.toISOString() ?? null,
    endedAt: r.endedAt?.toISOString() ?? null,
  }));
}

export async function repairCountsByIncident(db: Db, ids: string[]): Promise<Map<string, number>> {
  const rows = await prismaOf(db).run.groupBy({ by: ["incidentId"], where: { incidentId: { in: ids }, kind: "repair" }, _count: { _all: true } });
  return new Map(rows.map((r) => [r.incidentId!, r._count._all]));
}

/** The run in which the failed (task, unit) last failed: the run a repair repairs. */
export async function originRunOf(
  db: Db,
  taskId: string,
  unitKeys: string[],
): Promise<{ id: string; pipelineId: string | null; startedAt: Date | null } | null> {
  const attempt = await prismaOf(db).attempt.findFirst({
    where: { taskId, unitKey: { in: unitKeys }, status: { in: ["failed", "upstream_failed"] } },
    orderBy: [{ startedAt: "desc" }, { endedAt: "desc" }],
    select: { run: { select: { id: true, pipelineId: true, startedAt: true, kind: true, rootRunId: true } }, endedAt: true },
  });
  if (!attempt) return null;
  // A repair that failed again repairs the same original run: keep the root.
  return { id: attempt.run.rootRunId ?? attempt.run.id, pipelineId: attempt.run.pipelineId, startedAt: attempt.endedAt ?? attempt.run.startedAt };
}

/** The failed (task, unit) pairs of every incident not yet resolved or abandoned. */
export async function pairsHeldByOpenIncidents(db: Db | Tx): Promise<{ id: string; title: string; failedPairs: AuditTarget[] }[]> {
  const rows = await prismaOf(db).incident.findMany({
    where: { status: { notIn: ["resolved", "abandoned"] } },
    select: { id: true, title: true, failedPairs: true },
  });
  return rows.map((r) => ({ id: r.id, title: r.title, failedPairs: parseFailedPairs(r.failedPairs) }));
}

/** The datasets each task writes now (its current write edges), by task node id. */
export async function outputsOfTasks(db: Db | Tx, taskNodeIds: string[]): Promise<Map<string, { id: string; nodeId: string }[]>> {
  const out = new Map<string, { id: string; nodeId: string }[]>();
  if (taskNodeIds.length === 0) return out;
  const edges = await prismaOf(db).lineageEdge.findMany({
    where: { direction: "write", validTo: null, task: { nodeId: { in: taskNodeIds } } },
    select: { task: { select: { nodeId: true } }, dataset: { select: { id: true, nodeId: true } } },
  });
  for (const e of edges) out.set(e.task.nodeId, [...(out.get(e.task.nodeId) ?? []), e.dataset]);
  return out;
}

/** Each named incident's title and current status (the audit list shows where each entry's incident stands now). */
export async function incidentStatusesOf(db: Db, ids: readonly string[]): Promise<Map<string, { title: string; status: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await prismaOf(db).incident.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, title: true, status: true } });
  return new Map(rows.map((r) => [r.id, { title: r.title, status: r.status }]));
}

/**
 * Opening incidents runs one at a time, so two people opening on the same failure at once make
 * one incident (PostgreSQL: a transaction-scoped advisory lock; SQLite's write transaction is
 * exclusive already).
 */
export async function lockIncidentOpens(tx: Tx): Promise<void> {
  if (providerOf(tx) === "postgresql") await prismaOf(tx).$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('reparo:incident-open'))::text AS locked`);
}
