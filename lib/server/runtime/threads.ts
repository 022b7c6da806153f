import { Worker } from "node:worker_threads";

/**
 * Every thread the console starts, in one place: the bundler compiles a worker it finds as
 * `new Worker(new URL(…, import.meta.url))`, so each entry point is named here literally.
 *
 * The TypeScript workers run only in the console's server (a Next build, where the bundler
 * compiles them): tests and scripts run TypeScript unbundled — Node 20 cannot start a .ts
 * worker — and do the same work in process. The layout worker is plain JavaScript and runs
 * everywhere.
 */
export const startThread = {
  /** ELK's layouts (elkjs's bundled build): the lineage and the incidents' scope graphs. */
  layout: () => new Worker(new URL("./workers/elk.worker.mjs", import.meta.url)),
  /**
   * The first computation of the unit states (or of one part of the lineage: `datasetNodeIds`).
   * It allocates millions of short-lived records; a young generation of V8's default size
   * collected them so often that collecting was a fifth of its time (docs/units.md).
   */
  unitStates: (workerData: { asOf: number; datasetNodeIds?: string[] }) =>
    new Worker(new URL("./workers/unit-states.worker.ts", import.meta.url), { workerData, resourceLimits: { maxYoungGenerationSizeMb: 192 } }),
  /** Producers' requests (ledger batches, events folded inline) and the records' fingerprint, on a connection of its own. */
  ingestion: () => new Worker(new URL("./workers/ingestion.worker.ts", import.meta.url)),
  /** Deferred folding: the queued events, folded at a lower priority. */
  fold: () => new Worker(new URL("./workers/fold-events.worker.ts", import.meta.url)),
};

/** Which of the TypeScript threads may start; each can be turned off (`REPARO_<NAME>_THREAD=0`) to run in process. */
export type ThreadSwitch = "REPARO_STATE_THREAD" | "REPARO_INGEST_THREAD" | "REPARO_FOLD_THREAD";

/** Whether a TypeScript thread can start here: in the console's server, unless its switch is 0. */
export function threadsAvailable(sw: ThreadSwitch): boolean {
  return process.env.NEXT_RUNTIME === "nodejs" && process.env[sw] !== "0";
}
