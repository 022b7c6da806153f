import { issueText } from "@/lib/contracts/field-issues";
import type { LineageBatchResult } from "@/lib/contracts/openlineage";
import type { Db } from "../repositories/database";
import { recordRejections } from "../repositories/ingestion/ingested-events";
import { outcomeOf, type IngestionInput, type IngestionOutcome } from "./ingestion-outcome";
import { keepNamespaces, parseEventBatch } from "./parse-lineage-body";
import { refusedWholeLogged } from "./read-ingestion-batch";
import { ingestParsed, rejectionRow, writtenOf } from "./receive-lineage";

export const LINEAGE_BATCH_ENDPOINT = "/api/v1/lineage/batch";

/**
 * POST /api/v1/lineage/batch's use case, as the OpenLineage batch API defines it (OpenLineage
 * #4109): a JSON array of RunEvents, DatasetEvents and JobEvents; `status` success or
 * partial_success, a `summary` of counts and the `failed_events` by index. A refused event is
 * never retriable (it is refused for what it says; sending it again changes nothing). A body that
 * is not an array is refused whole (MalformedInputError naming `body`).
 */
export async function receiveLineageBatch(db: Db, input: IngestionInput, now: Date): Promise<IngestionOutcome<LineageBatchResult>> {
  const parsed = await refusedWholeLogged(db, LINEAGE_BATCH_ENDPOINT, now, () =>
    keepNamespaces(parseEventBatch(input.text, now), input.submitter?.namespaces ?? []),
  );
  const outcome = await ingestParsed(db, parsed, input, now);
  await recordRejections(
    db,
    parsed.refused.map((r) => ({ ...rejectionRow(r), endpoint: LINEAGE_BATCH_ENDPOINT })),
    now,
  );
  const failed = parsed.refused.map((r) => ({ index: r.index, reason: r.issues.map(issueText).join("; "), retriable: false }));
  const received = parsed.events.length + parsed.refused.length;
  const result: LineageBatchResult = {
    status: failed.length === 0 ? "success" : "partial_success",
    summary: { received, successful: parsed.events.length, failed: failed.length, retriable: 0, non_retriable: failed.length },
    failed_events: failed,
    accepted: outcome?.accepted ?? [],
    written: writtenOf(outcome),
    folding: outcome?.folding ?? "inline",
  };
  return outcomeOf(result, parsed.events.length, failed.length, true);
}
