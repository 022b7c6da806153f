import { getDb } from "../repositories/database";
import { DBT_IMPORT_ENDPOINT, DBT_IMPORT_MAX_BODY_BYTES } from "./receive-dbt-import";
import { LINEAGE_BATCH_ENDPOINT } from "./receive-lineage-batch";
import { LINEAGE_ENDPOINT, LINEAGE_MAX_BODY_BYTES } from "./receive-lineage";
import { PUBLISHES_ENDPOINT } from "./receive-publishes";
import { SOURCE_COUNTS_ENDPOINT, WAREHOUSE_COUNTS_ENDPOINT } from "./receive-counts";
import { LEDGER_MAX_BODY_BYTES } from "./read-ingestion-batch";
import { INGESTION_HANDLERS, type IngestionKind, type IngestionOutcomeOf } from "./ingestion-handlers";
import type { IngestionInput } from "./ingestion-outcome";
import { runIngestion } from "./ingestion-thread";
import { configuredFolding } from "./fold-pending";

/**
 * Each ingestion body's limit (its route reads it so: route({ rawBody })) and the endpoint its
 * refusals are logged under — a body over its limit too: 413 and a line in the rejection log.
 */
export const INGESTION_BODIES = {
  lineage: { maxBytes: LINEAGE_MAX_BODY_BYTES, endpoint: LINEAGE_ENDPOINT },
  "lineage-batch": { maxBytes: LINEAGE_MAX_BODY_BYTES, endpoint: LINEAGE_BATCH_ENDPOINT },
  publishes: { maxBytes: LEDGER_MAX_BODY_BYTES, endpoint: PUBLISHES_ENDPOINT },
  "source-counts": { maxBytes: LEDGER_MAX_BODY_BYTES, endpoint: SOURCE_COUNTS_ENDPOINT },
  "warehouse-counts": { maxBytes: LEDGER_MAX_BODY_BYTES, endpoint: WAREHOUSE_COUNTS_ENDPOINT },
  dbt: { maxBytes: DBT_IMPORT_MAX_BODY_BYTES, endpoint: DBT_IMPORT_ENDPOINT },
} as const satisfies Record<IngestionKind | "dbt", { maxBytes: number; endpoint: string }>;

/**
 * An ingestion use case, where it runs in the console: the ledger batches and events folded
 * inline on the ingestion thread (ingestion-thread.ts); with deferred folding the events are only
 * stored, in process, and this process's fold thread is kicked.
 */
export function ingest<K extends IngestionKind>(kind: K, input: IngestionInput, now = new Date()): Promise<IngestionOutcomeOf<K>> {
  const inProcess = (kind === "lineage" || kind === "lineage-batch") && configuredFolding() !== "inline";
  return inProcess ? (INGESTION_HANDLERS[kind](getDb(), input, now) as Promise<IngestionOutcomeOf<K>>) : runIngestion(kind, input, now);
}
