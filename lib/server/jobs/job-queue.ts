import { processSlot } from "../runtime/process-singleton";
/**
 * Background work every console instance may do, claimed so that exactly one does each piece:
 * on PostgreSQL through pg-boss (SKIP LOCKED fetches, retries, expiry of a dead worker's job), on
 * the embedded SQLite database (one console) in this process, behind the same interface.
 */
export type QueueName = "repair-run" | "repair-watchdog" | "alerts-deliver" | "notices-deliver" | "unit-states" | "retention" | "fold-events" | "dagster-poll";

export interface QueueSpec {
  name: QueueName;
  /** A job not finished this long after it started is presumed lost with its worker and retried. */
  expireInSeconds: number;
  retryLimit: number;
  retryDelaySeconds: number;
  /** Periodic work: sent by every instance on this cadence, created at most once per period. */
  everySeconds?: number;
}

export interface SendOptions {
  /** The job's key (a repair run's id): the in-process queue keeps one queued per key. */
  key?: string;
  /** Not before this many seconds from now. */
  startAfterSeconds?: number;
}

export type JobHandler = (data: Record<string, unknown>, job: { id: string; queue: QueueName }) => Promise<void>;

export interface QueueDepth {
  queue: QueueName;
  queued: number;
  active: number;
}

export interface JobQueue {
  readonly backend: "pg-boss" | "in-process";
  /** Starts fetching and the periodic sends; `handlers` are this instance's workers. */
  start(specs: readonly QueueSpec[], handlers: Partial<Record<QueueName, JobHandler>>): Promise<void>;
  send(queue: QueueName, data: Record<string, unknown>, options?: SendOptions): Promise<void>;
  depth(): Promise<QueueDepth[]>;
  /** Gives up a job whose worker is known to be dead (its slot is freed at once instead of at expiry). */
  abandon(queue: QueueName, jobId: string): Promise<void>;
  /** Stops fetching; waits up to `timeoutMs` for the jobs in hand, then gives the rest back (retried elsewhere). */
  stop(timeoutMs: number): Promise<void>;
}

const envSeconds = (name: string, fallback: number): number => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};

/**
 * The queues. A repair runs as a chain of short slices (SLICE_SECONDS of pairs each) so that its
 * job's expiry — how long a dead instance's work waits before another instance takes it — can be
 * short without cutting a live repair off.
 */
export function queueSpecs(): QueueSpec[] {
  return [
    { name: "repair-run", expireInSeconds: REPAIR_JOB_EXPIRE_SECONDS, retryLimit: 1_000, retryDelaySeconds: 1 },
    { name: "repair-watchdog", expireInSeconds: 60, retryLimit: 0, retryDelaySeconds: 1, everySeconds: 10 },
    { name: "alerts-deliver", expireInSeconds: 600, retryLimit: 0, retryDelaySeconds: 1, everySeconds: envSeconds("REPARO_ALERT_DELIVER_SECONDS", 60) },
    // The communication step's outbox (lib/server/notify): sent at once after the change that queued a notice, this period is its net and its retries' clock.
    { name: "notices-deliver", expireInSeconds: 600, retryLimit: 0, retryDelaySeconds: 1, everySeconds: envSeconds("REPARO_NOTIFY_DELIVER_SECONDS", 5) },
    { name: "unit-states", expireInSeconds: 900, retryLimit: 0, retryDelaySeconds: 1, everySeconds: 30 },
    // Deferred folding's net: events a console queued and did not fold (it died, its fold failed).
    { name: "fold-events", expireInSeconds: 300, retryLimit: 0, retryDelaySeconds: 1, everySeconds: 5 },
    { name: "retention", expireInSeconds: 900, retryLimit: 0, retryDelaySeconds: 1, everySeconds: envSeconds("REPARO_RETENTION_EVERY_SECONDS", 3_600) },
    // The Dagster source: runs of the pipelines connected to Dagster, read from its GraphQL API (lib/server/sources/dagster).
    { name: "dagster-poll", expireInSeconds: 300, retryLimit: 0, retryDelaySeconds: 1, everySeconds: envSeconds("REPARO_DAGSTER_POLL_SECONDS", 15) },
  ];
}

/** How long one slice of a repair may start new pairs. */
export const SLICE_SECONDS = 5;
/**
 * A slice's job expires (and is retried) this long after it started — a backstop only: the
 * watchdog gives up a dead slice's job at once, and the run's lease (owner and heartbeat, under
 * its row lock) is what keeps a retried job from running pairs a live slice still runs.
 */
export const REPAIR_JOB_EXPIRE_SECONDS = 60;

const running = processSlot<JobQueue>("jobs");

/** This process's queue once background work started (null in scripts and tests that did not start it). */
export function runningJobQueue(): JobQueue | null {
  return running.get() ?? null;
}

export function setRunningJobQueue(queue: JobQueue | null): void {
  running.set(queue ?? undefined);
}
