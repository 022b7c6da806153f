import type { NodeId } from "@/lib/domain/ids";
import type { ClosureResult } from "@/lib/domain/closure";
import type { LineageGraph } from "@/lib/domain/lineage-graph";
import { UnitSet } from "@/lib/domain/unit-set";
import { prevailingInputVersion } from "@/lib/domain/validation";
import type { LedgerEntry, UnitFacts, UpstreamPublish } from "@/lib/domain/unit-state";
import type { Db } from "../db/client";
import type { DatasetRecord, TaskRecord } from "../repositories/catalog";
import { attemptsOfUnits, marksOfUnits, publishesOfUnits, sourceCountsOfUnits, type ScopedByUnit } from "../repositories/unit-facts-reads";

export interface ClosureDataset {
  record: DatasetRecord;
  writer: TaskRecord | null;
  units: UnitSet;
  /** Keys in ordinal order. */
  keys: string[];
  facts: Map<string, UnitFacts>;
}

export interface CatalogIndex {
  datasetsByNode: Map<string, DatasetRecord>;
  writerOf: Map<string, TaskRecord>;
}

/**
 * The unit facts of every dataset unit in an upstream closure — and only those: one query per
 * table, scoped by (dataset, keys), so the cost follows the period, not the ledger. Staleness
 * compares each unit with the upstream units it reads; those are in the closure by definition.
 */
export async function loadClosureFacts(db: Db, graph: LineageGraph, result: ClosureResult, catalog: CatalogIndex): Promise<ClosureDataset[]> {
  const out: ClosureDataset[] = [];
  for (const entry of result.entries.values()) {
    const record = entry.nodeKind === "dataset" ? catalog.datasetsByNode.get(entry.node) : undefined;
    if (!record) continue;
    const space = graph.nodes[graph.index.get(entry.node)!]!.space;
    const units = entry.units.intersect(space.expected);
    out.push({ record, writer: catalog.writerOf.get(record.id) ?? null, units, keys: [...units].map((o) => space.keyAt(o)), facts: new Map() });
  }
  const scopes = out.map((d) => ({ id: d.record.id, keys: d.keys }));
  const taskScopes = out.filter((d) => d.writer).map((d) => ({ id: d.writer!.id, keys: d.keys }));
  const [ledger, attempts, sources, marks] = await Promise.all([
    publishesOfUnits(db, scopes), attemptsOfUnits(db, taskScopes), sourceCountsOfUnits(db, scopes), marksOfUnits(db, scopes),
  ]);
  const latestByNode = latestPublishes(out, ledger);
  for (const d of out) {
    const own = ledger.get(d.record.id) ?? new Map<string, LedgerEntry[]>();
    const neighbourInputVersion = prevailingInputVersion([...own].flatMap(([unitKey, rows]) => rows.map((r) => ({ ...r, unitKey }))));
    const upstreamOf = upstreamResolver(graph, d, latestByNode);
    const space = graph.nodes[graph.index.get(d.record.nodeId as NodeId)!]!.space;
    for (const key of d.keys) {
      const verdict = space.validate(key);
      d.facts.set(key, {
        ledger: own.get(key) ?? [],
        attempts: d.writer ? (attempts.get(d.writer.id)?.get(key) ?? []) : [],
        sourceCount: sources.get(d.record.id)?.get(key) ?? null,
        tolerance: d.record.tolerance,
        // Unknown write mode counts as unsafe: judged like append for duplicates (as the matrix does).
        writeMode: d.writer?.writeMode ?? "append",
        upstream: verdict.valid ? upstreamOf(verdict.ordinal) : [],
        neighbourInputVersion,
        marks: marks.get(d.record.id)?.get(key) ?? [],
      });
    }
  }
  return out;
}

/** Dataset node id → unit key → newest publish instant. */
function latestPublishes(datasets: ClosureDataset[], ledger: ScopedByUnit<LedgerEntry>): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const d of datasets) {
    const latest = new Map<string, number>();
    for (const [key, rows] of ledger.get(d.record.id) ?? []) latest.set(key, Math.max(...rows.map((r) => r.publishedAt)));
    out.set(d.record.nodeId, latest);
  }
  return out;
}

/**
 * For a unit of the dataset, the newest publish among the upstream units its writer reads.
 * As-of-now (`latest`) reads are left out, as in the unit matrix: such a unit is built against
 * the snapshot current at build time by design (an input-version difference, not staleness).
 */
function upstreamResolver(graph: LineageGraph, d: ClosureDataset, latest: Map<string, Map<string, number>>): (ordinal: number) => UpstreamPublish[] {
  const writerIdx = d.writer ? graph.index.get(d.writer.nodeId as NodeId) : undefined;
  if (writerIdx === undefined) return () => [];
  const reads = graph.in[writerIdx]!.filter((e) => e.kind === "reads" && e.mapping.type !== "latest");
  return (ordinal) => reads.flatMap((edge) => {
    const up = graph.nodes[edge.from]!;
    const published = latest.get(up.id);
    let best: UpstreamPublish | null = null;
    edge.up(UnitSet.of(ordinal)).forEachRange((lo, hi) => {
      for (let o = lo; o <= hi; o++) {
        const key = up.space.keyAt(o);
        const at = published?.get(key);
        if (at !== undefined && (best === null || at > best.publishedAt)) best = { dataset: up.id, unitKey: key, publishedAt: at };
      }
    });
    return best ? [best] : [];
  });
}
