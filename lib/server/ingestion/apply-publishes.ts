import type { FieldIssue } from "@/lib/contracts/openlineage";
import type { PublishEntry } from "@/lib/contracts/ingestion-ledger";
import type { Tx } from "../repositories/database";
import { ensureDatasets, ensureTasks, type NodeRef } from "../repositories/lineage/catalog-writes";
import { partitionDefsByNodeId } from "../repositories/lineage/catalog-reads";
import { publishesByIds, type StoredPublish } from "../repositories/ledger/ingested-runs";
import {
  appendPublishes,
  reportInvalidKeys,
  runsByIds,
  upsertRuns,
  type InvalidKeyRow,
  type PublishRow,
  type RunRow,
} from "../repositories/ledger/ingested-runs";
import { applyObservedLineage } from "./apply-folded-runs";
import type { BatchItem } from "./read-ingestion-batch";
import { nodeRefOf } from "./node-refs";
import { UnitKeyResolver } from "./resolve-unit-keys";
import type { Submitter } from "../auth/roles";
import { heldDatasetUnits, heldKey, heldMessage, mayPublishHeldUnits } from "../incidents/held-units";
import { runRowId, stableId } from "./stable-id";

interface Planned {
  index: number;
  entry: PublishEntry;
  dataset: NodeRef;
  job: NodeRef;
  unitKey: string;
  runId: string;
  publishId: string;
}

export interface PublishesOutcome {
  accepted: { index: number; publishId: string; duplicate: boolean }[];
  refused: { index: number; issues: FieldIssue[] }[];
  written: { publishes: number; runs: number; invalidKeys: number };
}

/**
 * Publish id: the client's idempotency key when sent, else the natural key — dataset, unit, run
 * and publishedAt. Re-sending either is a duplicate; the same id with different values is
 * refused (the ledger is append-only: a correction is a new publish with a new publishedAt).
 */
export const publishIdOf = (e: PublishEntry, datasetNodeId: string, unitKey: string, runId: string): string =>
  e.idempotencyKey !== undefined
    ? stableId("apipubk", e.idempotencyKey)
    : stableId("apipub", datasetNodeId, unitKey, runId, new Date(e.publishedAt).toISOString());

/** Applies well-formed ledger entries in the caller's transaction; refused entries write nothing but their invalid key. */
export async function applyPublishes(
  tx: Tx,
  items: BatchItem<PublishEntry>[],
  pathOf: (i: number) => string,
  now: Date,
  submitter?: Submitter,
): Promise<PublishesOutcome> {
  const refused: PublishesOutcome["refused"] = [];
  const invalidKeys: InvalidKeyRow[] = [];
  const planned = await withoutHeldUnits(tx, await planEntries(tx, items, pathOf, refused, invalidKeys, now), pathOf, refused, submitter);
  const stored = await publishesByIds(
    tx,
    planned.map((p) => p.publishId),
  );
  const accepted: PublishesOutcome["accepted"] = [];
  const fresh: Planned[] = [];
  for (const p of planned) {
    const before = stored.get(p.publishId);
    const conflict = before ? conflictOf(before, p) : null;
    if (conflict)
      refused.push({
        index: p.index,
        issues: [{ path: `${pathOf(p.index)}.${p.entry.idempotencyKey !== undefined ? "idempotencyKey" : "publishedAt"}`, message: conflict }],
      });
    else {
      accepted.push({ index: p.index, publishId: p.publishId, duplicate: Boolean(before) });
      if (!before) {
        fresh.push(p);
        stored.set(p.publishId, storedOf(p));
      }
    }
  }
  const written = await writeFresh(tx, fresh, submitter?.id ?? null);
  return { accepted, refused: refused.sort((a, b) => a.index - b.index), written: { ...written, invalidKeys: await reportInvalidKeys(tx, invalidKeys) } };
}

/** A person below commander may not publish a unit an open incident holds (incidents/held-units.ts). */
async function withoutHeldUnits(
  tx: Tx,
  planned: Planned[],
  pathOf: (i: number) => string,
  refused: PublishesOutcome["refused"],
  submitter: Submitter | undefined,
): Promise<Planned[]> {
  if (mayPublishHeldUnits(submitter)) return planned;
  const held = await heldDatasetUnits(tx);
  return planned.filter((p) => {
    const h = held.get(heldKey(p.dataset.nodeId, p.unitKey));
    if (h) refused.push({ index: p.index, issues: [{ path: `${pathOf(p.index)}.unitKey`, message: heldMessage(submitter!, p.dataset.nodeId, p.unitKey, h) }] });
    return !h;
  });
}

async function planEntries(
  tx: Tx,
  items: BatchItem<PublishEntry>[],
  pathOf: (i: number) => string,
  refused: PublishesOutcome["refused"],
  invalidKeys: InvalidKeyRow[],
  now: Date,
): Promise<Planned[]> {
  const refs = items.map((it) => ({ it, dataset: nodeRefOf("dataset", it.value.dataset), job: nodeRefOf("job", it.value.run.job) }));
  const defs = await partitionDefsByNodeId(
    tx,
    refs.flatMap((r) => (r.dataset ? [r.dataset.nodeId] : [])),
  );
  const resolver = new UnitKeyResolver();
  const planned: Planned[] = [];
  for (const { it, dataset, job } of refs) {
    const p = pathOf(it.index);
    if (!dataset || !job) {
      refused.push({
        index: it.index,
        issues: [{ path: dataset ? `${p}.run.job.nodeId` : `${p}.dataset.nodeId`, message: "is not a node id of the right kind" }],
      });
      continue;
    }
    const [verdict] = resolver.resolve(dataset.nodeId, defs.get(dataset.nodeId) ?? { kind: "none" }, [it.value.unitKey]);
    if (!verdict!.valid) {
      refused.push({ index: it.index, issues: [{ path: `${p}.unitKey`, message: `invalid unit key: ${verdict!.reason}` }] });
      invalidKeys.push({ nodeId: dataset.nodeId, unitKey: it.value.unitKey, reason: verdict!.reason, source: "api", runId: null, observedAt: now });
      continue;
    }
    const runId = runRowId(job.nodeId, it.value.run.externalId);
    planned.push({
      index: it.index,
      entry: it.value,
      dataset,
      job,
      unitKey: verdict!.key,
      runId,
      publishId: publishIdOf(it.value, dataset.nodeId, verdict!.key, runId),
    });
  }
  return planned;
}

const storedOf = (p: Planned): StoredPublish => ({
  id: p.publishId,
  datasetNodeId: p.dataset.nodeId,
  unitKey: p.unitKey,
  runId: p.runId,
  publishedAt: new Date(p.entry.publishedAt),
  inputVersion: p.entry.inputVersion,
  codeVersion: p.entry.codeVersion,
  rowCount: p.entry.rowCount,
});

function conflictOf(before: StoredPublish, p: Planned): string | null {
  const now = storedOf(p);
  const differs: string[] = (["datasetNodeId", "unitKey", "runId", "inputVersion", "codeVersion", "rowCount"] as const).filter((f) => before[f] !== now[f]);
  if (before.publishedAt.getTime() !== now.publishedAt.getTime()) differs.push("publishedAt");
  if (differs.length === 0) return null;
  const what =
    p.entry.idempotencyKey !== undefined ? "this idempotency key is already used by" : "the same dataset, unit, run and publishedAt are already recorded in";
  return `${what} a publish with a different ${differs.join(", ")} (the ledger is append-only: publish a correction with a new publishedAt)`;
}

async function writeFresh(tx: Tx, fresh: Planned[], submittedBy: string | null): Promise<{ publishes: number; runs: number }> {
  if (fresh.length === 0) return { publishes: 0, runs: 0 };
  const datasets = await ensureDatasets(
    tx,
    fresh.map((p) => p.dataset),
  );
  const tasks = await ensureTasks(
    tx,
    fresh.map((p) => p.job),
  );
  const storedRuns = await runsByIds(tx, [...new Set(fresh.map((p) => p.runId))]);
  const newRuns = new Map<string, RunRow>();
  for (const p of fresh) if (!storedRuns.has(p.runId)) newRuns.set(p.runId, mergeRun(newRuns.get(p.runId), p, tasks.get(p.job.nodeId)!.pipelineId));
  const runs = await upsertRuns(tx, [...newRuns.values()], storedRuns);
  const rows: PublishRow[] = fresh.map((p) => ({
    id: p.publishId,
    datasetId: datasets.get(p.dataset.nodeId)!.id,
    unitKey: p.unitKey,
    runId: p.runId,
    attemptId: null,
    publishedAt: new Date(p.entry.publishedAt),
    inputVersion: p.entry.inputVersion,
    codeVersion: p.entry.codeVersion,
    rowCount: p.entry.rowCount,
    submittedBy,
  }));
  const publishes = await appendPublishes(tx, rows);
  // A publish is evidence the job writes the dataset at that time; it only fills gaps in the lineage.
  await applyObservedLineage(
    tx,
    fresh.map((p, i) => ({
      runId: p.runId,
      taskId: tasks.get(p.job.nodeId)!.id,
      at: rows[i]!.publishedAt.getTime(),
      authoritative: false,
      edges: [{ datasetId: rows[i]!.datasetId, direction: "write" as const }],
    })),
  );
  return { publishes, runs };
}

/** A run first named by a ledger entry: it published, so it ran; its span covers its publishes. */
function mergeRun(prev: RunRow | undefined, p: Planned, pipelineId: string | null): RunRow {
  const at = new Date(p.entry.publishedAt);
  return {
    id: p.runId,
    externalId: p.entry.run.externalId,
    pipelineId,
    kind: p.entry.run.kind ?? "manual",
    status: "succeeded",
    rootRunId: null,
    parentRunId: null,
    codeVersion: p.entry.codeVersion,
    triggeredBy: "api",
    nominalTime: null,
    startedAt: prev?.startedAt && prev.startedAt < at ? prev.startedAt : at,
    endedAt: prev?.endedAt && prev.endedAt > at ? prev.endedAt : at,
  };
}
