import { resolvePartitions, type PartitionSpace } from "@/lib/domain/partitions";
import { prevailingInputVersion } from "@/lib/domain/validation";
import {
  computeUnitStates, type Attempt, type LedgerEntry, type OperatorMark, type UnitFacts, type UnitStateResult,
} from "@/lib/domain/unit-state";
import type { Db } from "../db/client";
import { listDatasets, listEdgesAt, listTasks, type DatasetRecord, type EdgeRecord, type TaskRecord } from "../repositories/catalog";
import { marksByUnit, sourceCountsByUnit, type ByUnit } from "../repositories/ledger";
import { attemptsForMatrix, publishesForMatrix } from "../repositories/unit-matrix-reads";
import { cleanedAtByUnit } from "../repositories/unit-interventions";
import { upstreamResolver } from "./upstream-resolver";

export interface DatasetUnitStates {
  dataset: DatasetRecord;
  writer: TaskRecord | null;
  space: PartitionSpace;
  /** Expected units, in ordinal order, with their computed state. */
  units: { key: string; ordinal: number; result: UnitStateResult; facts: UnitFacts }[];
  /** Keys in the ledger that the partition definition rejects (seed 002), with the reason. */
  invalidLedgerKeys: { key: string; reason: string }[];
}

export interface LoadOptions {
  /** Only these datasets (node ids); their upstream datasets' ledgers are read for staleness. */
  datasetNodeIds?: readonly string[];
}

/**
 * The state of every expected unit of every dataset, from the ledger, attempts, source counts,
 * operator marks and the upstream units each one reads (for staleness). The rules are
 * lib/domain's unitState; this only gathers the facts.
 */
export async function loadUnitStates(db: Db, now: Date, options: LoadOptions = {}): Promise<DatasetUnitStates[]> {
  const out: DatasetUnitStates[] = [];
  await visitUnitStates(db, now, options, (d) => out.push(d));
  return out;
}

/**
 * Same facts, one dataset at a time: a caller that keeps only a summary of each (the matrix
 * keeps one byte per unit) never holds a million result objects at once.
 */
export async function visitUnitStates(db: Db, now: Date, options: LoadOptions, visit: (d: DatasetUnitStates) => void): Promise<void> {
  const [datasets, tasks, edges] = await Promise.all([listDatasets(db), listTasks(db), listEdgesAt(db, now)]);
  const wanted = options.datasetNodeIds ? new Set(options.datasetNodeIds) : null;
  const inScope = wanted ? datasets.filter((d) => wanted.has(d.nodeId)) : datasets;
  const tasksById = new Map(tasks.map((t) => [t.id, t]));
  const writerOf = new Map(edges.filter((e) => e.direction === "write").map((e) => [e.datasetId, e.taskId]));
  const writers = inScope.flatMap((d) => (writerOf.has(d.id) ? [writerOf.get(d.id)!] : []));
  // Staleness reads the publishes of the upstream units each writer reads.
  const readIds = new Set(edges.filter((e) => e.direction === "read" && writers.includes(e.taskId)).map((e) => e.datasetId));
  const ledgerIds = wanted ? [...new Set([...inScope.map((d) => d.id), ...readIds])] : null;
  const scopeIds = inScope.map((d) => d.id);
  const ledger = await publishesForMatrix(db, ledgerIds);
  const attempts = await attemptsForMatrix(db, wanted ? writers : null);
  const [sources, marks, cleaned] = await Promise.all([sourceCountsByUnit(db, scopeIds), marksByUnit(db, scopeIds), cleanedAtByUnit(db, scopeIds)]);
  const spaces = new Map(datasets.map((d) => [d.id, resolvePartitions(d.partitionDef, { asOf: now.getTime() })]));
  const datasetsById = new Map(datasets.map((d) => [d.id, d]));
  for (const dataset of inScope) {
    const writerId = writerOf.get(dataset.id);
    const writer = writerId ? (tasksById.get(writerId) ?? null) : null;
    visit(statesOf({ dataset, space: spaces.get(dataset.id)!, writer, ledger, attempts, sources, marks, cleaned, datasetsById, spaces, edges }, now.getTime()));
  }
}

interface FactsContext {
  dataset: DatasetRecord;
  space: PartitionSpace;
  writer: TaskRecord | null;
  ledger: ByUnit<LedgerEntry>;
  attempts: ByUnit<Attempt>;
  sources: Map<string, Map<string, number>>;
  marks: ByUnit<OperatorMark>;
  /** When an operator last cleaned each unit (an appended unit emptied before its repair). */
  cleaned: Map<string, Map<string, number>>;
  datasetsById: Map<string, DatasetRecord>;
  spaces: Map<string, PartitionSpace>;
  edges: EdgeRecord[];
}

const NONE: readonly never[] = [];

function statesOf(ctx: FactsContext, now: number): DatasetUnitStates {
  const { dataset, space, writer } = ctx;
  const ledger = ctx.ledger.get(dataset.id) ?? new Map<string, LedgerEntry[]>();
  const attempts = writer ? ctx.attempts.get(writer.id) : undefined;
  const sources = ctx.sources.get(dataset.id);
  const marks = ctx.marks.get(dataset.id);
  const cleaned = ctx.cleaned.get(dataset.id);
  const upstreamOf = writer ? upstreamResolver(ctx, writer) : () => NONE;
  const neighbourInputVersion = prevailingInputVersion([...ledger].flatMap(([unitKey, rows]) => rows.map((r) => ({ ...r, unitKey }))));
  const keys: { key: string; ordinal: number }[] = [];
  space.expected.forEachRange((lo, hi) => {
    for (let o = lo; o <= hi; o++) keys.push({ key: space.keyAt(o), ordinal: o });
  });
  // Unknown write mode counts as unsafe: treat it like append when judging duplicates.
  const writeMode = writer?.writeMode ?? "append";
  const facts: UnitFacts[] = keys.map(({ key, ordinal }) => ({
    ledger: ledger.get(key) ?? NONE,
    attempts: attempts?.get(key) ?? NONE,
    sourceCount: sources?.get(key) ?? null,
    tolerance: dataset.tolerance,
    writeMode,
    upstream: upstreamOf(ordinal),
    neighbourInputVersion,
    marks: marks?.get(key) ?? NONE,
    cleanedAt: cleaned?.get(key) ?? null,
  }));
  const results = computeUnitStates(facts, now);
  const defined = definedSpace(dataset, space);
  const invalidLedgerKeys = [...ledger.keys()].flatMap((key) => {
    const verdict = defined.validate(key);
    return verdict.valid ? [] : [{ key, reason: verdict.reason }];
  });
  return { dataset, writer, space, units: keys.map((k, i) => ({ ...k, result: results[i]!, facts: facts[i]! })), invalidLedgerKeys };
}

/**
 * Every unit the definition allows, whether or not its window has closed: a bounded definition
 * (meters: 2026-01 … 2026-12) may legitimately publish a unit before it is expected, and that
 * is not an invalid key. Open-ended definitions can only be judged up to now.
 */
function definedSpace(dataset: DatasetRecord, expectedSpace: PartitionSpace): PartitionSpace {
  try {
    return resolvePartitions(dataset.partitionDef);
  } catch {
    return expectedSpace;
  }
}
