import { Worker } from "node:worker_threads";
import type { DatasetStateCodes } from "./get-unit-state-snapshot";

/** What the unit-state thread sends: each dataset's states as computed (all but its space), then the end. */
export type ThreadMessage = { kind: "dataset"; states: ThreadDataset } | { kind: "done" } | { kind: "error"; message: string };

export type ThreadDataset = Omit<DatasetStateCodes, "space">;

/**
 * Whether the first computation can run on a thread of its own: in the console's server (a Next
 * build, where the bundler compiles the worker), on the console's own database. Tests and
 * scripts run TypeScript unbundled — Node 20 cannot start a .ts worker — and compute in process.
 */
export function threadAvailable(): boolean {
  return process.env.NEXT_RUNTIME === "nodejs" && process.env.REPARO_STATE_THREAD !== "0";
}

/**
 * Every unit's state (or those of `datasetNodeIds`) computed on a worker thread as of `asOf`, each dataset handed to `visit` as
 * it is done. A million units take ~15 s of CPU: on the main thread that was ~15 s in which every
 * page waited behind it; here the pages keep the main thread (measured in docs/units.md).
 * Rejects if the thread fails or stops before the end, or `signal` aborts; the thread is stopped when it settles.
 */
export function visitUnitStatesInThread(asOf: Date, visit: (d: ThreadDataset) => void, datasetNodeIds?: string[], signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const worker = new Worker(new URL("./unit-states.worker.ts", import.meta.url), { workerData: { asOf: asOf.getTime(), datasetNodeIds } });
    // Never what holds a stopping process open: a computation cut short is started again.
    worker.unref();
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (error) reject(error);
      else resolve();
    };
    worker.on("message", (m: ThreadMessage) => {
      if (settled) return;
      if (m.kind === "dataset") {
        try {
          visit(m.states);
        } catch (e) {
          settle(e as Error);
        }
      } else if (m.kind === "done") settle();
      else settle(new Error(m.message));
    });
    // Stopped by the caller (another part's thread failed): the thread is stopped at once.
    signal?.addEventListener("abort", () => settle(new Error("stopped: another part of the computation failed")), { once: true });
    worker.on("error", (e) => settle(e));
    worker.on("exit", (code) => settle(new Error(`the unit-state thread stopped (exit code ${code}) before the end`)));
  });
}
