import { getDb } from "../repositories/database";
import { runningJobQueue } from "../jobs/job-queue";
import { unitStateLag } from "../units/state-service";
import { repairRunCounts } from "../repositories/repair/repair-runs";
import { metrics } from "./metrics";
import { pendingFoldLag } from "../repositories/ingestion/pending-folds";

/** The scrape: the gauges read now from the queue and the database, then every metric as text. */
export async function readMetrics(): Promise<{ body: string; contentType: string }> {
  const m = metrics();
  const db = getDb();
  const queue = runningJobQueue();
  // The database may be what is wrong: its gauges are left out then, the process metrics still answer.
  m.queueDepth.reset();
  m.repairRuns.reset();
  try {
    for (const d of queue ? await queue.depth() : []) {
      m.queueDepth.set({ queue: d.queue, state: "queued" }, d.queued);
      m.queueDepth.set({ queue: d.queue, state: "active" }, d.active);
    }
    for (const [status, n] of await repairRunCounts(db)) m.repairRuns.set({ status }, n);
    m.unitStateLag.set((await unitStateLag(db)) ?? -1);
    const fold = await pendingFoldLag(db);
    m.foldPending.set(fold.events);
    m.foldLagSeconds.set(fold.oldestAcceptedAt ? Math.max(0, (Date.now() - fold.oldestAcceptedAt.getTime()) / 1000) : 0);
  } catch {
    m.unitStateLag.set(-1);
  }
  return { body: await m.registry.metrics(), contentType: m.registry.contentType };
}
