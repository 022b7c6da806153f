import { UNPARTITIONED_KEY } from "@/lib/domain/partitions";
import type { Db } from "../repositories/database";
import type { ExecutorLineage } from "../executor/executor-lineage";
import { executeRun } from "../executor/execute-run";
import { METER_TASKS as T } from "../executor/task-code/node-ids";
import { METER_PERIODS } from "../executor/task-code/meters/meter-source";
import { demoClock } from "./demo-clock";

/** Seed 003's setups: where each try of the 2026-07 landing fails (null = it completes), atomic or not. */
export interface MetersScenario {
  cutoffs: readonly (number | null)[];
  atomic: boolean;
}

/** The demo's state: the 2026-07 landing dies at row 120, not atomic, one try — the silent half-write. */
export const DEMO_METERS_SCENARIO: MetersScenario = { cutoffs: [120], atomic: false };
export const FAILING_PERIOD = "2026-07";

/**
 * Lands the twelve periods in one backfill (the 2026-07 partition failing as the scenario
 * says), then runs the five stages on their schedule. The stages do not wait for the landing
 * to publish — they read whatever the raw table holds, which is how a half-written partition
 * reaches serving without any alert (seed 003).
 */
export async function runMetersHistory(db: Db, lineage: ExecutorLineage, pipelineId: string | null, scenario: MetersScenario) {
  const landing = await executeRun(db, {
    pipelineId,
    kind: "backfill",
    triggeredBy: "demo-operator",
    lineage,
    clock: demoClock(new Date("2026-08-20T09:00:00Z")),
    pairs: METER_PERIODS.map((unitKey) => ({ taskNodeId: T.land, unitKey })),
    retries: { [T.land]: { maxTries: scenario.cutoffs.length } },
    atomic: { [T.land]: scenario.atomic },
    failures: (task, unit, tryNumber) => {
      const cutoff = unit === FAILING_PERIOD ? scenario.cutoffs[tryNumber - 1] : null;
      return cutoff == null ? undefined : { failAfterRows: cutoff, error: `meter vendor feed closed the connection after row ${cutoff}` };
    },
    parameters: { scenario: { ...scenario } },
  });
  const stages = [T.screen, T.dedupe, T.consumption, T.summary].flatMap((taskNodeId) =>
    METER_PERIODS.map((unitKey) => ({ taskNodeId, unitKey })).filter((p) => lineage.tasks.get(p.taskNodeId)!.space.validate(p.unitKey).valid),
  );
  const processing = await executeRun(db, {
    pipelineId,
    kind: "scheduled",
    triggeredBy: "schedule:meters_monthly",
    lineage,
    clock: demoClock(new Date("2026-08-21T03:00:00Z")),
    pairs: [...stages, { taskNodeId: T.serve, unitKey: UNPARTITIONED_KEY }],
    externalInputs: "read_available",
    concurrency: 4,
  });
  return { landing, processing };
}
