import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { createDb } from "../repositories/database";
import { resolveDatabaseTarget } from "../db/database-url";
import { foldAllPending, type FoldThreadMessage } from "./fold-pending";

// Deferred folding's thread (fold-pending.ts): its own database connection; each "kick" from the
// console's main thread folds the queue until it is empty. It runs at nice 10 on Linux (this
// thread alone), so when the cores are busy the requests — accepting events, serving pages — run
// first and the fold takes what is left: a burst is acknowledged at once and folded after.
if (process.platform === "linux") {
  try {
    setPriority(10);
  } catch {
    // not permitted here: the thread runs at the process's priority
  }
}
let db = createDb(resolveDatabaseTarget());
const post = (m: FoldThreadMessage) => parentPort!.postMessage(m);
let running = false;
let again = false;

async function drain(): Promise<void> {
  running = true;
  try {
    do {
      again = false;
      await foldAllPending(db, (events, seconds) => post({ kind: "step", events, seconds }));
    } while (again);
    post({ kind: "idle" });
  } catch (e) {
    post({ kind: "error", message: (e as Error).message });
    // A fresh connection for the next try: on SQLite a transaction that timed out waiting for the
    // writer (another process held it) left this client unable to start any other (measured: every
    // later fold failed "Unable to start a transaction in the given time" after the writer was free).
    const old = db;
    db = createDb(resolveDatabaseTarget());
    await old.$disconnect().catch(() => undefined);
  } finally {
    running = false;
  }
}

parentPort!.on("message", () => {
  if (running) again = true;
  else void drain();
});
