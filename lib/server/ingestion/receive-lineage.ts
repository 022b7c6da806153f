import { issueText } from "@/lib/contracts/field-issues";
import type { LineageIngestResult } from "@/lib/contracts/openlineage";
import type { Db } from "../repositories/database";
import { recordRejections } from "../repositories/ingestion/ingested-events";
import { ingestOpenLineageEvents, type IngestOutcome } from "./ingest-openlineage-events";
import { configuredFolding, kickFolding } from "./fold-pending";
import { outcomeOf, type IngestionInput, type IngestionOutcome } from "./ingestion-outcome";
import { keepNamespaces, parseLineageBody, type ParsedLineageBody, type RefusedEvent } from "./parse-lineage-body";
import { refusedWholeLogged } from "./read-ingestion-batch";

export const LINEAGE_MAX_BODY_BYTES = 16 * 1024 * 1024;
export const LINEAGE_ENDPOINT = "/api/v1/lineage";

/**
 * POST /api/v1/lineage's use case: the events of one body (one event, a JSON array, or NDJSON),
 * each accepted (a duplicate included) or refused naming its field. A body that cannot be read as
 * events is refused whole (MalformedInputError). Refused events write nothing but a line in the
 * rejection log the ingestion page shows.
 */
export async function receiveLineage(db: Db, input: IngestionInput, now: Date): Promise<IngestionOutcome<LineageIngestResult>> {
  const parsed = await refusedWholeLogged(db, LINEAGE_ENDPOINT, now, () =>
    keepNamespaces(parseLineageBody(input.text, now), input.submitter?.namespaces ?? []),
  );
  const outcome = await ingestParsed(db, parsed, input, now);
  await recordRejections(
    db,
    parsed.refused.map((r) => rejectionRow(r)),
    now,
  );
  const result: LineageIngestResult = {
    received: parsed.events.length + parsed.refused.length,
    accepted: outcome?.accepted ?? [],
    rejected: parsed.refused.map(({ index, issues }) => ({ index, issues })),
    written: writtenOf(outcome),
    folding: outcome?.folding ?? "inline",
  };
  return outcomeOf(result, parsed.events.length, parsed.refused.length, true);
}

/** The accepted events written (folded inline, or stored and the fold thread kicked); null when none was accepted. */
export async function ingestParsed(db: Db, parsed: ParsedLineageBody, input: IngestionInput, now: Date): Promise<IngestOutcome | null> {
  const outcome = parsed.events.length > 0 ? await ingestOpenLineageEvents(db, parsed.events, now, input.submitter, configuredFolding()) : null;
  if (outcome?.folding === "deferred" && outcome.written.events > 0) kickFolding(db, true);
  return outcome;
}

export function writtenOf(outcome: IngestOutcome | null): LineageIngestResult["written"] {
  if (!outcome) return { events: 0, runs: 0, attempts: 0, publishes: 0, invalidKeys: 0 };
  const { events, runs, attempts, publishes, invalidKeys } = outcome.written;
  return { events, runs, attempts, publishes, invalidKeys };
}

export function rejectionRow(r: RefusedEvent) {
  const first = r.issues[0]!;
  return { endpoint: LINEAGE_ENDPOINT, fieldPath: first.path, reason: r.issues.map(issueText).join("; "), body: r.excerpt };
}
