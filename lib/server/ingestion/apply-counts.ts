import { compositeKey } from "@/lib/domain/composite-key";
import type { FieldIssue } from "@/lib/contracts/openlineage";
import type { SourceCountEntry, SourceCountsResult } from "@/lib/contracts/ingestion-ledger";
import type { Tx } from "../repositories/database";
import { ensureDatasets, type NodeRef } from "../repositories/lineage/catalog-writes";
import { partitionDefsByNodeId } from "../repositories/lineage/catalog-reads";
import { countsOf, writeCounts, type CountTable, type StoredCount } from "../repositories/ledger/row-counts";
import { evidenceOf } from "@/lib/domain/cleanings";
import { evidenceCleanings } from "../units/evidence-cleanings";
import { reportInvalidKeys, type InvalidKeyRow } from "../repositories/ledger/ingested-runs";
import type { BatchItem } from "./read-ingestion-batch";
import { nodeRefOf } from "./node-refs";
import { UnitKeyResolver } from "./resolve-unit-keys";
import { stableId } from "./stable-id";

type Outcome = SourceCountsResult["accepted"][number]["outcome"];
interface Planned {
  index: number;
  entry: SourceCountEntry;
  dataset: NodeRef;
  unitKey: string;
}

export interface CountsOutcome {
  accepted: { index: number; outcome: Outcome }[];
  refused: { index: number; issues: FieldIssue[] }[];
  written: { counts: number; invalidKeys: number };
}

/**
 * Upserts row counts per (dataset, unit) into `table` (source counts or warehouse counts): the
 * latest measurement wins, whatever order they arrive in — an older measurement than the stored
 * one is accepted but not applied (`older`); at the same instant the later entry in the request wins.
 */
export async function applyCounts(
  tx: Tx,
  table: CountTable,
  items: BatchItem<SourceCountEntry>[],
  pathOf: (i: number) => string,
  now: Date,
  submitter: { id: string; role: string } | null = null,
): Promise<CountsOutcome> {
  const submittedBy = submitter?.id ?? null;
  const refused: CountsOutcome["refused"] = [];
  const invalid: InvalidKeyRow[] = [];
  const planned = await planCounts(tx, items, pathOf, refused, invalid, now);
  const datasets = await ensureDatasets(
    tx,
    planned.map((p) => p.dataset),
  );
  const stored = await countsOf(
    tx,
    table,
    [...datasets.values()].map((d) => d.id),
  );
  const changed = new Map<string, StoredCount & { created: boolean }>();
  const accepted: CountsOutcome["accepted"] = [];
  for (const p of planned) {
    const datasetId = datasets.get(p.dataset.nodeId)!.id;
    const key = compositeKey(datasetId, p.unitKey);
    const current = changed.get(key) ?? stored.get(key);
    const measuredAt = new Date(p.entry.measuredAt);
    const next = {
      id: current?.id ?? stableId(table === "SourceCount" ? "srccount" : "whcount", datasetId, p.unitKey),
      datasetId,
      unitKey: p.unitKey,
      rowCount: p.entry.rowCount,
      measuredAt,
      source: p.entry.source,
      submittedBy,
    };
    accepted.push({ index: p.index, outcome: outcomeOf(current, next) });
    if (!current || (measuredAt >= current.measuredAt && !same(current, next))) changed.set(key, { ...next, created: !stored.has(key) });
  }
  const rows = [...changed.values()];
  await writeCounts(
    tx,
    table,
    rows.filter((r) => r.created),
    rows.filter((r) => !r.created),
  );
  if (table === "WarehouseCount")
    await evidenceCleanings(
      tx,
      rows.filter((r) => evidenceOf({ rows: r.rowCount, measuredAt: r.measuredAt.getTime() }) !== null),
      datasets,
      submitter,
      now,
    );
  return { accepted, refused, written: { counts: rows.length, invalidKeys: await reportInvalidKeys(tx, invalid) } };
}

const same = (a: StoredCount, b: StoredCount) => a.rowCount === b.rowCount && a.source === b.source && a.measuredAt.getTime() === b.measuredAt.getTime();

function outcomeOf(current: StoredCount | undefined, next: StoredCount): Outcome {
  if (!current) return "created";
  if (next.measuredAt < current.measuredAt) return "older";
  return same(current, next) ? "unchanged" : "updated";
}

async function planCounts(
  tx: Tx,
  items: BatchItem<SourceCountEntry>[],
  pathOf: (i: number) => string,
  refused: CountsOutcome["refused"],
  invalid: InvalidKeyRow[],
  now: Date,
): Promise<Planned[]> {
  const refs = items.map((it) => ({ it, dataset: nodeRefOf("dataset", it.value.dataset) }));
  const defs = await partitionDefsByNodeId(
    tx,
    refs.flatMap((r) => (r.dataset ? [r.dataset.nodeId] : [])),
  );
  const resolver = new UnitKeyResolver();
  const planned: Planned[] = [];
  for (const { it, dataset } of refs) {
    if (!dataset) {
      refused.push({ index: it.index, issues: [{ path: `${pathOf(it.index)}.dataset.nodeId`, message: "is not a dataset node id" }] });
      continue;
    }
    const [verdict] = resolver.resolve(dataset.nodeId, defs.get(dataset.nodeId) ?? { kind: "none" }, [it.value.unitKey]);
    if (verdict!.valid) planned.push({ index: it.index, entry: it.value, dataset, unitKey: verdict!.key });
    else {
      refused.push({ index: it.index, issues: [{ path: `${pathOf(it.index)}.unitKey`, message: `invalid unit key: ${verdict!.reason}` }] });
      invalid.push({ nodeId: dataset.nodeId, unitKey: it.value.unitKey, reason: verdict!.reason, source: "api", runId: null, observedAt: now });
    }
  }
  return planned;
}
