import { SourceCountEntrySchema, type SourceCountsResult, type WarehouseCountsResult } from "@/lib/contracts/ingestion-ledger";
import type { Db } from "../repositories/database";
import type { CountTable } from "../repositories/ledger/row-counts";
import { applyCounts, type CountsOutcome } from "./apply-counts";
import { inOneTransaction } from "./in-one-transaction";
import { outcomeOf, type IngestionInput, type IngestionOutcome } from "./ingestion-outcome";
import { metrics } from "../observability/metrics";
import { allRefusals, logRefusals, readIngestionBatch, refNamespace } from "./read-ingestion-batch";

export const SOURCE_COUNTS_ENDPOINT = "/api/v1/source-counts";
export const WAREHOUSE_COUNTS_ENDPOINT = "/api/v1/warehouse-counts";

/** The framing both count endpoints share (one object or an array; one transaction; latest measurement wins). */
async function receiveCounts(table: CountTable, endpoint: string, metric: string, db: Db, input: IngestionInput, now: Date) {
  const { submitter } = input;
  const batch = await readIngestionBatch(input.text, db, endpoint, SourceCountEntrySchema, now, (c) => ({ measuredAt: c.measuredAt }), {
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
  const written = outcome?.written ?? { counts: 0, invalidKeys: 0 };
  return { base, written, judged: <R>(result: R) => outcomeOf(result, base.accepted.length, refused.length, batch.refused.length > 0) };
}

/** POST /api/v1/source-counts's use case: the source of truth's row count per (dataset, unit), for reconciliation. */
export async function receiveSourceCounts(db: Db, input: IngestionInput, now: Date): Promise<IngestionOutcome<SourceCountsResult>> {
  const { base, written, judged } = await receiveCounts("SourceCount", SOURCE_COUNTS_ENDPOINT, "source_count", db, input, now);
  return judged<SourceCountsResult>({ ...base, written: { sourceCounts: written.counts, invalidKeys: written.invalidKeys } });
}

/**
 * POST /api/v1/warehouse-counts's use case: the rows a unit holds in its own warehouse, as the
 * team counted them — measured evidence where Reparo has no warehouse connection (a unit declared
 * cleaned outside Reparo lifts its append blocker only once a count after the cleaning shows it empty).
 */
export async function receiveWarehouseCounts(db: Db, input: IngestionInput, now: Date): Promise<IngestionOutcome<WarehouseCountsResult>> {
  const { base, written, judged } = await receiveCounts("WarehouseCount", WAREHOUSE_COUNTS_ENDPOINT, "warehouse_count", db, input, now);
  return judged<WarehouseCountsResult>({ ...base, written: { warehouseCounts: written.counts, invalidKeys: written.invalidKeys } });
}
