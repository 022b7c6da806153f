import PgBoss from "pg-boss";
import type { JobHandler, JobQueue, QueueDepth, QueueName, QueueSpec, SendOptions } from "./job-queue";
import { log } from "../observability/log";

/**
 * The queues on PostgreSQL, in pg-boss's own schema of the console's database. Every instance
 * works every queue; a job is fetched by exactly one of them (SELECT … FOR UPDATE SKIP LOCKED),
 * and a job whose worker died is expired by pg-boss's maintenance (run every few seconds by
 * whichever instance takes its turn) and retried by another instance. Periodic work is sent by
 * every instance and created once per period (pg-boss's singletonSeconds throttle). Queues use
 * pg-boss's `standard` policy: in 10.x its `singleton`/`stately` policies make every fetch of the
 * queue fail while a key's job is active and another of that key waits (timgit/pg-boss#536);
 * exclusivity is the handlers' own (a repair run's lease, an alert's claim).
 */
export class PgBossQueue implements JobQueue {
  readonly backend = "pg-boss" as const;
  private boss: PgBoss;
  private specs: QueueSpec[] = [];
  private timers: NodeJS.Timeout[] = [];
  private started = false;

  constructor(connectionString: string, options: { maintenanceIntervalSeconds?: number; pollingIntervalSeconds?: number } = {}) {
    this.boss = new PgBoss({
      connectionString,
      schema: "pgboss",
      application_name: "reparo-jobs",
      max: 4,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 5,
      monitorStateIntervalSeconds: 60,
      archiveCompletedAfterSeconds: 3_600,
      deleteAfterDays: 7,
      schedule: false,
    });
    this.polling = options.pollingIntervalSeconds ?? 1;
    this.boss.on("error", (e: Error) => log.error(`job queue: ${e.message}`));
  }
  private polling: number;

  async start(specs: readonly QueueSpec[], handlers: Partial<Record<QueueName, JobHandler>>): Promise<void> {
    this.specs = [...specs];
    await this.boss.start();
    this.started = true;
    for (const spec of specs) {
      // createQueue is idempotent in effect: a second instance finds the queue there.
      const options = {
        name: spec.name,
        policy: "standard" as const,
        retryLimit: spec.retryLimit,
        retryDelay: spec.retryDelaySeconds,
        expireInSeconds: spec.expireInSeconds,
      };
      await this.boss.createQueue(spec.name, options).catch(async (e: unknown) => {
        if (!/already exists|duplicate key/i.test((e as Error).message)) throw e;
        await this.boss.updateQueue(spec.name, options); // another instance (or an older version) created it
      });
    }
    for (const spec of specs) {
      const handler = handlers[spec.name];
      if (!handler) continue;
      await this.boss.work<Record<string, unknown>>(spec.name, { batchSize: 1, pollingIntervalSeconds: this.polling }, async ([job]) => {
        if (job) await handler(job.data ?? {}, { id: job.id, queue: spec.name });
      });
      if (spec.everySeconds) {
        const every = spec.everySeconds;
        const tick = () =>
          void this.boss
            .send(spec.name, {}, { singletonKey: spec.name, singletonSeconds: every, expireInSeconds: spec.expireInSeconds })
            .catch(() => undefined);
        tick();
        const t = setInterval(tick, every * 1000);
        t.unref();
        this.timers.push(t);
      }
    }
  }

  async send(queue: QueueName, data: Record<string, unknown>, options: SendOptions = {}): Promise<void> {
    const spec = this.specs.find((s) => s.name === queue);
    await this.boss.send(queue, data, {
      ...(options.key !== undefined ? { singletonKey: options.key } : {}),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      ...(spec ? { expireInSeconds: spec.expireInSeconds, retryLimit: spec.retryLimit, retryDelay: spec.retryDelaySeconds } : {}),
    });
  }

  async abandon(queue: QueueName, jobId: string): Promise<void> {
    // Cancelled, not failed: a failed job would be retried beside the slice the watchdog queues.
    await this.boss.cancel(queue, jobId);
  }

  async depth(): Promise<QueueDepth[]> {
    return Promise.all(
      this.specs.map(async (s) => ({
        queue: s.name,
        queued: await this.boss.getQueueSize(s.name, { before: "active" }),
        active: (await this.boss.getQueueSize(s.name, { before: "completed" })) - (await this.boss.getQueueSize(s.name, { before: "active" })),
      })),
    );
  }

  async stop(timeoutMs: number): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    if (this.started) await this.boss.stop({ graceful: true, timeout: timeoutMs, wait: true });
    this.started = false;
  }
}
