import type { BodySource } from "../http/read-body";
import { SourceCountEntrySchema, type SourceCountsResult, type WarehouseCountsResult } from "@/lib/contracts/ingestion-ledger";
import type { Submitter } from "../auth/roles";
import { getDb, type Db } from "../repositories/database";
import type { CountTable } from "../repositories/ledger/row-counts";
import { applyCounts, type CountsOutcome } from "./apply-counts";
import { inOneTransaction } from "./in-one-transaction";
import { metrics } from "../observability/metrics";
import { allRefusals, batchResponse, logRefusals, readIngestionBatch, refNamespace } from "./read-ingestion-batch";

/** The framing both count endpoints share (one object or an array; one transaction; latest measurement wins). */
async function receiveCounts(table: CountTable, endpoint: string, metric: string, req: BodySource, db: Db, now: Date, submitter?: Submitter) {
  const batch = await readIngestionBatch(req, db, endpoint, SourceCountEntrySchema, now, (c) => ({ measuredAt: c.measuredAt }), {
    namespaces: submitter?.namespaces ?? [],
    of: (c) => [["dataset", refNamespace(c.dataset)]],
  });
  const outcome: CountsOutcome | null =
    batch.items.length > 0
      ? await inOneTransaction(db, (tx) =>
          applyCounts(tx, table, batch.items, batch.pathOf, now, submitter ? { id: submitter.id, role: submitter.role } : null),
        )
      : null;
  const refused = allRefusals(batch, outcome?.refused ?? []);
  metrics().ingested.inc({ kind: metric, outcome: "accepted" }, outcome?.accepted.length ?? 0);
  metrics().ingested.inc({ kind: metric, outcome: "refused" }, refused.length);
  await logRefusals(db, endpoint, refused, now);
  const base = {
    received: batch.items.length + batch.refused.length,
    accepted: outcome?.accepted ?? [],
    rejected: refused.map(({ index, issues }) => ({ index, issues })),
  };
  return { base, written: outcome?.written ?? { counts: 0, invalidKeys: 0 }, malformed: batch.refused.length > 0 };
}

/** POST /api/v1/source-counts: the source of truth's row count per (dataset, unit), for reconciliation. */
export async function receiveSourceCountsRequest(req: BodySource, db: Db = getDb(), now = new Date(), submitter?: Submitter): Promise<Response> {
  const { base, written, malformed } = await receiveCounts("SourceCount", "/api/v1/source-counts", "source_count", req, db, now, submitter);
  const result: SourceCountsResult = { ...base, written: { sourceCounts: written.counts, invalidKeys: written.invalidKeys } };
  return batchResponse(result, malformed);
}

/**
 * POST /api/v1/warehouse-counts: the rows a unit holds in its own warehouse, as the team counted
 * them — measured evidence where Reparo has no warehouse connection (a unit declared cleaned
 * outside Reparo lifts its append blocker only once a count after the cleaning shows it empty).
 */
export async function receiveWarehouseCountsRequest(req: BodySource, db: Db = getDb(), now = new Date(), submitter?: Submitter): Promise<Response> {
  const { base, written, malformed } = await receiveCounts("WarehouseCount", "/api/v1/warehouse-counts", "warehouse_count", req, db, now, submitter);
  const result: WarehouseCountsResult = { ...base, written: { warehouseCounts: written.counts, invalidKeys: written.invalidKeys } };
  return batchResponse(result, malformed);
}
