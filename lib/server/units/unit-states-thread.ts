import { startThread, threadsAvailable } from "../runtime/threads";
import { streamFromThread } from "../runtime/worker-rpc";
import type { DatasetStateCodes } from "./state-service/unit-state-snapshot";

/** What the unit-state thread sends: each dataset's states as computed (all but its space), then the end. */
export type ThreadMessage = { kind: "dataset"; states: ThreadDataset } | { kind: "done" } | { kind: "error"; message: string };

export type ThreadDataset = Omit<DatasetStateCodes, "space">;

/**
 * Whether the first computation can run on a thread of its own: in the console's server, on the
 * console's own database (runtime/threads.ts); elsewhere it is computed in process.
 */
export function threadAvailable(): boolean {
  return threadsAvailable("REPARO_STATE_THREAD");
}

/**
 * Every unit's state (or those of `datasetNodeIds`) computed on a worker thread as of `asOf`, each dataset handed to `visit` as
 * it is done. A big world's computation is seconds of CPU: on the main thread every page waited
 * behind it; here the pages keep the main thread (measured in docs/units.md).
 * Rejects if the thread fails or stops before the end, or `signal` aborts; the thread is stopped when it settles.
 */
export function visitUnitStatesInThread(asOf: Date, visit: (d: ThreadDataset) => void, datasetNodeIds?: string[], signal?: AbortSignal): Promise<void> {
  return streamFromThread<ThreadMessage>(
    () => startThread.unitStates({ asOf: asOf.getTime(), datasetNodeIds }),
    (m) => {
      if (m.kind === "dataset") {
        visit(m.states);
        return false;
      }
      return m.kind === "done" ? true : new Error(m.message);
    },
    { signal, what: "unit-state thread" },
  );
}
