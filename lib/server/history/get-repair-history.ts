import type { History, HistoryQuery, RepairRow } from "@/lib/contracts/history";
import { getDb, type Db } from "../repositories/database";
import { failedAttemptsOfRuns, incidentsByIds, listInterventions, listRepairRuns } from "../repositories/repair/repair-history";
import { buildRepairRows } from "./build-repair-rows";
import { summariseRepairs } from "./summarise-repairs";

const DAY = 86_400_000;

/**
 * Every repair run as its own category, joined to its incident and the run it repairs, with
 * durations and the manager's aggregates. Filters: pipeline (name), task (node id or name),
 * owner (of a task the repair ran), period (repair start day, UTC, inclusive).
 */
export async function getRepairHistory(q: HistoryQuery, now: Date, db: Db = getDb()): Promise<History> {
  const from = q.from ? new Date(`${q.from}T00:00:00Z`) : null;
  const to = q.to ? new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY) : null;
  const runs = await listRepairRuns(db, from, to);
  const incidentIds = [...new Set(runs.map((r) => r.incidentId).filter((id): id is string => id !== null))];
  const rootIds = [...new Set(runs.map((r) => r.rootRunId).filter((id): id is string => id !== null))];
  const [incidents, failures, interventions] = await Promise.all([
    incidentsByIds(db, incidentIds),
    failedAttemptsOfRuns(db, rootIds),
    listInterventions(db, from, to),
  ]);
  const all = buildRepairRows({ runs, incidents, failures });
  const rows = all.filter((r) => matches(r, q));
  const filtered = q.pipeline || q.task || q.owner;
  const kept = new Set(rows.map((r) => r.incident?.id));
  const scopedInterventions = filtered ? interventions.filter((i) => i.incidentId !== null && kept.has(i.incidentId)) : interventions;
  return {
    generatedAt: now.toISOString(),
    repairs: rows,
    ...summariseRepairs(rows, scopedInterventions),
    filters: filterOptions(from || to ? await undatedRows(db) : all),
  };
}

/**
 * The dropdowns' choices come from every repair, not from the ones the filters kept: a period
 * or a pipeline that matches nothing must still offer the other pipelines, tasks and owners.
 */
function filterOptions(rows: RepairRow[]): History["filters"] {
  return {
    pipelines: [...new Set(rows.map((r) => r.pipeline).filter((p): p is string => p !== null))].sort(),
    tasks: [...new Set(rows.flatMap((r) => r.tasks))].sort(),
    owners: [...new Set(rows.flatMap((r) => r.owners))].sort(),
  };
}

/** Every repair run regardless of period (failure categories are not needed for the choices). */
async function undatedRows(db: Db): Promise<RepairRow[]> {
  const runs = await listRepairRuns(db, null, null);
  const incidents = await incidentsByIds(db, [...new Set(runs.map((r) => r.incidentId).filter((id): id is string => id !== null))]);
  return buildRepairRows({ runs, incidents, failures: [] });
}

function matches(r: RepairRow, q: HistoryQuery): boolean {
  if (q.pipeline && r.pipeline !== q.pipeline) return false;
  if (q.task && !r.tasks.some((t) => t === q.task || t.endsWith(`:${q.task}`))) return false;
  if (q.owner && !r.owners.includes(q.owner)) return false;
  return true;
}
