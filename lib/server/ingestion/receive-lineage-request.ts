import { describeIssues, issueText } from "@/lib/contracts/field-issues";
import { NextResponse } from "next/server";
import type { LineageIngestResult } from "@/lib/contracts/openlineage";
import type { Submitter } from "../auth/roles";
import { getDb, type Db } from "../repositories/database";
import { HttpError } from "../http/errors";
import { textOf, type BodySource } from "../http/read-body";
import { recordRejections } from "../repositories/ingestion/ingested-events";
import { ingestOpenLineageEvents } from "./ingest-openlineage-events";
import { configuredFolding, kickFolding } from "./fold-pending";
import { keepNamespaces, parseLineageBody, type RefusedEvent } from "./parse-lineage-body";

export const LINEAGE_MAX_BODY_BYTES = 16 * 1024 * 1024;
const ENDPOINT = "/api/v1/lineage";

/**
 * POST /api/v1/lineage. 200 when every event was accepted (duplicates included), 207 when a
 * batch was partly refused, 400 when nothing was accepted, 413 for an oversized body. Refused
 * events write nothing but a line in the rejection log the ingestion page shows.
 */
export async function receiveLineageRequest(req: BodySource, db: Db = getDb(), now = new Date(), submitter?: Submitter): Promise<Response> {
  let text: string;
  let parsed: ReturnType<typeof parseLineageBody>;
  try {
    text = await textOf(req, LINEAGE_MAX_BODY_BYTES);
    parsed = keepNamespaces(parseLineageBody(text, now), submitter?.namespaces ?? []);
  } catch (e) {
    if (e instanceof HttpError) await recordRejections(db, [{ endpoint: ENDPOINT, fieldPath: "body", reason: e.message, body: "" }], now);
    throw e;
  }
  const outcome = parsed.events.length > 0 ? await ingestOpenLineageEvents(db, parsed.events, now, submitter, configuredFolding()) : null;
  if (outcome?.folding === "deferred" && outcome.written.events > 0) kickFolding(db, true);
  await recordRejections(
    db,
    parsed.refused.map((r) => rejectionRow(r)),
    now,
  );
  const result: LineageIngestResult = {
    received: parsed.events.length + parsed.refused.length,
    accepted: outcome?.accepted ?? [],
    rejected: parsed.refused.map(({ index, issues }) => ({ index, issues })),
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
  if (!outcome) return refusedResponse(result);
  return NextResponse.json(result, { status: parsed.refused.length > 0 ? 207 : 200 });
}

function refusedResponse(result: LineageIngestResult): Response {
  const issues = result.rejected.flatMap((r) => r.issues);
  const message = describeIssues(issues);
  return NextResponse.json({ error: "invalid_request", message, details: { issues }, ...result }, { status: 400 });
}

export function rejectionRow(r: RefusedEvent) {
  const first = r.issues[0]!;
  return { endpoint: ENDPOINT, fieldPath: first.path, reason: r.issues.map(issueText).join("; "), body: r.excerpt };
}
