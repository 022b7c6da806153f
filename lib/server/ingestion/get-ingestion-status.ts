import type { IngestionStatus } from "@/lib/contracts/ingestion";
import { getDb } from "../db/client";
import { ingestionCounts, recentIngestedEvents, recentRejections } from "../repositories/ingested-events";

const RECENT = 25;

/** The last events received and the last refused, newest first, for the ingestion page. */
export async function getIngestionStatus(db = getDb()): Promise<IngestionStatus> {
  const [totals, events, rejections] = await Promise.all([ingestionCounts(db), recentIngestedEvents(db, RECENT), recentRejections(db, RECENT)]);
  return {
    totals,
    recentEvents: events.map((e) => ({
      eventHash: e.eventHash, eventType: e.eventType, jobNodeId: e.jobNodeId, runId: e.externalRun,
      eventTime: e.eventTime.toISOString(), receivedAt: e.receivedAt.toISOString(),
    })),
    rejectedEvents: rejections.map((r) => ({
      id: r.id, receivedAt: r.receivedAt.toISOString(), endpoint: r.endpoint, fieldPath: r.fieldPath, reason: r.reason, excerpt: r.body.slice(0, 200),
    })),
  };
}
