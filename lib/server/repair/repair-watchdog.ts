import { getDb, type Db } from "../repositories/database";
import { activeRepairRuns } from "../repositories/repair/repair-runs";
import { ownerAlive, STALE_MS, thisOwner } from "../runtime/repair-lease";

/**
 * Repairs no live slice is running and no job will continue: launched by a console that stopped
 * before its first slice was queued, owned by a slice whose process is gone (same host: its pid
 * is dead; elsewhere: no heartbeat for STALE_MS), or released between slices with no slice since.
 * The `repair-watchdog` job queues a slice for each (one per run: a run's queue key is its id),
 * which takes it over from its exact progress. On PostgreSQL pg-boss also retries an expired
 * slice by itself; this is what finds a run whose job was lost, and the SQLite console's
 * repairs after a restart.
 */
export async function strandedRepairs(db: Db = getDb(), now = Date.now(), options: { everyRun?: boolean } = {}): Promise<string[]> {
  return (await strandedRepairRuns(db, now, options)).map((r) => r.runId);
}

/** The stranded runs with the queue job of the slice that died, if one ran it (to be given up). */
export async function strandedRepairRuns(
  db: Db = getDb(),
  now = Date.now(),
  options: { everyRun?: boolean } = {},
): Promise<{ runId: string; deadJob: string | null }[]> {
  return (await activeRepairRuns(db))
    .filter((run) => {
      // The SQLite console's queue lives in its process: at start, no job of any run survives.
      if (options.everyRun) return !ownerAlive(run.id, run.params.owner ?? thisOwner(), undefined, now);
      const touched = run.params.heartbeatAt ?? run.createdAt.getTime();
      if (run.params.owner) return !ownerAlive(run.id, run.params.owner, run.params.heartbeatAt, now);
      return now - touched >= STALE_MS;
    })
    .map((run) => ({ runId: run.id, deadJob: run.params.owner?.job ?? null }));
}
