import { submitterOf } from "../auth/submitter-of";
import type { DatasetEvent, JobEvent, RunEvent } from "@/lib/contracts/openlineage";
import { formatNodeId } from "@/lib/domain/ids";
import type { Db, Tx } from "../repositories/database";
import { ensureDatasets, ensureTasks } from "../repositories/lineage/catalog-writes";
import {
  acceptIngestedEvents,
  bodiesOfRuns,
  insertIngestedEvents,
  lockRunLinking,
  lockRuns,
  storedRunsOfJobs,
  type IngestedEventRow,
} from "../repositories/ingestion/ingested-events";
import { claimPendingEvents, type ClaimedEvent } from "../repositories/ingestion/pending-folds";
import { forgetDerivedRows, publishKeysOfRuns } from "../repositories/ledger/ingested-runs";
import { taskNodeIdsTouching } from "../repositories/lineage/lineage-edges";
import type { Submitter } from "../auth/roles";
import { applyFoldedRuns, applyObservedLineage, type AppliedCounts } from "./apply-folded-runs";
import { foldRunEvents, hasParent, runRefOfEvent, type FoldedRun } from "./fold-run-events";
import type { ParsedEvent, ParsedRunEvent } from "./parse-lineage-body";
import { contentHash, runRowId } from "./stable-id";
import { inOneTransaction } from "./in-one-transaction";
import { mayPublishHeldUnits } from "../incidents/held-units";
import { metrics } from "../observability/metrics";
import { compositeKey as pairKey } from "@/lib/domain/composite-key";

export interface IngestOutcome {
  accepted: { index: number; duplicate: boolean }[];
  written: AppliedCounts & { events: number };
  /** Inline: what the events imply is written too. Deferred: the events are stored and queued for the fold job. */
  folding: Folding;
}

/**
 * How an accepted event's consequences are written. Inline (the default): in the request's own
 * transaction, so its answer counts the runs, attempts and publishes written. Deferred
 * (REPARO_INGEST_FOLD=deferred, for the many-console deployment): the request stores the events
 * and queues them (PendingFold) in one statement, and the fold job writes what they imply
 * moments later, in large batches — the producer is not held up by the folding, and one fold of
 * many requests' events costs far fewer round trips than a fold per request.
 */
export type Folding = "inline" | "deferred";

const NOTHING: AppliedCounts = { runs: 0, attempts: 0, publishes: 0, invalidKeys: 0, edges: 0 };

type Hashed = ParsedEvent & { hash: string };

/**
 * Stores valid OpenLineage events and everything they imply, in one transaction (or, deferred,
 * stores and queues them for the fold job: foldPendingEvents writes the rest). An event
 * already stored (same body) is a duplicate and changes nothing. Every run a RunEvent touches is
 * re-folded from all its stored events, so late or out-of-order events give the same result as
 * events in order. A JobEvent declares the job's inputs and outputs at its time (design-time
 * lineage, as authoritative as a completed run); a DatasetEvent makes the dataset known.
 */
export async function ingestOpenLineageEvents(
  db: Db,
  events: ParsedEvent[],
  receivedAt: Date,
  submitter?: Submitter,
  requested: Folding = "inline",
): Promise<IngestOutcome> {
  // A person who may not publish a held unit has each request checked as it comes (403): inline.
  const folding: Folding = requested === "deferred" && mayPublishHeldUnits(submitter) ? "deferred" : "inline";
  const hashed: Hashed[] = events.map((e) => ({ ...e, hash: contentHash(e.json) }));
  const seen = new Set<string>();
  const candidates = hashed.filter((e) => !seen.has(e.hash) && Boolean(seen.add(e.hash)));
  const rowOf = (e: Hashed) => storedRow(e, receivedAt, submitter?.id ?? null);
  const outcomeOf = (inserted: Set<string>) => {
    const fresh = candidates.filter((e) => inserted.has(e.hash));
    const freshIndexes = new Set(fresh.map((e) => e.index));
    return { fresh, accepted: hashed.map((e) => ({ index: e.index, duplicate: !freshIndexes.has(e.index) })) };
  };
  // Deferred: stored and queued in one short statement; the fold job writes the rest.
  const acceptDeferred = async (): Promise<IngestOutcome> => {
    const { fresh, accepted } = outcomeOf(await acceptIngestedEvents(db, candidates.map(rowOf), receivedAt));
    return { accepted, written: { events: fresh.length, ...NOTHING }, folding };
  };
  const outcome =
    folding === "deferred"
      ? await acceptDeferred()
      : await inOneTransaction(db, async (tx): Promise<IngestOutcome> => {
          // Only what this transaction really inserted is fresh: an event stored earlier, or by a
          // concurrent request, is skipped by the insert (ON CONFLICT DO NOTHING) and is a duplicate.
          const { fresh, accepted } = outcomeOf(candidates.length > 0 ? await insertIngestedEvents(tx, candidates.map(rowOf)) : new Set<string>());
          const written = { events: fresh.length, ...NOTHING };
          if (fresh.length === 0) return { accepted, written, folding };
          const runCounts = await refoldRuns(
            tx,
            fresh.filter((e): e is ParsedRunEvent & { hash: string } => e.kind === "RunEvent"),
            submitter,
          );
          const jobEdges = await applyJobEvents(
            tx,
            fresh.flatMap((e) => (e.kind === "JobEvent" ? [{ event: e.event, hash: e.hash }] : [])),
          );
          const datasetEvents = fresh.flatMap((e) => (e.kind === "DatasetEvent" ? [e.event.dataset] : []));
          await ensureDatasets(
            tx,
            datasetEvents.map((d) => ({ nodeId: formatNodeId("dataset", d.namespace, d.name), namespace: d.namespace, name: d.name })),
          );
          return { accepted, written: { ...written, ...runCounts, edges: runCounts.edges + jobEdges }, folding };
        });
  const stored = outcome.written.events;
  metrics().ingested.inc({ kind: "event", outcome: "stored" }, stored);
  metrics().ingested.inc({ kind: "event", outcome: "duplicate" }, outcome.accepted.length - stored);
  return outcome;
}

/**
 * The stored row: a dataset event is filed under its dataset's node id, a job event under its
 * job's, with no run. One literal per row (no spreads of a partial row: a burst's rows are many).
 */
function storedRow(e: Hashed, receivedAt: Date, submittedBy: string | null): IngestedEventRow {
  let eventType: string;
  let jobNodeId: string;
  let externalRun = "";
  switch (e.kind) {
    case "RunEvent": {
      // A dbt-ol statement is filed under its node's run (dbtStatementParent).
      const ref = runRefOfEvent(e.raw as RunEvent);
      eventType = e.event.eventType ?? "OTHER";
      jobNodeId = ref.jobNodeId;
      externalRun = ref.runId;
      break;
    }
    case "JobEvent":
      eventType = "JOB";
      jobNodeId = formatNodeId("job", e.event.job.namespace, e.event.job.name);
      break;
    case "DatasetEvent":
      eventType = "DATASET";
      jobNodeId = formatNodeId("dataset", e.event.dataset.namespace, e.event.dataset.name);
      break;
  }
  return { eventHash: e.hash, eventTime: new Date(e.event.eventTime), receivedAt, body: e.json, eventType, jobNodeId, externalRun, submittedBy };
}

async function refoldRuns(tx: Tx, fresh: (ParsedRunEvent & { hash: string })[], submitter: Submitter | undefined): Promise<AppliedCounts> {
  if (fresh.length === 0) return NOTHING;
  const touched = [
    ...new Map(
      fresh.map((e) => {
        const ref = runRefOfEvent(e.raw as RunEvent);
        return [pairKey(ref.jobNodeId, ref.runId), ref];
      }),
    ).values(),
  ];
  if (fresh.some((e) => hasParent(e.raw as RunEvent))) await lockRunLinking(tx);
  await lockRuns(tx, touched);
  // This request's events are folded as parsed; only a run's earlier events are read back.
  const bodies = await bodiesOfRuns(
    tx,
    touched,
    fresh.map((e) => e.hash),
  );
  const added = fresh.map((e) => {
    const ref = runRefOfEvent(e.raw as RunEvent);
    return { key: pairKey(ref.jobNodeId, ref.runId), event: e.raw as RunEvent };
  });
  return applyFoldedRuns(tx, foldedRuns(bodies, added), submitter);
}

/**
 * The fold job's step (deferred folding): takes up to `limit` of the oldest queued events and
 * writes what they imply, in one transaction — the same writes an inline request makes. A run is
 * folded whole from all its stored events (under its lock), so events of one run taken by two
 * consoles' folds at once, or in either order, give the same result. Answers how many events it
 * took (0: nothing was queued).
 */
export async function foldPendingEvents(db: Db, limit: number): Promise<{ events: number; written: AppliedCounts }> {
  return inOneTransaction(db, async (tx) => {
    const claimed = await claimPendingEvents(tx, limit);
    if (claimed.length === 0) return { events: 0, written: NOTHING };
    // Job and dataset events come with their bodies (a body pruned by retention is "": nothing to
    // fold); a run event's run is read whole below, its body parsed once there.
    const parsed = (r: ClaimedEvent) => (r.body ? (JSON.parse(r.body) as unknown) : null);
    const runEvents = claimed.filter((r) => r.eventType !== "JOB" && r.eventType !== "DATASET");
    // Publishes are recorded as sent by whoever sent the run's newest queued event.
    const runs = new Map<string, { jobNodeId: string; runId: string; submittedBy: string | null }>();
    for (const r of runEvents) runs.set(pairKey(r.jobNodeId, r.externalRun), { jobNodeId: r.jobNodeId, runId: r.externalRun, submittedBy: r.submittedBy });
    const refs = [...runs.values()];
    if (runEvents.some((r) => r.mentionsParent)) await lockRunLinking(tx);
    await lockRuns(tx, refs);
    const bySender = new Map<string | null, typeof refs>();
    for (const ref of refs) {
      const some = bySender.get(ref.submittedBy);
      if (some) some.push(ref);
      else bySender.set(ref.submittedBy, [ref]);
    }
    let written = NOTHING;
    for (const [submittedBy, some] of bySender) {
      const counts = await applyFoldedRuns(tx, foldedRuns(await bodiesOfRuns(tx, some), []), undefined, submittedBy);
      written = addCounts(written, counts);
    }
    const jobEdges = await applyJobEvents(
      tx,
      claimed.flatMap((r) => {
        const event = r.eventType === "JOB" ? parsed(r) : null;
        return event ? [{ event: event as JobEvent, hash: r.eventHash }] : [];
      }),
    );
    const datasets = claimed.flatMap((r) => {
      const event = r.eventType === "DATASET" ? parsed(r) : null;
      return event ? [(event as DatasetEvent).dataset] : [];
    });
    await ensureDatasets(
      tx,
      datasets.map((d) => ({ nodeId: formatNodeId("dataset", d.namespace, d.name), namespace: d.namespace, name: d.name })),
    );
    return { events: claimed.length, written: { ...written, edges: written.edges + jobEdges } };
  });
}

function addCounts(a: AppliedCounts, b: AppliedCounts): AppliedCounts {
  const held = (a.held ?? 0) + (b.held ?? 0);
  return {
    runs: a.runs + b.runs,
    attempts: a.attempts + b.attempts,
    publishes: a.publishes + b.publishes,
    invalidKeys: a.invalidKeys + b.invalidKeys,
    edges: a.edges + b.edges,
    ...(held > 0 ? { held } : {}),
  };
}

/**
 * Folds every stored run of the jobs that read or write a dataset again, from their stored
 * events: its partition definition changed, so the units their outputs and inputs name do too —
 * whether the events came before the definition (their keys were `*` or invalid) or after (a
 * narrower, wider or other-zoned definition). What those runs implied before is forgotten first
 * (forgetDerivedRows) and written again under the new keys; a run with events past retention is
 * left as recorded. Counts what moved: the runs refolded, the publishes that were not there
 * before, and those left out because an open incident holds their unit.
 */
export async function refoldDatasetRuns(tx: Tx, datasetId: string): Promise<AppliedCounts & { refolded: number; moved: number }> {
  const refs = await storedRunsOfJobs(tx, await taskNodeIdsTouching(tx, datasetId));
  if (refs.length === 0) return { ...NOTHING, refolded: 0, moved: 0 };
  await lockRuns(tx, refs);
  const bodies = await bodiesOfRuns(tx, refs);
  const pruned = new Set(bodies.filter((b) => b.body === "").map((b) => pairKey(b.jobNodeId, b.externalRun)));
  const kept = bodies.filter((b) => !pruned.has(pairKey(b.jobNodeId, b.externalRun)));
  const runIds = [...new Set(kept.map((b) => runRowId(b.jobNodeId, b.externalRun)))];
  const before = new Set((await forgetDerivedRows(tx, runIds)).map((p) => pairKey(p.datasetId, p.unitKey)));
  // Each run with the rights of whoever sent its newest event: a unit an open incident holds is
  // not published by folding again what a person below commander sent while its key was invalid.
  const senderOf = new Map(kept.map((b) => [pairKey(b.jobNodeId, b.externalRun), b.submittedBy]));
  const bySender = new Map<string | null, typeof kept>();
  for (const b of kept) {
    const sender = senderOf.get(pairKey(b.jobNodeId, b.externalRun)) ?? null;
    bySender.set(sender, [...(bySender.get(sender) ?? []), b]);
  }
  let written: AppliedCounts = NOTHING;
  let refolded = 0;
  for (const [submittedBy, some] of bySender) {
    const runs = foldedRuns(some, []);
    refolded += runs.length;
    written = addCounts(written, await applyFoldedRuns(tx, runs, await submitterOf(tx, submittedBy), submittedBy, { held: "skip" }));
  }
  const after = await publishKeysOfRuns(tx, runIds);
  const moved = after.filter((k) => !before.has(pairKey(k.datasetId, k.unitKey))).length;
  return { ...written, refolded, moved };
}

/**
 * Each run's events, stored and new, folded. A run with events past retention (body pruned) is
 * kept as it was recorded: folding it from the events that remain would undo what the pruned ones
 * said (a COMPLETE, its outputs).
 */
function foldedRuns(bodies: { jobNodeId: string; externalRun: string; body: string }[], added: { key: string; event: RunEvent }[]) {
  const byRun = new Map<string, RunEvent[]>();
  const pruned = new Set(bodies.filter((b) => b.body === "").map((b) => pairKey(b.jobNodeId, b.externalRun)));
  const add = (key: string, event: RunEvent) => {
    if (pruned.has(key)) return;
    const events = byRun.get(key);
    if (events) events.push(event);
    else byRun.set(key, [event]);
  };
  for (const b of bodies) if (b.body !== "") add(pairKey(b.jobNodeId, b.externalRun), JSON.parse(b.body) as RunEvent);
  for (const a of added) add(a.key, a.event);
  return [...byRun.values()].map(foldRunEvents).filter((r): r is FoldedRun => r !== null);
}

/** A JobEvent's inputs and outputs are the job's edges from its event time, as a completed run's would be. */
async function applyJobEvents(tx: Tx, events: { event: JobEvent; hash: string }[]): Promise<number> {
  if (events.length === 0) return 0;
  const ref = (ns: string, name: string, kind: "job" | "dataset") => ({ nodeId: formatNodeId(kind, ns, name), namespace: ns, name });
  const tasks = await ensureTasks(
    tx,
    events.map(({ event }) => ref(event.job.namespace, event.job.name, "job")),
  );
  const datasets = await ensureDatasets(
    tx,
    events.flatMap(({ event }) => [...(event.inputs ?? []), ...(event.outputs ?? [])].map((d) => ref(d.namespace, d.name, "dataset"))),
  );
  const idOf = (d: { namespace: string; name: string }) => datasets.get(formatNodeId("dataset", d.namespace, d.name))!.id;
  return applyObservedLineage(
    tx,
    events.map(({ event, hash }) => ({
      runId: `jobevent:${hash.slice(0, 32)}`,
      taskId: tasks.get(formatNodeId("job", event.job.namespace, event.job.name))!.id,
      at: Date.parse(event.eventTime),
      authoritative: true,
      edges: [
        ...(event.inputs ?? []).map((d) => ({ datasetId: idOf(d), direction: "read" as const })),
        ...(event.outputs ?? []).map((d) => ({ datasetId: idOf(d), direction: "write" as const })),
      ],
    })),
  );
}
