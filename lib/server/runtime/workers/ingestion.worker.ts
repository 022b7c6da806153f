import { parentPort } from "node:worker_threads";
import { yieldToRequests } from "../../jobs/background-thread";
import { createDb } from "../../repositories/database";
import { resolveDatabaseTarget } from "../../db/database-url";
import { unitStateFingerprint } from "../../repositories/units/unit-matrix-reads";
import { answerIngestion, type IngestionCommand } from "../../ingestion/ingestion-handlers";
import type { FingerprintAnswer, FingerprintCommand } from "../../ingestion/ingestion-thread";

// The ingestion thread (ingestion/ingestion-thread.ts): producers' requests (ledger batches, events folded
// inline: ingestion-handlers.ts) run here, on a database connection of their own, and the
// console's main thread keeps serving the pages. It runs at nice 10 on Linux, so when the cores
// are busy a reader's request runs before a producer's batch.
yieldToRequests();
// One transaction per batch: a few connections are enough on PostgreSQL.
const db = createDb(resolveDatabaseTarget(), { poolMax: 4 });
const shipped = new Map<string, number>();

parentPort!.on("message", (command: IngestionCommand | FingerprintCommand) => {
  // The unit-state service's records fingerprint: its counts off the console's main thread.
  if (command.kind === "fingerprint") {
    void unitStateFingerprint(db).then(
      (fingerprint) => parentPort!.postMessage({ id: command.id, fingerprint } satisfies FingerprintAnswer),
      (e: unknown) => parentPort!.postMessage({ id: command.id, thrown: { message: (e as Error).message } } satisfies FingerprintAnswer),
    );
    return;
  }
  void answerIngestion(command, db, shipped).then(
    (answer) => parentPort!.postMessage(answer),
    // Never a request left waiting: the route answers this 500 and logs it.
    (e: unknown) => parentPort!.postMessage({ id: command.id, ingested: [], thrown: { message: (e as Error).message, code: null } }),
  );
});
