import { requireRunTransition, type RepairRunEvent, type RepairRunStatus } from "@/lib/domain/repair-run-lifecycle";
import type { Db, Tx } from "../repositories/database";
import { transitionRun } from "../repositories/repair/repair-runs";

/**
 * Moves the run, read in status `run.status`, as its lifecycle (lib/domain/repair-run-lifecycle)
 * says `event` does, only if it is still in that status (compare-and-set), with when it started or
 * ended. RunTransitionRefused when the lifecycle refuses the event; false when the run moved
 * meanwhile (the caller knows whether that is a race it lost or work someone else finished).
 */
export async function moveRepairRun(
  tx: Db | Tx,
  run: { readonly id: string; readonly status: RepairRunStatus },
  event: RepairRunEvent,
  at: { startedAt?: Date; endedAt?: Date } = {},
): Promise<boolean> {
  const to = requireRunTransition(run.status, event, run.id);
  if (to === run.status) return true;
  return transitionRun(tx, run.id, [run.status], to, at);
}
