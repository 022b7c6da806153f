import { getDb, type Db } from "../repositories/database";
import { processSingleton } from "../runtime/process-singleton";
import { startThread, threadsAvailable } from "../runtime/threads";
import { RpcThread } from "../runtime/worker-rpc";
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
const folders = processSingleton("folders", () => new WeakMap<Db, ReturnType<typeof coalescing>>());

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

/** What the console's main thread asks the fold thread: fold what is queued — and, with "accepted", that events were just accepted (and when). */
export type FoldThreadCommand = { id: number } & ({ kind: "kick" } | { kind: "accepted"; at: number });

/** What the fold thread says: a step's figures as it goes (no id), and the answer to a kick once its fold is idle. */
export type FoldThreadMessage = { kind: "step"; events: number; seconds: number } | { id: number; error?: string };

type FoldRequest = FoldThreadCommand extends infer C ? (C extends unknown ? Omit<C, "id"> : never) : never;

/**
 * In the console's server (runtime/threads.ts) on its own database, the fold runs on a thread of
 * its own at a lower priority; tests and scripts fold in process.
 */
function threadAvailable(db: Db): boolean {
  return threadsAvailable("REPARO_FOLD_THREAD") && db === getDb();
}

/** This process's pace (the in-process fold's; the fold thread keeps its own from the "accepted" commands). */
function processPace(): FoldPace {
  return processSingleton("foldPace", () => ({ lastAcceptedAt: 0, maxWaitMs: configuredFoldMaxWaitMs() }));
}

/** The fold thread, and its last kick's answer (what "in flight" waits for). */
function foldThread(): { rpc: RpcThread<FoldRequest, { id: number; error?: string }>; last: Promise<void> | null } {
  return processSingleton("foldThread", () => ({
    rpc: new RpcThread<FoldRequest, { id: number; error?: string }>({
      start: startThread.fold,
      // What it had not folded stays queued: the next kick (or the fold-events job) takes it up.
      stopped: (why) => new Error(`the fold thread stopped (${why})`),
      onStop: (why) => log.error(`the fold thread stopped (${why}); the next request starts another`),
      onNotice: (m) => {
        const step = m as Extract<FoldThreadMessage, { kind: "step" }>;
        if (step.kind === "step") countStep(step.events, step.seconds);
      },
    }),
    last: null as Promise<void> | null,
  }));
}

/** Kicks the fold thread; its answer is logged when the fold failed (the fold-events job tries again). */
function kickThread(request: FoldRequest): Promise<void> {
  const thread = foldThread();
  const done = thread.rpc.ask(request).then(
    (a) => {
      if (a.error) log.error(`folding queued events failed (the fold-events job tries again): ${a.error}`);
    },
    () => undefined, // the thread stopped: logged once by onStop
  );
  thread.last = done;
  return done;
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
    void kickThread(accepted ? { kind: "accepted", at } : { kind: "kick" });
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
  if (threadAvailable(db)) return foldThread().last ?? Promise.resolve();
  return folders.get(db)?.inFlight() ?? Promise.resolve();
}

/** The fold-events job: fold what is queued (on the fold thread where there is one) and wait for it. */
export async function foldQueued(db: Db): Promise<void> {
  if (!threadAvailable(db)) {
    await foldAllPending(db);
    return;
  }
  await kickThread({ kind: "kick" });
}
