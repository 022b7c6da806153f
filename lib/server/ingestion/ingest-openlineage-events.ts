import type { RunEvent } from "@/lib/contracts/openlineage";
import type { Db } from "../db/client";
import { bodiesOfRuns, existingEventHashes, insertIngestedEvents } from "../repositories/ingested-events";
import { applyFoldedRuns, type AppliedCounts } from "./apply-folded-runs";
import { foldRunEvents, runRefOf } from "./fold-run-events";
import type { ParsedEvent } from "./parse-lineage-body";
import { contentHash } from "./stable-id";
import { inOneTransaction } from "./in-one-transaction";

export interface IngestOutcome {
  accepted: { index: number; duplicate: boolean }[];
  written: AppliedCounts & { events: number };
}

/**
 * Stores valid OpenLineage events and everything they imply, in one transaction. An event
 * already stored (same body) is a duplicate and changes nothing; every run an event touches is
 * re-folded from all its stored events, so late or out-of-order events give the same result as
 * events in order.
 */
export async function ingestOpenLineageEvents(db: Db, events: ParsedEvent[], receivedAt: Date): Promise<IngestOutcome> {
  const hashed = events.map((e) => ({ ...e, hash: contentHash(e.json) }));
  return inOneTransaction(db, async (tx) => {
    const stored = await existingEventHashes(tx, [...new Set(hashed.map((e) => e.hash))]);
    const seen = new Set(stored);
    const fresh = hashed.filter((e) => !seen.has(e.hash) && Boolean(seen.add(e.hash)));
    const freshIndexes = new Set(fresh.map((e) => e.index));
    const accepted = hashed.map((e) => ({ index: e.index, duplicate: !freshIndexes.has(e.index) }));
    if (fresh.length === 0) return { accepted, written: { events: 0, runs: 0, attempts: 0, publishes: 0, invalidKeys: 0, edges: 0 } };
    await insertIngestedEvents(tx, fresh.map((e) => ({
      eventHash: e.hash, eventType: e.event.eventType ?? "OTHER", jobNodeId: runRefOf(e.event.job.namespace, e.event.job.name, "").jobNodeId,
      externalRun: e.event.run.runId, eventTime: new Date(e.event.eventTime), receivedAt, body: e.json,
    })));
    const touched = [...new Map(fresh.map((e) => {
      const ref = runRefOf(e.event.job.namespace, e.event.job.name, e.event.run.runId);
      return [`${ref.jobNodeId}\u0000${ref.runId}`, ref];
    })).values()];
    const bodies = await bodiesOfRuns(tx, touched);
    const byRun = new Map<string, RunEvent[]>();
    for (const b of bodies) {
      const key = `${b.jobNodeId}\u0000${b.externalRun}`;
      byRun.set(key, [...(byRun.get(key) ?? []), JSON.parse(b.body) as RunEvent]);
    }
    const counts = await applyFoldedRuns(tx, [...byRun.values()].map(foldRunEvents));
    return { accepted, written: { events: fresh.length, ...counts } };
  });
}
