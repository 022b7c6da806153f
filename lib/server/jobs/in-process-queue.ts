import crypto from "node:crypto";
import type { JobHandler, JobQueue, QueueDepth, QueueName, QueueSpec, SendOptions } from "./job-queue";
import { log } from "../observability/log";

interface Job {
  id: string;
  queue: QueueName;
  data: Record<string, unknown>;
  key?: string;
  tries: number;
  notBefore: number;
}

/**
 * The single console on the embedded SQLite database: the same queues, run in this process.
 * Per key at most one job queued and one active (a run's slices never overlap here); a job that
 * throws is tried again after its retry delay, up to its retry limit. Nothing survives a
 * restart — the repair watchdog, run at start, finds the repairs a stopped process left.
 */
export class InProcessQueue implements JobQueue {
  readonly backend = "in-process" as const;
  private specs = new Map<QueueName, QueueSpec>();
  private handlers: Partial<Record<QueueName, JobHandler>> = {};
  private queued: Job[] = [];
  private active = new Map<string, { job: Job; done: Promise<void> }>();
  private timers: NodeJS.Timeout[] = [];
  private stopped = false;

  async start(specs: readonly QueueSpec[], handlers: Partial<Record<QueueName, JobHandler>>): Promise<void> {
    this.handlers = handlers;
    for (const spec of specs) {
      this.specs.set(spec.name, spec);
      if (spec.everySeconds && handlers[spec.name]) {
        const t = setInterval(() => void this.send(spec.name, {}, { key: spec.name }), spec.everySeconds * 1000);
        t.unref();
        this.timers.push(t);
      }
    }
  }

  async send(queue: QueueName, data: Record<string, unknown>, options: SendOptions = {}): Promise<void> {
    if (this.stopped) return;
    if (options.key !== undefined && this.queued.some((j) => j.queue === queue && j.key === options.key)) return;
    this.queued.push({ id: crypto.randomUUID(), queue, data, key: options.key, tries: 0, notBefore: Date.now() + (options.startAfterSeconds ?? 0) * 1000 });
    this.pump();
  }

  /** A job of this process's queue dies with it: nothing to give up. */
  async abandon(): Promise<void> {}

  async depth(): Promise<QueueDepth[]> {
    return [...this.specs.keys()].map((queue) => ({
      queue,
      queued: this.queued.filter((j) => j.queue === queue).length,
      active: [...this.active.values()].filter((a) => a.job.queue === queue).length,
    }));
  }

  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.queued = [];
    await Promise.race([Promise.all([...this.active.values()].map((a) => a.done)), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
  }

  private pump(): void {
    if (this.stopped) return;
    const now = Date.now();
    for (const job of [...this.queued]) {
      const handler = this.handlers[job.queue];
      if (!handler || job.notBefore > now) continue;
      if (job.key !== undefined && [...this.active.values()].some((a) => a.job.queue === job.queue && a.job.key === job.key)) continue;
      this.queued.splice(this.queued.indexOf(job), 1);
      const done = this.run(job, handler).finally(() => {
        this.active.delete(job.id);
        this.pump();
      });
      this.active.set(job.id, { job, done });
    }
    const next = Math.min(...this.queued.filter((j) => this.handlers[j.queue]).map((j) => j.notBefore));
    if (Number.isFinite(next) && next > now) setTimeout(() => this.pump(), next - now).unref();
  }

  private async run(job: Job, handler: JobHandler): Promise<void> {
    try {
      await handler(job.data, { id: job.id, queue: job.queue });
    } catch (e) {
      const spec = this.specs.get(job.queue);
      log.error(`background job ${job.queue} failed: ${(e as Error).message}`);
      if (spec && job.tries < spec.retryLimit && !this.stopped) {
        this.queued.push({ ...job, tries: job.tries + 1, notBefore: Date.now() + spec.retryDelaySeconds * 1000 });
      }
    }
  }
}
