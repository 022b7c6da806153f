import type { RepairRow } from "@/lib/contracts/history";
import type { FailedAttemptRecord, IncidentHistoryRecord, RepairRunRecord } from "../repositories/repair/repair-history";
import { categoriseFailure } from "./categorise-failure";
import { diffMs } from "./time-stats";

interface Sources {
  runs: RepairRunRecord[];
  incidents: Map<string, IncidentHistoryRecord>;
  failures: FailedAttemptRecord[];
}

/**
 * One row per repair run with its durations:
 *   failure   = the earliest failed attempt of the run it repairs (its root), else the incident's detection
 *   detect    = incident.openedAt − failure: how long until someone took it on
 *   repair    = repair run end − incident.openedAt
 *   validate  = first validation.passed/overridden at or after the repair's end (else resolvedAt) − repair end
 *   resolution = incident.resolvedAt − incident.openedAt
 * Everything after the incident's opening is measured on the clock the repair ran on, so a
 * repair is never charged for the time before anyone knew: the demo's failures are recorded on
 * their August 2026 dates, and an incident opened on them today repairs in minutes, not "105 d"
 * (its time to detect says how long the failure waited).
 */
export function buildRepairRows({ runs, incidents, failures }: Sources): RepairRow[] {
  return runs.map((run) => {
    const incident = run.incidentId ? (incidents.get(run.incidentId) ?? null) : null;
    const rootFailures = failures.filter((f) => f.runId === run.rootRunId);
    const failedAt =
      rootFailures
        .map((f) => f.endedAt)
        .filter((d): d is Date => d !== null)
        .sort((a, b) => a.getTime() - b.getTime())[0] ?? null;
    const failureAt = failedAt ?? incident?.detectedAt ?? null;
    const detectedAt = incident?.detectedAt ?? null;
    const openedAt = incident?.openedAt ?? null;
    const validatedAt = incident ? (incident.validations.find((v) => !run.endedAt || v >= run.endedAt) ?? incident.resolvedAt) : null;
    const named = incident ? incident.failedPairs.map((p) => p.nodeId) : [];
    const tasks = [...new Set(named.length > 0 ? named : run.tasks.map((t) => t.nodeId))].sort();
    return {
      runId: run.id,
      repairNumber: run.repairNumber,
      status: run.status,
      pipeline: run.pipeline,
      rootRunId: run.rootRunId,
      incident: incident ? { id: incident.id, title: incident.title, status: incident.status, href: `/incidents/${incident.id}` } : null,
      tasks,
      owners: [...new Set(run.tasks.map((t) => t.owner).filter(Boolean))].sort(),
      failureCategories: [...new Set(rootFailures.filter((f) => tasks.includes(f.taskNodeId)).map((f) => categoriseFailure(f.error)))].sort(),
      failureAt: iso(failureAt),
      detectedAt: iso(detectedAt),
      openedAt: iso(openedAt),
      repairStartedAt: iso(run.startedAt),
      repairEndedAt: iso(run.endedAt),
      validatedAt: iso(validatedAt),
      resolvedAt: iso(incident?.resolvedAt ?? null),
      timeToDetectMs: diffMs(openedAt, failureAt),
      timeToRepairMs: diffMs(run.endedAt, openedAt),
      timeToValidateMs: diffMs(validatedAt, run.endedAt),
      timeToResolutionMs: diffMs(incident?.resolvedAt ?? null, openedAt),
      // As the Execute step counts them (the run's own progress): an orchestrator's tasks report
      // through their own runs, so the repair run's attempts alone undercount them.
      unitsRecomputed: run.launched?.succeeded ?? run.pairs,
      pairsPlanned: run.launched?.planned ?? null,
      fullRerunUnits: incident ? fullRerunUnits(incident) : null,
    };
  });
}

function iso(d: Date | null): string | null {
  return d ? d.toISOString() : null;
}

/** The launched (else confirmed, else newest) plan's cost.fullRerunUnits from lib/domain's RepairPlan JSON. */
function fullRerunUnits(incident: IncidentHistoryRecord): number | null {
  const plan = incident.plans.find((p) => p.status === "launched") ?? incident.plans.find((p) => p.status === "confirmed") ?? incident.plans[0];
  if (!plan) return null;
  try {
    const value = (JSON.parse(plan.plan) as { cost?: { fullRerunUnits?: unknown } }).cost?.fullRerunUnits;
    return typeof value === "number" && Number.isInteger(value) ? value : null;
  } catch {
    return null;
  }
}
