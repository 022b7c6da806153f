import { SourceCountEntrySchema, type SourceCountsResult } from "@/lib/contracts/ingestion-ledger";
import type { Submitter } from "../auth/roles";
import { getDb, type Db } from "../db/client";
import { applySourceCounts } from "./apply-source-counts";
import { inOneTransaction } from "./in-one-transaction";
import { metrics } from "../observability/metrics";
import { allRefusals, batchResponse, logRefusals, readIngestionBatch, refNamespace } from "./read-ingestion-batch";

const ENDPOINT = "/api/v1/source-counts";

/** POST /api/v1/source-counts: the source of truth's row count per (dataset, unit), for reconciliation. */
export async function receiveSourceCountsRequest(req: Request, db: Db = getDb(), now = new Date(), submitter?: Submitter): Promise<Response> {
  const batch = await readIngestionBatch(req, db, ENDPOINT, SourceCountEntrySchema, now, (c) => ({ measuredAt: c.measuredAt }), {
    namespaces: submitter?.namespaces ?? [], of: (c) => [["dataset", refNamespace(c.dataset)]],
  });
  const outcome = batch.items.length > 0 ? await inOneTransaction(db, (tx) => applySourceCounts(tx, batch.items, batch.pathOf, now, submitter?.id ?? null)) : null;
  const refused = allRefusals(batch, outcome?.refused ?? []);
  metrics().ingested.inc({ kind: "source_count", outcome: "accepted" }, outcome?.accepted.length ?? 0);
  metrics().ingested.inc({ kind: "source_count", outcome: "refused" }, refused.length);
  await logRefusals(db, ENDPOINT, refused, now);
  const result: SourceCountsResult = {
    received: batch.items.length + batch.refused.length,
    accepted: outcome?.accepted ?? [],
    rejected: refused.map(({ index, issues }) => ({ index, issues })),
    written: outcome?.written ?? { sourceCounts: 0, invalidKeys: 0 },
  };
  return batchResponse(result, batch.refused.length > 0);
}
