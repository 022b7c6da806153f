import { INTERVENTION_KINDS } from "@/lib/contracts/history";
import type { Db } from "../database";
import { parseFailedPairs } from "../incidents/incidents";
import type { IncidentRef } from "../incidents/open-incidents";
import { prismaOf } from "../prisma-handle";
import { compositeKey } from "@/lib/domain/composite-key";

export interface RepairRunRecord {
  id: string;
  status: string;
  repairNumber: number;
  rootRunId: string | null;
  incidentId: string | null;
  pipeline: string | null;
  startedAt: Date | null;
  endedAt: Date | null;
  /** Distinct tasks (node id, name, owner) and (task, unit) pairs the run attempted. */
  tasks: { nodeId: string; name: string; owner: string }[];
  pairs: number;
  /** From the run's own record (what the Execute step counts): pairs launched, and those that succeeded. Null without one. */
  launched: { planned: number; succeeded: number } | null;
}

/** The launched pairs and their progress as the repair run keeps them; null when the run has no such record. */
function launchedPairs(parameters: string): { planned: number; succeeded: number } | null {
  try {
    const p = JSON.parse(parameters) as { pairs?: unknown; progress?: Record<string, { status?: unknown }> };
    if (!Array.isArray(p.pairs)) return null;
    const succeeded = Object.values(p.progress ?? {}).filter((x) => x?.status === "succeeded").length;
    return { planned: p.pairs.length, succeeded };
  } catch {
    return null;
  }
}

/** Every repair run (Run kind repair) started in [from, to), with the pairs it attempted. */
export async function listRepairRuns(db: Db, from: Date | null, to: Date | null): Promise<RepairRunRecord[]> {
  const startedAt = { ...(from ? { gte: from } : {}), ...(to ? { lt: to } : {}) };
  const where = { kind: "repair", ...(from || to ? { startedAt } : {}) };
  // Attempts through a relation filter, not an IN list of run ids: thousands of repairs would
  // exceed the database's bound-parameter limit.
  const [runs, attempts] = await Promise.all([
    prismaOf(db).run.findMany({
      where,
      select: {
        id: true,
        status: true,
        repairNumber: true,
        rootRunId: true,
        incidentId: true,
        startedAt: true,
        endedAt: true,
        parameters: true,
        pipeline: { select: { name: true } },
      },
      orderBy: { startedAt: "desc" },
    }),
    prismaOf(db).attempt.findMany({
      where: { run: where, status: { notIn: ["upstream_failed", "skipped"] } },
      select: { runId: true, unitKey: true, task: { select: { nodeId: true, name: true, owner: true } } },
    }),
  ]);
  const byRun = new Map<string, typeof attempts>();
  for (const a of attempts) byRun.set(a.runId, [...(byRun.get(a.runId) ?? []), a]);
  return runs.map((r) => {
    const own = byRun.get(r.id) ?? [];
    const tasks = new Map(own.map((a) => [a.task.nodeId, a.task]));
    return {
      id: r.id,
      status: r.status,
      repairNumber: r.repairNumber,
      rootRunId: r.rootRunId,
      incidentId: r.incidentId,
      pipeline: r.pipeline?.name ?? null,
      startedAt: r.startedAt,
      endedAt: r.endedAt,
      tasks: [...tasks.values()],
      pairs: new Set(own.map((a) => compositeKey(a.task.nodeId, a.unitKey))).size,
      launched: launchedPairs(r.parameters),
    };
  });
}

/** Runs `query` over slices of `ids`: an IN list stays under every database's parameter limit. */
async function inChunks<T>(ids: string[], query: (slice: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += 500) out.push(...(await query(ids.slice(i, i + 500))));
  return out;
}

/** An incident as the repair history reads it: what every incident reference holds, when it was opened, its plans and validations. */
export interface IncidentHistoryRecord extends IncidentRef {
  /** When someone opened the incident: the repair's clock starts here (docs/completeness.md). */
  openedAt: Date;
  /** Plan JSON of every plan, newest first: the launched one carries the full re-run cost. */
  plans: { status: string; plan: string }[];
  validations: Date[];
}

export async function incidentsByIds(db: Db, ids: string[]): Promise<Map<string, IncidentHistoryRecord>> {
  if (ids.length === 0) return new Map();
  const [rows, audits] = await Promise.all([
    inChunks(ids, (slice) =>
      prismaOf(db).incident.findMany({
        where: { id: { in: slice } },
        select: {
          id: true,
          title: true,
          status: true,
          detectedAt: true,
          openedAt: true,
          resolvedAt: true,
          failedPairs: true,
          plans: { select: { status: true, plan: true }, orderBy: { createdAt: "desc" } },
        },
      }),
    ),
    inChunks(ids, (slice) =>
      prismaOf(db).auditEntry.findMany({
        where: { incidentId: { in: slice }, kind: { in: ["validation.passed", "validation.overridden"] } },
        select: { incidentId: true, at: true },
        orderBy: { at: "asc" },
      }),
    ),
  ]);
  const validations = new Map<string, Date[]>();
  for (const a of audits) validations.set(a.incidentId!, [...(validations.get(a.incidentId!) ?? []), a.at]);
  return new Map(rows.map((r) => [r.id, { ...r, failedPairs: parseFailedPairs(r.failedPairs), validations: validations.get(r.id) ?? [] }]));
}

export interface FailedAttemptRecord {
  runId: string;
  taskNodeId: string;
  error: string | null;
  endedAt: Date | null;
}

/** The failed attempts of the runs repaired: when the failure happened and what kind it was. */
export async function failedAttemptsOfRuns(db: Db, runIds: string[]): Promise<FailedAttemptRecord[]> {
  if (runIds.length === 0) return [];
  const rows = await inChunks(runIds, (slice) =>
    prismaOf(db).attempt.findMany({
      where: { runId: { in: slice }, status: "failed" },
      select: { runId: true, error: true, endedAt: true, task: { select: { nodeId: true } } },
    }),
  );
  return rows.map((r) => ({ runId: r.runId, taskNodeId: r.task.nodeId, error: r.error, endedAt: r.endedAt }));
}

export interface InterventionRecord {
  kind: string;
  at: Date;
  incidentId: string | null;
}

/**
 * The interventions (INTERVENTION_KINDS) recorded in [from, to). An entry naming an incident that
 * no longer exists is left out: reloading the demo replaces its world but keeps the append-only
 * audit log, and the history describes the incidents and repairs there are (four "repairs" from
 * earlier loads beside one repair run would contradict each other).
 */
export async function listInterventions(db: Db, from: Date | null, to: Date | null): Promise<InterventionRecord[]> {
  const at = { ...(from ? { gte: from } : {}), ...(to ? { lt: to } : {}) };
  const kind = { in: Object.keys(INTERVENTION_KINDS) };
  const rows = await prismaOf(db).auditEntry.findMany({
    where: from || to ? { at, kind } : { kind },
    select: { kind: true, at: true, incidentId: true },
    orderBy: { at: "asc" },
  });
  const named = [...new Set(rows.flatMap((r) => (r.incidentId ? [r.incidentId] : [])))];
  const existing = new Set(
    (await inChunks(named, (slice) => prismaOf(db).incident.findMany({ where: { id: { in: slice } }, select: { id: true } }))).map((i) => i.id),
  );
  return rows.filter((r) => r.incidentId === null || existing.has(r.incidentId));
}
