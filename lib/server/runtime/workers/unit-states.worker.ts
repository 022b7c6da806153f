import { yieldToRequests } from "../../jobs/background-thread";
import { parentPort, workerData } from "node:worker_threads";
import { createDb } from "../../repositories/database";
import { resolveDatabaseTarget } from "../../db/database-url";
import { visitUnitStates } from "../../units/load-unit-states";
import { toCodes } from "../../units/state-codes";
import type { ThreadMessage } from "../../units/unit-states-thread";

// The first computation of every unit's state, on a thread of its own (units/unit-states-thread.ts):
// its own database connection, the same rules; each dataset's codes are handed over (not copied)
// as soon as they are computed.
// With `datasetNodeIds`, only those (a part of the lineage no task links to the rest: computation-parts.ts).
const { asOf, datasetNodeIds } = workerData as { asOf: number; datasetNodeIds?: string[] };

yieldToRequests();
const post = (message: ThreadMessage, transfer: ArrayBuffer[] = []) => parentPort!.postMessage(message, transfer);

void (async () => {
  const db = createDb(resolveDatabaseTarget());
  try {
    await visitUnitStates(db, new Date(asOf), datasetNodeIds ? { datasetNodeIds, knownProblems: () => undefined } : {}, (d) => {
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
