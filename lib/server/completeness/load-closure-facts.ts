import type { NodeId } from "@/lib/domain/ids";
import type { ClosureResult } from "@/lib/domain/closure";
import type { LineageGraph } from "@/lib/domain/lineage-graph";
import { isJudged } from "@/lib/domain/judged-units";
import { UnitSet } from "@/lib/domain/unit-set";
import type { LedgerEntry, UnitFacts, UpstreamPublish } from "@/lib/domain/unit-state";
import type { Db } from "../repositories/database";
import type { DatasetRecord, EdgeRecord, TaskRecord } from "../repositories/lineage/catalog-reads";
import { attemptsByUnit, marksByUnit, publishesByUnit, sourceCountsByUnit, type ByUnit } from "../repositories/ledger/unit-ledger";
import { cleanedAtByUnit } from "../repositories/repair/unit-interventions";
import type { InputScope } from "@/lib/domain/input-versions";
import { assembleUnitFacts } from "../units/assemble-unit-facts";
import { inputScopeOf } from "../units/input-scope";
import { upstreamProblemsResolver, type DatasetProblems } from "../units/upstream-problems";

export interface ClosureDataset {
  record: DatasetRecord;
  writer: TaskRecord | null;
  units: UnitSet;
  /** Keys in ordinal order, and their ordinals. */
  keys: string[];
  ordinals: number[];
  facts: Map<string, UnitFacts>;
}

export interface CatalogIndex {
  datasetsByNode: Map<string, DatasetRecord>;
  writerOf: Map<string, TaskRecord>;
  edges: readonly EdgeRecord[];
  /** The problem units of the one unit-state service: what makes a closure unit suspect, as on the matrix. */
  problemsOf: (datasetId: string) => DatasetProblems | undefined;
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
    const ordinals = [...units];
    out.push({ record, writer: catalog.writerOf.get(record.id) ?? null, units, keys: ordinals.map((o) => space.keyAt(o)), ordinals, facts: new Map() });
  }
  const scopes = out.map((d) => ({ id: d.record.id, keys: d.keys }));
  const taskScopes = out.filter((d) => d.writer).map((d) => ({ id: d.writer!.id, keys: d.keys }));
  const [ledger, attempts, sources, marks, cleaned] = await Promise.all([
    publishesByUnit(db, scopes),
    attemptsByUnit(db, taskScopes),
    sourceCountsByUnit(db, scopes),
    marksByUnit(db, scopes),
    cleanedAtByUnit(
      db,
      scopes.map((x) => x.id),
    ),
  ]);
  const latestByNode = latestPublishes(out, ledger);
  for (const d of out) {
    const units = d.keys.map((key, i) => ({ key, ordinal: d.ordinals[i]! }));
    const facts = assembleUnitFacts(
      {
        dataset: d.record,
        writer: d.writer,
        ledger: ledger.get(d.record.id) ?? new Map(),
        attempts: d.writer ? attempts.get(d.writer.id) : undefined,
        sources: sources.get(d.record.id),
        marks: marks.get(d.record.id),
        cleaned: cleaned.get(d.record.id),
        upstreamOf: upstreamResolver(graph, d, latestByNode),
        inputScope: scopeOf(graph, d, catalog),
        upstreamBadOf: d.writer
          ? upstreamProblemsResolver(
              d.writer,
              catalog.edges,
              d.record.id,
              graph.nodes[graph.index.get(d.record.nodeId as NodeId)!]!.space,
              catalog.problemsOf,
              { includeSelf: true },
            )
          : undefined,
      },
      units,
    );
    d.keys.forEach((key, i) => d.facts.set(key, facts[i]!));
    if (!d.record.partitionsDeclared) keepJudged(d);
  }
  return out;
}

/**
 * A dataset whose definition nobody declared has unknown expected units: only the units its
 * records say something about are judged (judged-units.ts), so a view that was built, or a source
 * that is only read, is not a hole in the certificate.
 */
function keepJudged(d: ClosureDataset): void {
  const kept = d.keys.flatMap((key, i) => (isJudged(false, d.facts.get(key)!) ? [i] : []));
  if (kept.length === d.keys.length) return;
  d.keys = kept.map((i) => d.keys[i]!);
  d.ordinals = kept.map((i) => d.ordinals[i]!);
  d.units = UnitSet.fromOrdinals(d.ordinals);
  for (const key of [...d.facts.keys()]) if (!d.keys.includes(key)) d.facts.delete(key);
}

/** Which of the writer's inputs its units read alike (input-versions.ts), from the compiled lineage. */
function scopeOf(graph: LineageGraph, d: ClosureDataset, catalog: CatalogIndex): InputScope | undefined {
  const writerIdx = d.writer ? graph.index.get(d.writer.nodeId as NodeId) : undefined;
  if (writerIdx === undefined) return undefined;
  const reads = graph.in[writerIdx]!.flatMap((e) => {
    const dataset = e.kind === "reads" ? catalog.datasetsByNode.get(graph.nodes[e.from]!.id) : undefined;
    return dataset ? [{ dataset, mapping: e.mapping.type }] : [];
  });
  const self = graph.selfReads.get(writerIdx);
  const own = self ? catalog.datasetsByNode.get(self.dataset) : undefined;
  return inputScopeOf(own ? [...reads, { dataset: own, mapping: "previous" }] : reads);
}

/** Dataset node id → unit key → newest publish instant. */
function latestPublishes(datasets: ClosureDataset[], ledger: ByUnit<LedgerEntry>): Map<string, Map<string, number>> {
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
  return (ordinal) =>
    reads.flatMap((edge) => {
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
