import { z } from "zod";
import { isActiveRun } from "@/lib/domain/repair-run-lifecycle";
import { planEta, type EtaWaveTask, type PlanEta } from "@/lib/domain/plan-eta";
import type { Db } from "../repositories/database";
import { recentAttemptDurations } from "../repositories/ledger/attempt-durations";
import { currentPlan } from "../repositories/repair/repair-plans";
import { repairRunsOfIncident } from "../repositories/repair/repair-runs";

/** What an ETA reads of the stored plan view: each wave's tasks and how many units each recomputes. */
const WavesSchema = z.object({ waves: z.array(z.array(z.object({ taskNodeId: z.string(), unitCount: z.number().int() }))) });
const DEFAULT_CONCURRENCY = 4;

/** Waves of a plan view timed from their tasks' recent attempts, from `from`. */
export async function timedWaves(db: Db, waves: readonly (readonly EtaWaveTask[])[], from: Date, concurrency = DEFAULT_CONCURRENCY): Promise<PlanEta> {
  const durationsMs = await recentAttemptDurations(
    db,
    waves.flatMap((w) => w.map((t) => t.taskNodeId)),
  );
  return planEta({ waves, durationsMs, concurrency, from });
}

/**
 * The incident's confirmed (or launched) plan timed from its tasks' recent attempts
 * (lib/domain/plan-eta.ts): from its run's start while one runs, else from now — the time it
 * would take if launched now. Null when there is no plan.
 */
export async function incidentPlanEta(db: Db, incidentId: string, now: Date): Promise<PlanEta | null> {
  const [stored, runs] = await Promise.all([currentPlan(db, incidentId), repairRunsOfIncident(db, incidentId)]);
  const parsed = stored ? WavesSchema.safeParse(stored.plan) : null;
  if (!parsed?.success) return null;
  const run = runs.at(-1);
  const running = run && isActiveRun(run.status) ? run : null;
  return timedWaves(db, parsed.data.waves, running?.startedAt ?? now, running?.params.concurrency ?? DEFAULT_CONCURRENCY);
}
