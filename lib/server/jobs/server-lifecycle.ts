import { startBackgroundWork, stopBackgroundWork } from "./background";
import { log } from "../observability/log";
import { startIngestionThread } from "../ingestion/ingestion-thread";
import { processSingleton } from "../runtime/process-singleton";

/**
 * The console server's life: background work starts with it, and SIGTERM/SIGINT stop it
 * gracefully — /api/ready answers 503 at once (the balancer stops sending requests), the
 * queues stop fetching and the jobs in hand finish or are handed back (another instance
 * retries them), requests in flight get DRAIN_MS, then the process exits. `npm start` sets
 * NEXT_MANUAL_SIG_HANDLE so that Next.js leaves the signals to this.
 */
const state = processSingleton("lifecycle", () => ({ draining: false, backgroundError: null as string | null, started: false }));

const DRAIN_MS = 2_000;
const STOP_TIMEOUT_MS = 20_000;
const RETRY_START_MS = 10_000;

export function isDraining(): boolean {
  return state.draining;
}

/** Why background work is not running (null once it is). */
export function backgroundWorkProblem(): string | null {
  return state.started ? null : (state.backgroundError ?? "background work is starting");
}

export async function startServerWork(): Promise<void> {
  startIngestionThread();
  const start = async () => {
    try {
      await startBackgroundWork();
      state.started = true;
      state.backgroundError = null;
    } catch (e) {
      // The console still serves (reads need no queue); /api/ready says why it is not ready.
      state.backgroundError = `background work did not start: ${(e as Error).message}`;
      log.error(`${state.backgroundError}; retrying in ${RETRY_START_MS / 1000} s`);
      setTimeout(() => void start(), RETRY_START_MS).unref();
    }
  };
  await start();
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void shutDown(signal));
}

async function shutDown(signal: string): Promise<void> {
  state.draining = true;
  log.info(`${signal}: draining (ready answers 503), stopping background work`);
  const started = Date.now();
  try {
    await stopBackgroundWork(STOP_TIMEOUT_MS);
  } catch (e) {
    log.error(`stopping background work: ${(e as Error).message}`);
  }
  await new Promise((r) => setTimeout(r, Math.max(0, DRAIN_MS - (Date.now() - started))));
  log.info(`stopped after ${Date.now() - started} ms`);
  process.exit(0);
}
