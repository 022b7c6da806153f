import { Worker } from "node:worker_threads";
import { getDb, type Db } from "../repositories/database";
import { log } from "../observability/log";
import { metrics } from "../observability/metrics";
import { oldestPendingAcceptedAt } from "../repositories/ingestion/pending-folds";
import { foldPendingEvents, type Folding } from "./ingest-openlineage-events";
import { configuredFoldMaxWaitMs, FOLD_QUIET_MS, foldHoldMs, type FoldPace } from "./fold-pace";

export { configuredFoldMaxWaitMs, type FoldPace } from "./fold-pace";

/** Events one fold step takes: large enough to amortise its round trips, small enough for a short transaction. */
const FOLD_BATCH = 2_000;

/**
 * How this console writes an accepted event's consequences (REPARO_INGEST_FOLD): `inline` (the
 * default) or `deferred`. Anything else stops the server at start, naming the variable.
 */
export function configuredFolding(env: Record<string, string | undefined> = process.env): Folding {
  const v = (env.REPARO_INGEST_FOLD ?? "").trim();
  if (v === "" || v === "inline") return "inline";
  if (v === "deferred") return "deferred";
  throw new Error(`REPARO_INGEST_FOLD must be "inline" or "deferred", not ${JSON.stringify(v)}`);
}

async function holdBack(db: Db, pace: FoldPace): Promise<void> {
  for (;;) {
    // Nothing to ask the database while the console is quiet.
    if (Date.now() - pace.lastAcceptedAt >= FOLD_QUIET_MS) return;
    const wait = foldHoldMs(pace, await oldestPendingAcceptedAt(db), Date.now());
    if (wait <= 0) return;
    await new Promise((r) => setTimeout(r, wait));
  }
}

/**
 * Runs `pass` again and again until no kick came during it: kicks while a pass runs coalesce into
 * one more pass. `kick` answers the new loop's promise, or null when it joined the running one.
 */
export function coalescing(pass: () => Promise<unknown>): { kick(): Promise<void> | null; inFlight(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  return {
    kick() {
      if (running) {
        again = true;
        return null;
      }
      running = (async () => {
        do {
          again = false;
          await pass();
        } while (again);
      })().finally(() => {
        running = null;
      });
      return running;
    },
    inFlight: () => running?.catch(() => undefined) ?? Promise.resolve(),
  };
}

// One folder per database per process (the routes and the background jobs are separate bundles).
const holder = globalThis as unknown as { __reparoFolders?: WeakMap<Db, ReturnType<typeof coalescing>> };
const folders = (holder.__reparoFolders ??= new WeakMap<Db, ReturnType<typeof coalescing>>());

/**
 * Folds every queued event, step after step, until the queue is empty. Answers how many events
 * this call folded. Any console may run it at once (their steps take disjoint events).
 */
export async function foldAllPending(db: Db, onStep: (events: number, seconds: number) => void = countStep, pace: FoldPace | null = null): Promise<number> {
  let total = 0;
  for (;;) {
    if (pace) await holdBack(db, pace);
    const started = performance.now();
    const step = await foldPendingEvents(db, FOLD_BATCH);
    if (step.events === 0) return total;
    total += step.events;
    onStep(step.events, (performance.now() - started) / 1000);
  }
}

function countStep(events: number, seconds: number): void {
  metrics().folded.inc(events);
  metrics().foldSeconds.observe(seconds);
}

/** What the console's main thread tells the fold thread: fold what is queued — and, with "accepted", that events were just accepted (and when). */
export type FoldThreadCommand = { kind: "kick" } | { kind: "accepted"; at: number };

/** What the fold thread tells the console's main thread. */
export type FoldThreadMessage = { kind: "step"; events: number; seconds: number } | { kind: "idle" } | { kind: "error"; message: string };

interface FoldThread {
  worker: Worker;
  /** Kicked and not reported idle since. */
  busy: boolean;
  idle: (() => void)[];
}

/**
 * In the console's server (a Next build, where the bundler compiles the worker) on its own
 * database, the fold runs on a thread of its own at a lower priority (fold-events.worker.ts).
 * Tests and scripts (TypeScript unbundled: Node 20 cannot start a .ts worker) fold in process.
 */
function threadAvailable(db: Db): boolean {
  return process.env.NEXT_RUNTIME === "nodejs" && process.env.REPARO_FOLD_THREAD !== "0" && db === getDb();
}

const threadHolder = globalThis as unknown as { __reparoFoldThread?: FoldThread | null; __reparoFoldPace?: FoldPace };

/** This process's pace (the in-process fold's; the fold thread keeps its own from the "accepted" commands). */
function processPace(): FoldPace {
  return (threadHolder.__reparoFoldPace ??= { lastAcceptedAt: 0, maxWaitMs: configuredFoldMaxWaitMs() });
}

function foldThread(): FoldThread {
  if (threadHolder.__reparoFoldThread) return threadHolder.__reparoFoldThread;
  const worker = new Worker(new URL("./fold-events.worker.ts", import.meta.url));
  // Never what holds a stopping process open: what it had not folded stays queued.
  worker.unref();
  const thread: FoldThread = { worker, busy: false, idle: [] };
  const release = () => {
    thread.busy = false;
    thread.idle.splice(0).forEach((r) => r());
  };
  worker.on("message", (m: FoldThreadMessage) => {
    if (m.kind === "step") countStep(m.events, m.seconds);
    else if (m.kind === "idle") release();
    else {
      log.error(`folding queued events failed (the fold-events job tries again): ${m.message}`);
      release();
    }
  });
  const gone = (why: string) => {
    if (threadHolder.__reparoFoldThread === thread) threadHolder.__reparoFoldThread = null;
    log.error(`the fold thread stopped (${why}); the next request starts another`);
    release();
  };
  worker.on("error", (e) => gone(e.message));
  worker.on("exit", (code) => gone(`exit code ${code}`));
  return (threadHolder.__reparoFoldThread = thread);
}

/**
 * After a deferred request commits (`accepted`), or from the fold-events job: fold what is
 * queued, in the background, without holding the request up — at the pace above. Kicks while a
 * fold runs coalesce into one more pass. A failure is logged; the `fold-events` job (every few
 * seconds, any console) takes the events up again.
 */
export function kickFolding(db: Db, accepted = false): void {
  const at = Date.now();
  if (threadAvailable(db)) {
    const thread = foldThread();
    thread.busy = true;
    thread.worker.postMessage((accepted ? { kind: "accepted", at } : { kind: "kick" }) satisfies FoldThreadCommand);
    return;
  }
  const pace = processPace();
  if (accepted) pace.lastAcceptedAt = at;
  let folder = folders.get(db);
  if (!folder) folders.set(db, (folder = coalescing(() => foldAllPending(db, countStep, pace))));
  folder.kick()?.catch((e: unknown) => log.error(`folding queued events failed (the fold-events job tries again): ${(e as Error).message}`));
}

/** The fold in flight in this process, if any (tests and the fold-events job wait for it). */
export function foldingInFlight(db: Db): Promise<void> {
  if (threadAvailable(db)) {
    const thread = threadHolder.__reparoFoldThread;
    return thread?.busy ? new Promise<void>((resolve) => thread.idle.push(resolve)) : Promise.resolve();
  }
  return folders.get(db)?.inFlight() ?? Promise.resolve();
}

/** The fold-events job: fold what is queued (on the fold thread where there is one) and wait for it. */
export async function foldQueued(db: Db): Promise<void> {
  if (!threadAvailable(db)) {
    await foldAllPending(db);
    return;
  }
  const done = new Promise<void>((resolve) => foldThread().idle.push(resolve));
  kickFolding(db);
  await done;
}
