import { deliverAlertsInBackground } from "../alerts/deliver-alerts";
import { openIncidentsForYou } from "../incidents/open-incidents-for-you";
import { log } from "../observability/log";
import { deliverNotices } from "../notify/deliver-notices";
import { getDb } from "../repositories/database";
import { resolveDatabaseTarget } from "../db/database-url";
import { strandedRepairRuns } from "../repair/repair-watchdog";
import { runRepairSlice } from "../repair/run-repair-slice";
import { applyRetention } from "../retention/apply-retention";
import { keepUnitStates } from "../units/state-service";
import { InProcessQueue } from "./in-process-queue";
import { foldQueued } from "../ingestion/fold-pending";
import { queueSpecs, runningJobQueue, setRunningJobQueue, type JobHandler, type JobQueue, type QueueName } from "./job-queue";
import { PgBossQueue } from "./pg-boss-queue";
import { pollDagsterSources } from "../sources/dagster/poll-dagster-sources";

/** The queue for the configured database: pg-boss on PostgreSQL, this process on SQLite. */
export function createJobQueue(): JobQueue {
  const target = resolveDatabaseTarget();
  return target.provider === "postgresql" ? new PgBossQueue(target.url) : new InProcessQueue();
}

/** What each queue does. Every handler is safe to run twice and on any instance. */
export function jobHandlers(queue: JobQueue): Record<QueueName, JobHandler> {
  return {
    "repair-run": async (data, job) => {
      const runId = String(data.runId ?? "");
      const outcome = await runRepairSlice(runId, getDb(), { jobId: job.id });
      // A run waiting on its orchestrator polls it again in a few seconds; a local one goes straight on.
      if (outcome.state === "continue")
        await queue.send("repair-run", { runId }, { key: runId, ...(outcome.afterSeconds ? { startAfterSeconds: outcome.afterSeconds } : {}) });
    },
    "repair-watchdog": async (data) => {
      const everyRun = data.atStart === true && queue.backend === "in-process";
      for (const { runId, deadJob } of await strandedRepairRuns(getDb(), Date.now(), { everyRun })) {
        // The dead slice's job would be retried only at its expiry: give it up now.
        if (deadJob) await queue.abandon("repair-run", deadJob).catch(() => undefined);
        await queue.send("repair-run", { runId }, { key: runId });
      }
    },
    "alerts-deliver": async () => {
      // Incidents opened for you first: an alert whose group just became an incident is delivered saying so.
      // Its failure (a busy database, a lineage read) must not stop the alerts' delivery below.
      const opened = await openIncidentsForYou(new Date(), getDb()).catch((err: unknown) => {
        log.error({ err }, "opening incidents for alert groups failed; alerts are delivered anyway");
        return { opened: [], left: [] };
      });
      for (const o of opened.opened) log.info({ incidentId: o.incidentId, pipeline: o.pipeline }, `incident opened for the alert group "${o.group}"`);
      await deliverAlertsInBackground(new Date(), getDb());
    },
    "notices-deliver": async () => {
      await deliverNotices(new Date(), getDb());
    },
    "unit-states": async () => {
      await keepUnitStates(getDb(), new Date());
    },
    "fold-events": async () => {
      await foldQueued(getDb());
    },
    retention: async () => {
      await applyRetention(getDb(), new Date());
    },
    "dagster-poll": async () => {
      await pollDagsterSources(getDb(), new Date());
    },
  };
}

/**
 * Server start: this instance becomes one of the workers of every queue. The watchdog runs at
 * once, so repairs a stopped console left are taken over before the first period passes.
 */
export async function startBackgroundWork(): Promise<JobQueue> {
  const running = runningJobQueue();
  if (running) return running;
  const queue = createJobQueue();
  await queue.start(queueSpecs(), jobHandlers(queue));
  setRunningJobQueue(queue);
  await queue.send("repair-watchdog", { atStart: true }, { key: "repair-watchdog" });
  return queue;
}

/** Graceful shutdown: stop fetching, finish (or hand back) the jobs in hand. */
export async function stopBackgroundWork(timeoutMs = 20_000): Promise<void> {
  const queue = runningJobQueue();
  if (!queue) return;
  setRunningJobQueue(null);
  await queue.stop(timeoutMs);
}
