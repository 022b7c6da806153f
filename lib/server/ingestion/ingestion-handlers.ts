import type { BodySource } from "../http/read-body";
import type { Submitter } from "../auth/roles";
import type { Db } from "../repositories/database";
import { isDatabaseBusy, isUniqueViolation } from "../db/db-errors";
import { errorResponse } from "../http/route";
import { metrics } from "../observability/metrics";
import { receiveLineageRequest } from "./receive-lineage-request";
import { receiveLineageBatchRequest } from "./receive-lineage-batch-request";
import { receivePublishesRequest } from "./receive-publishes-request";
import { receiveSourceCountsRequest, receiveWarehouseCountsRequest } from "./receive-counts-request";

/**
 * The ingestion requests the ingestion thread can run (ingestion-thread.ts), by name: the ledger
 * batches and OpenLineage events folded inline, whose whole work — parsing, validating, one write
 * transaction — is on the database and needs nothing of the process it runs in. (Events whose
 * fold is deferred are not sent: their request kicks this process's fold thread.)
 */
export const INGESTION_HANDLERS = {
  lineage: receiveLineageRequest,
  "lineage-batch": receiveLineageBatchRequest,
  publishes: receivePublishesRequest,
  "source-counts": receiveSourceCountsRequest,
  "warehouse-counts": receiveWarehouseCountsRequest,
} satisfies Record<string, (req: BodySource, db: Db, now: Date, submitter?: Submitter) => Promise<Response>>;

export type IngestionKind = keyof typeof INGESTION_HANDLERS;

/** A request for the thread: the body as read by the route (within its limit), when, and who sent it. */
export interface IngestionCommand {
  id: number;
  kind: IngestionKind;
  text: string;
  now: number;
  submitter: Submitter;
}

/** The thread's answer, as plain data; `ingested` is what its counters gained since its last answer. */
export type IngestionAnswer = { id: number; ingested: CounterGain[] } & (
  { response: IngestionResponse } | { thrown: { message: string; code: string | null } }
);

export interface CounterGain {
  labels: Record<string, string>;
  value: number;
}

/**
 * The thread's side: run one command on the thread's database and answer it as plain data. A
 * busy database or a lost race is handed back as the error (the route retries the one and answers
 * the other 409); any other problem is answered here as the route would (a 4xx naming it, or a
 * logged 500). `shipped` is the counter values already reported.
 */
export async function answerIngestion(command: IngestionCommand, db: Db, shipped: Map<string, number>): Promise<IngestionAnswer> {
  let outcome: { response: IngestionResponse } | { thrown: { message: string; code: string | null } };
  try {
    const res = await INGESTION_HANDLERS[command.kind](() => Promise.resolve(command.text), db, new Date(command.now), command.submitter);
    outcome = { response: await plain(res) };
  } catch (e) {
    outcome =
      isDatabaseBusy(e) || isUniqueViolation(e) ? { thrown: { message: (e as Error).message, code: codeOf(e) } } : { response: await plain(errorResponse(e)) };
  }
  return { id: command.id, ingested: await gains(shipped), ...outcome };
}

/** The main thread's side: the answer as the route returns it (or the error it throws). */
export function responseOfAnswer(answer: IngestionAnswer): Response {
  if ("thrown" in answer) throw Object.assign(new Error(answer.thrown.message), answer.thrown.code ? { code: answer.thrown.code } : {});
  return new Response(answer.response.body, { status: answer.response.status, headers: answer.response.headers });
}

type IngestionResponse = { status: number; headers: [string, string][]; body: string };

async function plain(res: Response): Promise<IngestionResponse> {
  return { status: res.status, headers: [...res.headers], body: await res.text() };
}

/** What the ingestion counter gained in this thread since the last answer: the console's registry adds it (GET /api/metrics). */
async function gains(shipped: Map<string, number>): Promise<CounterGain[]> {
  const out: CounterGain[] = [];
  for (const { labels, value } of (await metrics().ingested.get()).values) {
    const key = JSON.stringify(labels);
    const gained = value - (shipped.get(key) ?? 0);
    if (gained === 0) continue;
    shipped.set(key, value);
    out.push({ labels: labels as Record<string, string>, value: gained });
  }
  return out;
}

function codeOf(e: unknown): string | null {
  for (let err = e as { code?: unknown; cause?: unknown } | undefined, depth = 0; err && depth < 6; err = err.cause as typeof err, depth++) {
    if (typeof err.code === "string") return err.code;
  }
  return null;
}
