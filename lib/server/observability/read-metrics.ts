import { getDb } from "../db/client";
import { runningJobQueue } from "../jobs/job-queue";
import { unitStateLag } from "../units/get-unit-state-snapshot";
import { repairRunCounts } from "../repositories/repair-runs";
import { metrics } from "./metrics";

/** The scrape: the gauges read now from the queue and the database, then every metric as text. */
export async function readMetrics(): Promise<{ body: string; contentType: string }> {
  const m = metrics();
  const db = getDb();
  const queue = runningJobQueue();
  m.queueDepth.reset();
  for (const d of queue ? await queue.depth() : []) {
    m.queueDepth.set({ queue: d.queue, state: "queued" }, d.queued);
    m.queueDepth.set({ queue: d.queue, state: "active" }, d.active);
  }
  m.repairRuns.reset();
  for (const [status, n] of await repairRunCounts(db)) m.repairRuns.set({ status }, n);
  m.unitStateLag.set((await unitStateLag(db)) ?? -1);
  return { body: await m.registry.metrics(), contentType: m.registry.contentType };
}
