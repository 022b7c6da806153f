import { z } from "zod";
import { AuditTargetSchema, type AuditTarget } from "@/lib/contracts/audit";
import { IncidentStatusSchema, SeverityLevelSchema, type IncidentStatus, type RunRef } from "@/lib/contracts/incidents";
import { ACTIVE_STATUSES } from "@/lib/domain/incident-lifecycle";
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
  /** How the severity in force came to be; null for incidents opened before severities. */
  severity: SeverityBasis | null;
  /** The assigned commander; null: the opener commands. */
  commander: string | null;
}

/**
 * The `severityBasis` column: the latest computation from the closure (with the nodes it reached,
 * which the incident's owners are read from) and, when a person set the level, their choice —
 * which stays in force over later computations. The `severity` column mirrors the level in force.
 */
export const SeverityBasisSchema = z.object({
  computed: z.object({ level: SeverityLevelSchema, reasons: z.array(z.string()), at: z.string(), nodes: z.array(z.string()) }),
  set: z.object({ level: SeverityLevelSchema, by: z.string(), reason: z.string(), at: z.string() }).nullable(),
});
export type SeverityBasis = z.infer<typeof SeverityBasisSchema>;

/** The level a basis puts in force: a person's choice over the computation. */
export function severityInForce(b: SeverityBasis): SeverityBasis["computed"]["level"] {
  return b.set?.level ?? b.computed.level;
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
  severity: string | null;
  severityBasis: string | null;
  commander: string | null;
};

const FailedPairsSchema = z.array(AuditTargetSchema);

/** The one reading of an incident's `failedPairs` column: JSON [{ nodeId, units }], as it was written. */
export function parseFailedPairs(json: string): AuditTarget[] {
  return FailedPairsSchema.parse(JSON.parse(json));
}

function toRecord(r: Row, pipelines: Map<string, { namespace: string; name: string }>): IncidentRecord {
  const { severityBasis, ...rest } = r;
  return {
    ...rest,
    severity: severityBasis ? SeverityBasisSchema.parse(JSON.parse(severityBasis)) : null,
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
    /** Computed by the opener; absent only where a test makes an incident by hand. */
    severity?: SeverityBasis;
  },
): Promise<IncidentRecord> {
  const { severity, ...rest } = data;
  const row = await prismaOf(tx).incident.create({
    data: {
      ...rest,
      status: "open",
      failedPairs: JSON.stringify(data.failedPairs),
      severity: severity ? severityInForce(severity) : null,
      severityBasis: severity ? JSON.stringify(SeverityBasisSchema.parse(severity)) : null,
    },
  });
  return toRecord(row, await pipelineNames(tx));
}

/**
 * Writes an incident's severity basis — only while it is open and its basis is still the one read
 * (`expected`, compare-and-set: a person's choice made meanwhile is never overwritten by a
 * computation, nor one person's by another's). False when either changed: the caller answers 409.
 */
export async function writeIncidentSeverity(tx: Tx, id: string, expected: SeverityBasis | null, basis: SeverityBasis): Promise<boolean> {
  const { count } = await prismaOf(tx).incident.updateMany({
    where: { id, status: { in: [...ACTIVE_STATUSES] }, severityBasis: expected ? JSON.stringify(SeverityBasisSchema.parse(expected)) : null },
    data: { severity: severityInForce(basis), severityBasis: JSON.stringify(SeverityBasisSchema.parse(basis)) },
  });
  return count === 1;
}

/** Sets an open incident's commander; false when the incident closed meanwhile (409). */
export async function writeIncidentCommander(tx: Tx, id: string, userId: string): Promise<boolean> {
  const { count } = await prismaOf(tx).incident.updateMany({ where: { id, status: { in: [...ACTIVE_STATUSES] } }, data: { commander: userId } });
  return count === 1;
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
