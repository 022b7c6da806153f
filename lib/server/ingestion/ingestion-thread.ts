import { HttpError } from "../http/errors";
import { getDb, providerOf, type Db } from "../repositories/database";
import { unitStateFingerprint } from "../repositories/units/unit-matrix-reads";
import { log } from "../observability/log";
import { metrics } from "../observability/metrics";
import { processSingleton } from "../runtime/process-singleton";
import { startThread, threadsAvailable } from "../runtime/threads";
import { RpcThread } from "../runtime/worker-rpc";
import {
  INGESTION_HANDLERS,
  outcomeOfAnswer,
  type IngestionAnswer,
  type IngestionCommand,
  type IngestionKind,
  type IngestionOutcomeOf,
} from "./ingestion-handlers";
import type { IngestionInput } from "./ingestion-outcome";

/**
 * The unit-state service's net for writes that bypass its change log (unitStateFingerprint),
 * cast on this thread's connection too: on SQLite its counts hold the calling thread, ~2–3 s at
 * 10,950,000 publishes, and every page waited behind it after any write.
 */
export type FingerprintCommand = { id: number; kind: "fingerprint" };
export type FingerprintAnswer = { id: number } & ({ fingerprint: { ledger: string; catalog: string } } | { thrown: { message: string } });

/**
 * Where a ledger batch (publishes, source counts, warehouse counts) or OpenLineage events folded
 * inline are written (ingestion-handlers.ts). On SQLite every statement runs on the calling
 * thread, so in the console's main thread each batch held the event loop while it validated and
 * wrote, and the pages queued behind the producers (docs/units.md has the figures). In the
 * console's server these use cases run on a thread of their own with its own connection
 * (runtime/workers/ingestion.worker.ts): the route reads the body, the thread is handed its text
 * and answers the outcome as data, and the route makes the HTTP answer. Tests and scripts
 * (TypeScript unbundled: Node 20 cannot start a .ts worker), or REPARO_INGEST_THREAD=0, run the
 * use case in process.
 */
export async function runIngestion<K extends IngestionKind>(kind: K, input: IngestionInput, now = new Date()): Promise<IngestionOutcomeOf<K>> {
  if (!threadAvailable()) return (await INGESTION_HANDLERS[kind](getDb(), input, now)) as IngestionOutcomeOf<K>;
  const s = input.submitter;
  const answer = await ingestionThread().ask<IngestionAnswer>({
    kind,
    text: input.text,
    now: now.getTime(),
    // Only what the use case reads crosses: an Actor may carry more than a thread can be sent.
    submitter: s ? { id: s.id, role: s.role, source: s.source, namespaces: [...s.namespaces] } : undefined,
  });
  for (const { labels, value } of answer.ingested) metrics().ingested.inc(labels as { kind: string; outcome: string }, value);
  return outcomeOfAnswer<K>(answer);
}

/**
 * The records' fingerprint (unitStateFingerprint), off the main thread in the console's server
 * on its own SQLite database (PostgreSQL's reads never hold the event loop: asked in process).
 */
export async function unitStateFingerprintOffMainThread(db: Db): Promise<{ ledger: string; catalog: string }> {
  if (!threadAvailable() || db !== getDb() || providerOf(db) !== "sqlite") return unitStateFingerprint(db);
  const answer = await ingestionThread().ask<FingerprintAnswer>({ kind: "fingerprint" });
  if ("thrown" in answer) throw new Error(answer.thrown.message);
  return answer.fingerprint;
}

/** Start the thread with the server, so that the first batch does not wait for it (~1 s). */
export function startIngestionThread(): void {
  if (threadAvailable()) void ingestionThread();
}

function threadAvailable(): boolean {
  return threadsAvailable("REPARO_INGEST_THREAD");
}

type Command = IngestionCommand | FingerprintCommand;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface IngestionThread {
  ask<A extends { id: number }>(command: DistributiveOmit<Command, "id">): Promise<A>;
}

function ingestionThread(): IngestionThread {
  const rpc = processSingleton(
    "ingestionThread",
    () =>
      new RpcThread<DistributiveOmit<Command, "id">, { id: number }>({
        start: startThread.ingestion,
        // Each batch is one transaction: one cut short wrote nothing, and sending it again is safe.
        stopped: (why) => new HttpError(503, "ingestion_unavailable", `the ingestion thread stopped (${why}) before this batch was written: send it again`),
        onStop: (why) => log.error(`the ingestion thread stopped (${why}); the next batch starts another`),
        // A request in flight keeps the process open; idle, the thread never does.
        holdOpenWhileBusy: true,
      }),
  );
  return { ask: <A extends { id: number }>(command: DistributiveOmit<Command, "id">) => rpc.ask(command) as Promise<A> };
}
