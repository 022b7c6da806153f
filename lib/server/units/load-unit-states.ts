import { resolvePartitions, type PartitionSpace } from "@/lib/domain/partitions";
import { isJudged } from "@/lib/domain/judged-units";
import { upstreamProblemOf } from "@/lib/domain/suspect";
import { computeUnitStates, unitState, type UnitFacts, type UnitStateResult } from "@/lib/domain/unit-state";
import { UnitSet, UnitSetBuilder } from "@/lib/domain/unit-set";
import type { Db } from "../repositories/database";
import { listDatasets, listEdgesAt, listTasks, type DatasetRecord, type EdgeRecord, type TaskRecord } from "../repositories/lineage/catalog-reads";
import { attemptsByUnit, marksByUnit, publishesByUnit, sourceCountsByUnit } from "../repositories/ledger/unit-ledger";
import {
  attemptsOfTask,
  latestInputVersionsOfDataset,
  prepareBulkReads,
  publishesOfDataset,
  unscheduledRunKinds,
} from "../repositories/units/unit-matrix-reads";
import { cleanedAtByUnit } from "../repositories/repair/unit-interventions";
import { assembleUnitFacts, prevailingOf, prevailingOfLatest, type DatasetRecords } from "./assemble-unit-facts";
import { keyed, upstreamLatest } from "./reads-by-key";
import { inputScopeOf, readsOfWriter } from "./input-scope";
import { upstreamProblemsResolver, type DatasetProblems } from "./upstream-problems";
import { latestPublishByOrdinal, upstreamResolver, type UpstreamContext } from "./upstream-resolver";

export interface DatasetUnitStates {
  dataset: DatasetRecord;
  writer: TaskRecord | null;
  space: PartitionSpace;
  /** Units with a state (due ones, and others whose records say something: judged-units.ts), in ordinal order. */
  units: { key: string; ordinal: number; result: UnitStateResult; facts: UnitFacts }[];
  /** Keys in the ledger that the partition definition rejects (seed 002), with the reason. */
  invalidLedgerKeys: { key: string; reason: string }[];
  /** The input version most of its units were built from (what input-mismatch compares with). */
  prevailing: string | null;
}

export interface LoadOptions {
  /** Only these datasets (node ids); their upstream datasets' ledgers are read for staleness. */
  datasetNodeIds?: readonly string[];
  /**
   * The problem units of datasets this load does not compute (from the kept unit states), so a
   * unit built from one of them is suspect here exactly as it is in the full computation. An
   * upstream dataset it does not know (kept states still being computed) is computed here too,
   * so a partial answer never passes a unit built on bad input as plain published.
   */
  knownProblems?: (datasetId: string) => DatasetProblems | undefined;
  /**
   * Only these units of a dataset (by node id): the upstream closure of what a question is
   * about, so each unit's inputs (through the lineage's mappings, its own past included) are in
   * it too. Undefined for a dataset: all its units.
   */
  units?: (datasetNodeId: string) => UnitSet | undefined;
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
 * Same facts, one dataset at a time, upstream datasets first: memory holds one dataset's
 * records (plus one latest-publish instant per unit of each dataset already seen, for the
 * staleness of its readers), and a caller that keeps only a summary (the matrix keeps one byte
 * per unit) never holds a million result objects at once.
 */
export async function visitUnitStates(db: Db, now: Date, options: LoadOptions, visit: (d: DatasetUnitStates) => void): Promise<void> {
  await prepareBulkReads(db);
  const [datasets, tasks, edges, kinds] = await Promise.all([listDatasets(db), listTasks(db), listEdgesAt(db, now), unscheduledRunKinds(db)]);
  const wanted = options.datasetNodeIds ? new Set(options.datasetNodeIds) : null;
  const writerOf = new Map(edges.filter((e) => e.direction === "write").map((e) => [e.datasetId, e.taskId]));
  const asked = wanted ? datasets.filter((d) => wanted.has(d.nodeId)) : datasets;
  const inScope = wanted ? withUnknownUpstream(asked, datasets, edges, writerOf, options.knownProblems) : datasets;
  const askedIds = new Set(asked.map((d) => d.id));
  const scopeIds = inScope.map((d) => d.id);
  const [sources, marks, cleaned] = await Promise.all([sourceCountsByUnit(db, scopeIds), marksByUnit(db, scopeIds), cleanedAtByUnit(db, scopeIds)]);
  const tasksById = new Map(tasks.map((t) => [t.id, t]));
  const spaces = new Map(datasets.map((d) => [d.id, resolvePartitions(d.partitionDef, { asOf: now.getTime() })]));
  const datasetsById = new Map(datasets.map((d) => [d.id, d]));
  const latest = new Map<string, Float64Array>();
  const problems = new Map<string, DatasetProblems>();
  const problemsOf = (id: string) => problems.get(id) ?? options.knownProblems?.(id);
  for (const dataset of upstreamFirst(inScope, edges, writerOf)) {
    const writerId = writerOf.get(dataset.id);
    const writer = writerId ? (tasksById.get(writerId) ?? null) : null;
    const space = spaces.get(dataset.id)!;
    const only = options.units?.(dataset.nodeId);
    // A question's closure (completeness during a first start): only its units' records, and of
    // the whole ledger only each unit's latest input version (the prevailing one is taken from it).
    const ledger = only
      ? await keyed(only, space, dataset.id, (keys) => publishesByUnit(db, [{ id: dataset.id, keys }]))
      : await publishesOfDataset(db, dataset.id, kinds);
    const prevailing = only ? prevailingOfLatest(await latestInputVersionsOfDataset(db, dataset.id)) : undefined;
    await turn();
    latest.set(dataset.id, latestPublishByOrdinal(ledger, space));
    if (only && writer) {
      for (const [id, read] of await upstreamLatest(db, writer, space, only, { edges, spaces })) if (!latest.has(id)) latest.set(id, read);
    } else {
      for (const e of edges) {
        if (e.taskId !== writerId || e.direction !== "read" || latest.has(e.datasetId) || !spaces.has(e.datasetId)) continue;
        latest.set(e.datasetId, latestPublishByOrdinal(await publishesOfDataset(db, e.datasetId, kinds), spaces.get(e.datasetId)!));
      }
    }
    const attempts = writer
      ? only
        ? await keyed(only, space, writer.id, (keys) => attemptsByUnit(db, [{ id: writer.id, keys }]))
        : await attemptsOfTask(db, writer.id)
      : undefined;
    if (writer) await turn();
    const ctx: FactsContext = {
      dataset,
      space,
      writer,
      ledger,
      attempts,
      sources: sources.get(dataset.id),
      marks: marks.get(dataset.id),
      cleaned: cleaned.get(dataset.id),
      latest,
      datasetsById,
      spaces,
      edges,
      problemsOf,
      only,
      ...(prevailing !== undefined ? { neighbourInputVersion: prevailing } : {}),
    };
    const states = statesOf(ctx, now.getTime());
    problems.set(dataset.id, problemsOfStates(states));
    if (askedIds.has(dataset.id)) visit(states);
    await turn();
  }
}

/**
 * SQLite reads are synchronous: without a turn of the event loop between them, a million-unit
 * computation (the startup warm-up) would hold every other request for its whole length (figures
 * in docs/units.md). A turn after each dataset's read and after its states lets a request with
 * several queries of its own answer while the computation runs.
 */
export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The datasets asked for, plus every upstream dataset (transitively, through what their writers
 * read) whose problems the kept states do not know yet: those are computed in the same pass.
 */
function withUnknownUpstream(
  asked: DatasetRecord[],
  datasets: DatasetRecord[],
  edges: EdgeRecord[],
  writerOf: Map<string, string>,
  known: LoadOptions["knownProblems"],
): DatasetRecord[] {
  const reads = new Map<string, string[]>();
  for (const e of edges) if (e.direction === "read") reads.set(e.taskId, [...(reads.get(e.taskId) ?? []), e.datasetId]);
  const byId = new Map(datasets.map((d) => [d.id, d]));
  const out = new Map(asked.map((d) => [d.id, d]));
  const stack = asked.map((d) => d.id);
  while (stack.length > 0) {
    for (const up of reads.get(writerOf.get(stack.pop()!) ?? "") ?? []) {
      const d = byId.get(up);
      if (!d || out.has(up) || known?.(up) !== undefined) continue;
      out.set(up, d);
      stack.push(up);
    }
  }
  return [...out.values()];
}

/** Datasets ordered so that the ones a writer reads come before what it writes (cycles cut): the order a full computation visits them in. */
export function upstreamFirst(datasets: DatasetRecord[], edges: EdgeRecord[], writerOf: Map<string, string>): DatasetRecord[] {
  const reads = new Map<string, string[]>();
  for (const e of edges) if (e.direction === "read") reads.set(e.taskId, [...(reads.get(e.taskId) ?? []), e.datasetId]);
  const byId = new Map(datasets.map((d) => [d.id, d]));
  const seen = new Set<string>();
  const out: DatasetRecord[] = [];
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const up of reads.get(writerOf.get(id) ?? "") ?? []) visit(up);
    const d = byId.get(id);
    if (d) out.push(d);
  };
  for (const d of datasets) visit(d.id);
  return out;
}

/** One dataset's records (as assembleUnitFacts takes them, before staleness is resolved) and what resolves it. */
export interface FactsContext extends UpstreamContext, Omit<DatasetRecords, "upstreamOf" | "inputScope" | "upstreamBadOf"> {
  problemsOf: (datasetId: string) => DatasetProblems | undefined;
  /** Only these units (an incremental update); absent: every unit with a state. */
  only?: UnitSet;
  /** The dataset's units that already carry a problem (kept states), for its own past when `only` starts later. */
  ownProblems?: DatasetProblems;
}

const NONE: readonly never[] = [];
/** What a unit's answer is until its state is computed (never handed out). */
const UNDECIDED = { state: "missing", reasons: NONE, facts: {} } as unknown as UnitStateResult;
const NO_FACTS = {} as UnitFacts;

export function statesOf(ctx: FactsContext, now: number): DatasetUnitStates {
  const { dataset, space, writer, ledger, attempts, sources, marks, cleaned } = ctx;
  const upstreamOf = writer ? upstreamResolver(ctx, writer) : () => NONE;
  const upstreamBadOf = writer ? upstreamProblemsResolver(writer, ctx.edges, dataset.id, space, ctx.problemsOf) : () => NONE;
  const due = dataset.partitionsDeclared ? space.due : UnitSet.EMPTY;
  const every = due.union(recordedUnits(space, [ledger, attempts, marks]));
  const candidates = ctx.only ? every.intersect(ctx.only) : every;
  // One object per unit, made once and completed below: the unit as assembleUnitFacts reads it,
  // then the answer (a million-unit computation made three per unit here: docs/units.md).
  const keys: DatasetUnitStates["units"] = [];
  const dueAt: boolean[] = [];
  candidates.forEachRange((lo, hi) => {
    for (let o = lo; o <= hi; o++) {
      keys.push({ key: space.keyAt(o), ordinal: o, result: UNDECIDED, facts: NO_FACTS });
      dueAt.push(due.contains(o));
    }
  });
  const inputScope = writer ? inputScopeOf(readsOfWriter(writer, ctx.edges, ctx.datasetsById)) : undefined;
  const prevailing = ctx.neighbourInputVersion !== undefined ? ctx.neighbourInputVersion : prevailingOf(ledger);
  const all = assembleUnitFacts(
    { dataset, writer, ledger, attempts, sources, marks, cleaned, upstreamOf, upstreamBadOf, inputScope, neighbourInputVersion: prevailing },
    keys,
  );
  let judgedKeys = keys;
  let facts = all;
  for (let i = 0; i < keys.length; i++) {
    if (isJudged(dueAt[i]!, all[i]!)) {
      if (judgedKeys !== keys) {
        judgedKeys.push(keys[i]!);
        facts.push(all[i]!);
      }
    } else if (judgedKeys === keys) {
      // The first unit without a state: those before it are kept, this one left out.
      judgedKeys = keys.slice(0, i);
      facts = all.slice(0, i);
    }
  }
  const results = computeUnitStates(facts, now);
  const selfStep = writer ? sequentialSelfRead(writer, ctx.edges, dataset.id) : null;
  if (selfStep !== null) passOnOwnPast(dataset.nodeId, space, judgedKeys, facts, results, selfStep, now, ctx.ownProblems);
  const defined = definedSpace(dataset, space);
  const invalidLedgerKeys: DatasetUnitStates["invalidLedgerKeys"] = [];
  for (const key of ledger.keys()) {
    const verdict = defined.validate(key);
    if (!verdict.valid) invalidLedgerKeys.push({ key, reason: verdict.reason });
  }
  for (let i = 0; i < judgedKeys.length; i++) {
    judgedKeys[i]!.result = results[i]!;
    judgedKeys[i]!.facts = facts[i]!;
  }
  return {
    dataset,
    writer,
    space,
    units: judgedKeys,
    invalidLedgerKeys,
    prevailing,
  };
}

/** The n of a writer's sequential read of its own output (previous(n); window, all, latest: 1), or null. */
function sequentialSelfRead(writer: TaskRecord, edges: readonly EdgeRecord[], datasetId: string): number | null {
  const self = edges.find((e) => e.taskId === writer.id && e.direction === "read" && e.datasetId === datasetId);
  if (!self || self.mapping === "identity") return null;
  const n = self.mapping === "previous" ? Number(self.mappingParams.n) : 1;
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/**
 * A model that reads its own past (a running balance) is built from its earlier unit: a bad unit
 * makes every later one it feeds suspect, in order — 2026-08-10's inflated total is in every
 * balance after it.
 */
function passOnOwnPast(
  nodeId: string,
  space: PartitionSpace,
  keys: { key: string; ordinal: number }[],
  facts: UnitFacts[],
  results: UnitStateResult[],
  n: number,
  now: number,
  kept?: DatasetProblems,
): void {
  const bad = new Map<number, string>();
  // Units before the first recomputed one keep their problems (an incremental update starts mid-range).
  const first = keys[0]?.ordinal ?? 0;
  if (kept) for (const o of kept.units.intersect(UnitSet.range(Math.max(0, first - n), first - 1))) bad.set(o, kept.problemAt(o));
  for (let i = 0; i < keys.length; i++) {
    const o = keys[i]!.ordinal;
    const before = bad.get(o - n);
    if (before !== undefined && facts[i]!.ledger.length > 0) {
      facts[i] = { ...facts[i]!, upstreamBad: [...(facts[i]!.upstreamBad ?? []), { dataset: nodeId, unitKey: space.keyAt(o - n), problem: before }] };
      results[i] = unitState(facts[i]!, now);
    }
    const problem = upstreamProblemOf(results[i]!.state, results[i]!.facts.partialRows);
    if (problem !== null) bad.set(o, problem);
  }
}

/** The units of computed states that pass a problem on to their readers (suspect.ts). */
export function problemsOfStates(d: DatasetUnitStates): DatasetProblems {
  const problems = new Map<number, string>();
  for (const u of d.units) {
    const p = upstreamProblemOf(u.result.state, u.result.facts.partialRows);
    if (p !== null) problems.set(u.ordinal, p);
  }
  return { nodeId: d.dataset.nodeId, space: d.space, units: UnitSet.fromOrdinals(problems.keys()), problemAt: (o) => problems.get(o) ?? "bad" };
}

/** Units (valid in the space) that any of the records name: publishes, attempts, marks. */
function recordedUnits(space: PartitionSpace, records: (Map<string, unknown> | undefined)[]): UnitSet {
  // A flag per unit rather than a list to sort: every unit of a dataset is usually named twice.
  const named = new Uint8Array(space.size);
  for (const byKey of records) {
    for (const key of byKey?.keys() ?? []) {
      const v = space.validate(key);
      if (v.valid) named[v.ordinal] = 1;
    }
  }
  const builder = new UnitSetBuilder();
  for (let o = 0; o < named.length; o++) if (named[o] === 1) builder.add(o, o);
  return builder.build();
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
