import type { IngestionStatus } from "@/lib/contracts/ingestion";
import type { LineageProblem } from "@/lib/domain/lineage-graph";
import { getDb } from "../repositories/database";
import { loadLineageGraph } from "../lineage/load-lineage-graph";
import { pendingFoldLag } from "../repositories/ingestion/pending-folds";
import { ingestionCounts, recentIngestedEvents, recentRejections } from "../repositories/ingestion/ingested-events";

const RECENT = 25;

/**
 * The last events received and the last refused, newest first, and what the current lineage
 * holds that closures cannot take as declared, for the ingestion page.
 */
export async function getIngestionStatus(db = getDb(), now = new Date()): Promise<IngestionStatus> {
  const [totals, unfolded, events, rejections, lineage] = await Promise.all([
    ingestionCounts(db),
    pendingFoldLag(db),
    recentIngestedEvents(db, RECENT),
    recentRejections(db, RECENT),
    loadLineageGraph(db, now),
  ]);
  return {
    lineageProblems: lineage.graph.problems.map((p) => ({ code: p.code, message: p.message, nodeIds: nodesOf(p) })),
    totals: { ...totals, unfolded: unfolded.events },
    recentEvents: events.map((e) => ({
      eventHash: e.eventHash,
      eventType: e.eventType,
      jobNodeId: e.jobNodeId,
      runId: e.externalRun,
      eventTime: e.eventTime.toISOString(),
      receivedAt: e.receivedAt.toISOString(),
      submittedBy: e.submittedBy,
    })),
    rejectedEvents: rejections.map((r) => ({
      id: r.id,
      receivedAt: r.receivedAt.toISOString(),
      endpoint: r.endpoint,
      fieldPath: r.fieldPath,
      reason: r.reason,
      excerpt: r.body.slice(0, 200),
    })),
  };
}

function nodesOf(p: LineageProblem): string[] {
  switch (p.code) {
    case "degraded_edge":
      return [p.task, p.dataset];
    case "cycle_cut":
      return [...new Set(p.cycle)];
    default:
      return [p.node];
  }
}
