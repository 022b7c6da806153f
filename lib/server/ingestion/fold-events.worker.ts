import { yieldToRequests } from "../jobs/background-thread";
import { parentPort } from "node:worker_threads";
import { createDb } from "../repositories/database";
import { resolveDatabaseTarget } from "../db/database-url";
import { coalescing, configuredFoldMaxWaitMs, foldAllPending, type FoldPace, type FoldThreadCommand, type FoldThreadMessage } from "./fold-pending";

// Deferred folding's thread (fold-pending.ts): its own database connection; each "kick" from the
// console's main thread folds the queue until it is empty. It runs at nice 10 on Linux (this
// thread alone), so when the cores are busy the requests — accepting events, serving pages — run
// first and the fold takes what is left: a burst is acknowledged at once and folded after.
yieldToRequests();
let db = createDb(resolveDatabaseTarget());
const post = (m: FoldThreadMessage) => parentPort!.postMessage(m);
// A fold that fails posts the error and leaves a fresh connection for the next try: on SQLite a
// transaction that timed out waiting for the writer (another process held it) left this client
// unable to start any other (measured: every later fold failed "Unable to start a transaction in
// the given time" after the writer was free).
const pace: FoldPace = { lastAcceptedAt: 0, maxWaitMs: configuredFoldMaxWaitMs() };
const loop = coalescing(() => foldAllPending(db, (events, seconds) => post({ kind: "step", events, seconds }), pace));

parentPort!.on("message", (command: FoldThreadCommand) => {
  if (command.kind === "accepted") pace.lastAcceptedAt = Math.max(pace.lastAcceptedAt, command.at);
  loop.kick()?.then(
    () => post({ kind: "idle" }),
    async (e: unknown) => {
      post({ kind: "error", message: (e as Error).message });
      const old = db;
      db = createDb(resolveDatabaseTarget());
      await old.$disconnect().catch(() => undefined);
    },
  );
});
