import type { DbtImportResult } from "@/lib/contracts/ingestion-dbt";
import type { Actor, Submitter } from "../auth/roles";
import { getDb, type Db } from "../repositories/database";
import { INGESTION_HANDLERS, type IngestionKind } from "../ingestion/ingestion-handlers";
import { ingest, INGESTION_BODIES } from "../ingestion/ingest";
import { logRefusedBody } from "../ingestion/read-ingestion-batch";
import { receiveDbtImport } from "../ingestion/receive-dbt-import";
import { HttpError } from "./errors";
import { ingestionResponse } from "./ingestion-answers";
import { textOf, type BodySource, type RawBody } from "./read-body";

/**
 * The body's text within its endpoint's limit. A body over it, cut on its way or not UTF-8 is
 * refused (413, 400) before any use case sees it — and still gets its line in the rejection log.
 */
export async function ingestionText(kind: IngestionKind | "dbt", body: BodySource, db: Db, now: Date): Promise<string> {
  const { maxBytes, endpoint } = INGESTION_BODIES[kind];
  try {
    return await textOf(body, maxBytes);
  } catch (e) {
    if (e instanceof HttpError) await logRefusedBody(db, endpoint, e, now);
    throw e;
  }
}

/** An ingestion route's handler (route({ rawBody })): the body's text to the use case where it runs (ingest.ts), its outcome answered. */
export async function postIngestion(kind: IngestionKind, body: RawBody, actor: Actor): Promise<Response> {
  const now = new Date();
  const text = await ingestionText(kind, body, getDb(), now);
  return ingestionResponse(kind, await ingest(kind, { text, submitter: actor }, now));
}

/** POST /api/v1/import/dbt's handler: the import's result, answered 200 by route(). */
export async function postDbtImport(body: RawBody, actor: Actor): Promise<DbtImportResult> {
  const now = new Date();
  const text = await ingestionText("dbt", body, getDb(), now);
  return receiveDbtImport(getDb(), { text, submitter: actor }, now);
}

/**
 * An ingestion endpoint's answer in this process, on `db` (repository tests, benchmarks): the
 * body read from a Request as its route reads it, the use case run here, its outcome answered as
 * the route answers it. A problem the route maps (a busy database, a body refused whole) is thrown.
 */
export async function receiveIngestionRequest(
  kind: IngestionKind,
  req: BodySource,
  db: Db = getDb(),
  now = new Date(),
  submitter?: Submitter,
): Promise<Response> {
  const text = await ingestionText(kind, req, db, now);
  return ingestionResponse(kind, await INGESTION_HANDLERS[kind](db, { text, submitter }, now));
}

type Receive = (req: BodySource, db?: Db, now?: Date, submitter?: Submitter) => Promise<Response>;
export const receiveLineageRequest: Receive = (...a) => receiveIngestionRequest("lineage", ...a);
export const receiveLineageBatchRequest: Receive = (...a) => receiveIngestionRequest("lineage-batch", ...a);
export const receivePublishesRequest: Receive = (...a) => receiveIngestionRequest("publishes", ...a);
export const receiveSourceCountsRequest: Receive = (...a) => receiveIngestionRequest("source-counts", ...a);
export const receiveWarehouseCountsRequest: Receive = (...a) => receiveIngestionRequest("warehouse-counts", ...a);
