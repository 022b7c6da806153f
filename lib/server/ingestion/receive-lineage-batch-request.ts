import { issueText, summarise } from "@/lib/contracts/field-issues";
import { NextResponse } from "next/server";
import type { LineageBatchResult } from "@/lib/contracts/openlineage";
import type { Submitter } from "../auth/roles";
import { getDb, type Db } from "../repositories/database";
import { HttpError } from "../http/errors";
import { textOf, type BodySource } from "../http/read-body";
import { recordRejections } from "../repositories/ingestion/ingested-events";
import { ingestOpenLineageEvents } from "./ingest-openlineage-events";
import { configuredFolding, kickFolding } from "./fold-pending";
import { keepNamespaces, parseEventBatch } from "./parse-lineage-body";
import { LINEAGE_MAX_BODY_BYTES, rejectionRow } from "./receive-lineage-request";

const ENDPOINT = "/api/v1/lineage/batch";

/**
 * POST /api/v1/lineage/batch, as the OpenLineage batch API defines it (OpenLineage #4109): a
 * JSON array of RunEvents, DatasetEvents and JobEvents; 200 with `status` success or
 * partial_success, a `summary` of counts and the `failed_events` by index. A refused event is
 * never retriable (it is refused for what it says; sending it again changes nothing). A batch
 * where nothing is accepted is a 400 with the same body, so a client that only looks at the
 * status still sees it failed; a body that is not an array is a 400 naming `body`.
 */
export async function receiveLineageBatchRequest(req: BodySource, db: Db = getDb(), now = new Date(), submitter?: Submitter): Promise<Response> {
  let parsed: ReturnType<typeof parseEventBatch>;
  try {
    parsed = keepNamespaces(parseEventBatch(await textOf(req, LINEAGE_MAX_BODY_BYTES), now), submitter?.namespaces ?? []);
  } catch (e) {
    if (e instanceof HttpError) await recordRejections(db, [{ endpoint: ENDPOINT, fieldPath: "body", reason: e.message, body: "" }], now);
    throw e;
  }
  const outcome = parsed.events.length > 0 ? await ingestOpenLineageEvents(db, parsed.events, now, submitter, configuredFolding()) : null;
  if (outcome?.folding === "deferred" && outcome.written.events > 0) kickFolding(db, true);
  await recordRejections(
    db,
    parsed.refused.map((r) => ({ ...rejectionRow(r), endpoint: ENDPOINT })),
    now,
  );
  const failed = parsed.refused.map((r) => ({ index: r.index, reason: r.issues.map(issueText).join("; "), retriable: false }));
  const received = parsed.events.length + parsed.refused.length;
  const result: LineageBatchResult = {
    status: failed.length === 0 ? "success" : "partial_success",
    summary: { received, successful: parsed.events.length, failed: failed.length, retriable: 0, non_retriable: failed.length },
    failed_events: failed,
    accepted: outcome?.accepted ?? [],
    written: outcome
      ? {
          events: outcome.written.events,
          runs: outcome.written.runs,
          attempts: outcome.written.attempts,
          publishes: outcome.written.publishes,
          invalidKeys: outcome.written.invalidKeys,
        }
      : { events: 0, runs: 0, attempts: 0, publishes: 0, invalidKeys: 0 },
    folding: outcome?.folding ?? "inline",
  };
  if (!outcome) return NextResponse.json({ error: "invalid_request", message: summarise(failed.map((f) => f.reason)), ...result }, { status: 400 });
  return NextResponse.json(result, { status: 200 });
}
