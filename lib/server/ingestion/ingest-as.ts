import type { RawBody } from "../http/read-body";
import type { Actor } from "../auth/roles";
import { getDb } from "../repositories/database";
import { DBT_IMPORT_MAX_BODY_BYTES, receiveDbtImportRequest } from "./receive-dbt-import-request";
import { receiveLineageBatchRequest } from "./receive-lineage-batch-request";
import { LINEAGE_MAX_BODY_BYTES, receiveLineageRequest } from "./receive-lineage-request";
import { LEDGER_MAX_BODY_BYTES } from "./read-ingestion-batch";
import { runIngestion } from "./ingestion-thread";
import { configuredFolding } from "./fold-pending";

/** Each ingestion body's limit, as its route reads it (route({ rawBody })): beyond it, 413 and a line in the rejection log. */
export const LINEAGE_BODY = { maxBytes: LINEAGE_MAX_BODY_BYTES } as const;
export const LEDGER_BODY = { maxBytes: LEDGER_MAX_BODY_BYTES } as const;
export const DBT_IMPORT_BODY = { maxBytes: DBT_IMPORT_MAX_BODY_BYTES } as const;

/** The ingestion routes, as the request's actor: a namespace-limited token's items are checked one by one. */
// Events folded inline are written on the ingestion thread (ingestion-thread.ts), as the ledger
// batches are; with deferred folding the request only stores them and kicks this process's fold thread.
export const ingestLineageAs = (body: RawBody, actor: Actor) =>
  configuredFolding() === "inline" ? runIngestion("lineage", body, actor) : receiveLineageRequest(body, getDb(), new Date(), actor);
export const ingestLineageBatchAs = (body: RawBody, actor: Actor) =>
  configuredFolding() === "inline" ? runIngestion("lineage-batch", body, actor) : receiveLineageBatchRequest(body, getDb(), new Date(), actor);
// The ledger batches are written on the ingestion thread in the console's server (ingestion-thread.ts).
export const ingestPublishesAs = (body: RawBody, actor: Actor) => runIngestion("publishes", body, actor);
export const ingestSourceCountsAs = (body: RawBody, actor: Actor) => runIngestion("source-counts", body, actor);
export const ingestWarehouseCountsAs = (body: RawBody, actor: Actor) => runIngestion("warehouse-counts", body, actor);
export const ingestDbtAs = (body: RawBody, actor: Actor) => receiveDbtImportRequest(body, getDb(), new Date(), actor);
