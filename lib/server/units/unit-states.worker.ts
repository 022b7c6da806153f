import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { createDb } from "../repositories/database";
import { resolveDatabaseTarget } from "../db/database-url";
import { visitUnitStates } from "./load-unit-states";
import { toCodes } from "./state-codes";
import type { ThreadMessage } from "./unit-states-thread";

// The first computation of every unit's state, on a thread of its own (unit-states-thread.ts):
// its own database connection, the same rules; each dataset's codes are handed over (not copied)
// as soon as they are computed.
const { asOf } = workerData as { asOf: number };

// Background work yields to the pages: on Linux a thread has its own nice value, and this lowers
// this thread's alone, so when the cores are busy the main thread (the requests) runs first.
// (Elsewhere it would lower the whole process's: left as it is.)
if (process.platform === "linux") {
  try {
    setPriority(10);
  } catch {
    // not permitted here: the thread runs at the process's priority
  }
}
const post = (message: ThreadMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);

void (async () => {
  const db = createDb(resolveDatabaseTarget());
  try {
    await visitUnitStates(db, new Date(asOf), {}, (d) => {
      const { space, ...states } = toCodes(d);
      void space;
      post({ kind: "dataset", states }, [states.codes.buffer as ArrayBuffer]);
    });
    await db.$disconnect();
    post({ kind: "done" });
  } catch (e) {
    await db.$disconnect().catch(() => undefined);
    post({ kind: "error", message: (e as Error).message });
  }
})();
