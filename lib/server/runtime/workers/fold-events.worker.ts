import { yieldToRequests } from "../../jobs/background-thread";
import { parentPort } from "node:worker_threads";
import { createDb } from "../../repositories/database";
import { resolveDatabaseTarget } from "../../db/database-url";
import {
  coalescing,
  configuredFoldMaxWaitMs,
  foldAllPending,
  type FoldPace,
  type FoldThreadCommand,
  type FoldThreadMessage,
} from "../../ingestion/fold-pending";

// Deferred folding's thread (ingestion/fold-pending.ts): its own database connection; each kick
// from the console's main thread folds the queue until it is empty, and is answered when the fold
// it joined is idle. It runs at nice 10 on Linux (this thread alone), so when the cores are busy
// the requests — accepting events, serving pages — run first and the fold takes what is left: a
// burst is acknowledged at once and folded after.
yieldToRequests();
let db = createDb(resolveDatabaseTarget());
const post = (m: FoldThreadMessage) => parentPort!.postMessage(m);
// A fold that fails answers the error and leaves a fresh connection for the next try: on SQLite a
// transaction that timed out waiting for the writer (another process held it) left this client
// unable to start any other (every later fold failed "Unable to start a transaction in the given
// time" after the writer was free).
const pace: FoldPace = { lastAcceptedAt: 0, maxWaitMs: configuredFoldMaxWaitMs() };
const loop = coalescing(() => foldAllPending(db, (events, seconds) => post({ kind: "step", events, seconds }), pace));

parentPort!.on("message", (command: FoldThreadCommand) => {
  if (command.kind === "accepted") pace.lastAcceptedAt = Math.max(pace.lastAcceptedAt, command.at);
  // A kick while a fold runs joins it (one more pass): answered when that fold is idle.
  (loop.kick() ?? loop.inFlight()).then(
    () => post({ id: command.id }),
    async (e: unknown) => {
      post({ id: command.id, error: (e as Error).message });
      const old = db;
      db = createDb(resolveDatabaseTarget());
      await old.$disconnect().catch(() => undefined);
    },
  );
});
