import { HttpError } from "../http/errors";
import { pendingFoldLag } from "../repositories/ingestion/pending-folds";
import type { StatesStatus } from "@/lib/contracts/units";
import { createHash } from "node:crypto";
import { availableParallelism } from "node:os";
import { closure, type Seed } from "@/lib/domain/closure";
import type { DatasetId } from "@/lib/domain/ids";
import { resolvePartitions, type PartitionSpace } from "@/lib/domain/partitions";
import { upstreamProblemOf } from "@/lib/domain/suspect";
import { UnitSet } from "@/lib/domain/unit-set";
import { UNIT_STATE_PRECEDENCE, type UnitState, type UnitStateFacts, type UnitStateResult } from "@/lib/domain/unit-state";
import { getDb, type Db } from "../repositories/database";
import { loadLineageGraph } from "../lineage/load-lineage-graph";
import { listDatasets, listEdgesAt, listTasks, type DatasetRecord, type TaskRecord } from "../repositories/catalog/catalog-reads";
import { lineageFingerprint } from "../repositories/catalog/lineage-fingerprint";
import { unitStateFingerprintOffMainThread } from "../ingestion/ingestion-thread";
import { unitStateFingerprint } from "../repositories/units/unit-matrix-reads";
import { runningJobQueue } from "../jobs/job-queue";
import { lastUnitChange, pruneUnitChanges, unitChangesAfter, type UnitChangeRecord } from "../repositories/units/unit-changes";
import { readKeptDatasets, readUnitStateSnapshot, writeUnitStateSnapshot } from "../repositories/units/unit-state-snapshots";
import { loadUnitStates, turn, upstreamFirst, visitUnitStates, type DatasetUnitStates, type LoadOptions } from "./load-unit-states";
import { recomputeUnits } from "./recompute-units";
import { HEALTHY, NOT_EXPECTED, RANK, toCodes } from "./state-codes";
import { threadAvailable, visitUnitStatesInThread, type ThreadDataset } from "./unit-states-thread";
import { computationParts } from "./computation-parts";
import type { DatasetProblems } from "./upstream-problems";
import { log } from "../observability/log";
import { processSingleton } from "../runtime/process-singleton";

/**
 * The one unit-state service every screen reads: each unit's state as one byte, and the full
 * result (reasons, facts) of every unit that is not simply healthy.
 *
 * Incremental at write time. Every write to the records states are computed from (a publish, an
 * attempt, a source count, a mark) records its units in UnitChange in the same transaction. A
 * request applies the changes after the last one the states include: it recomputes those units
 * and their downstream closure (through the lineage's mappings) from their records only — a
 * publish at the head of a 30-dataset chain recomputes 30 units, not the ledger. A new hour makes
 * new units due: those are recomputed, nothing else. A catalog or lineage change (a definition,
 * an edge, a write mode) recomputes everything, in the background: meanwhile the previous states
 * answer, flagged `refreshing`.
 *
 * Durable. The states are kept in the database, a row per dataset (UnitStateKept, rewritten only
 * when its states changed) under a header (UnitStateSnapshot) with the last change they include
 * and a hash of the state vocabulary: a console that restarts, or another console on the same
 * database, takes them up and applies the changes since; a kept snapshot of another
 * vocabulary is computed again, never remapped. A first start with nothing kept answers at once
 * with the datasets computed so far, flagged `computing`, while the rest is computed.
 */
export { NOT_EXPECTED };

/** The kept states' vocabulary: a hash of the precedence the codes index. */
export const STATE_VOCABULARY = createHash("sha1").update(UNIT_STATE_PRECEDENCE.join(",")).digest("hex").slice(0, 12);

export interface DatasetStateCodes {
  dataset: DatasetRecord;
  writer: TaskRecord | null;
  space: PartitionSpace;
  /** Byte per unit: the state's index in UNIT_STATE_PRECEDENCE, or NOT_EXPECTED. */
  codes: Uint8Array;
  /** The full result of every unit whose state is not published or repaired, by ordinal. */
  problems: Map<number, UnitStateResult>;
  invalidLedgerKeys: { key: string; reason: string }[];
  /** The input version most of its units were built from (what input-mismatch compares with). */
  prevailing: string | null;
}

export interface UnitStateSnapshot {
  computedAt: Date;
  datasets: DatasetStateCodes[];
  /** Set while a first computation runs: `datasets` holds the `done` of `total` datasets computed so far. */
  computing: { done: number; total: number } | null;
  /** A catalog change is being applied: these states are the ones before it. */
  refreshing: boolean;
}

interface Entry {
  /** The catalog (lineage) fingerprint the states were computed under. */
  catalog: string;
  /**
   * Counts and maxima of the records (unitStateFingerprint): a write that bypassed the change log
   * still shows. Null after an update: it is cast again once the log is quiet (see below).
   */
  ledger: string | null;
  /** Every change up to this sequence number is applied; `above` are applied ones past a gap. */
  seq: number;
  above: Set<number>;
  /** Gaps in the sequence (a PostgreSQL transaction not committed yet) and when first seen. */
  gaps: Map<number, number>;
  hour: number;
  snapshot: UnitStateSnapshot;
}

interface State {
  entry: Entry | null;
  /** The update being applied (one at a time per database). */
  running: Promise<unknown> | null;
  /** A full computation in flight, its catalog, and its datasets so far (`sized` once `total` units are known). */
  full: { catalog: string; done: Promise<void>; sized: Promise<void>; partial: DatasetStateCodes[]; total: number; units: number } | null;
  restored: Promise<void> | null;
  persistTimer: NodeJS.Timeout | null;
  /**
   * The states kept in the database (written or taken up by this process). States are replaced,
   * never changed in place: while they are still these there is nothing to keep, and keeping
   * newer ones rewrites only the datasets whose states are not these (the whole world is ~53 MB
   * at 10,950,000 units). (Not the change sequence: changes applied past a gap, and newly due
   * units, move the states, not it.)
   */
  kept?: UnitStateSnapshot;
  /** Big world: no update starts before this instant (updates take at most half the event loop). */
  nextUpdateAt: number;
  /** Big world: when the records' fingerprint was last compared (the net for unlogged writes). */
  fingerprintAt: number;
  /** Big world: the comparison running beside the reads. */
  comparing: Promise<unknown> | null;
}

// One per process (the server-start warm-up and the routes are separate bundles): the routes find the warm one.
const states = processSingleton("unitStates", () => new WeakMap<Db, State>());
const HOUR = 3_600_000;
/** Beyond this many changes, or units to recompute, one full computation is cheaper. */
const MAX_CHANGES = 50_000;
const MAX_UNITS = 400_000;
/**
 * How long a request waits for a full computation of a big world before it answers with what
 * there is. None by default: such a computation takes seconds (~15 s at a million units), so
 * waiting only delays the answer it will give anyway (the datasets computed so far).
 */
const WAIT_MS = Number(process.env.REPARO_STATE_WAIT_MS ?? 0);
/** A world this small is always computed before answering (a test, the demo): never partial. */
const SMALL_WORLD_UNITS = 150_000;
/** A gap in the change sequence older than this is a rolled-back transaction, not a late commit. */
const GAP_MS = 30_000;
const PERSIST_EVERY_MS = 30_000;

const FINGERPRINT_EVERY_MS = 5_000;
/** How long a read of a big world waits for an incremental update before answering without it. */
const UPDATE_WAIT_MS = Number(process.env.REPARO_STATE_UPDATE_WAIT_MS ?? 50);
/**
 * How long a read of a small world waits for updates. Such an update takes milliseconds, so a
 * read sees every write before it; but under a stream of writes (three consoles ingesting) each
 * update waits for the event loop behind the writes, and reads that waited for every update in
 * turn answered after 4.5–9.2 s (bench:instances). Past this, the read answers one update behind.
 */
const SMALL_UPDATE_WAIT_MS = Number(process.env.REPARO_STATE_SMALL_UPDATE_WAIT_MS ?? 1_000);

/**
 * Whether the update settles before the read's deadline. One deadline per read (from when it
 * arrived: longer in a small world), whatever it joins: under a stream of writes another update
 * starts as soon as one ends, and a read that waited for each in turn waited for all of them
 * (measured: matrix reads of 8–28 s under 8 writers).
 */
async function settlesBy(update: Promise<unknown>, entry: Entry, arrivedAt: number): Promise<boolean> {
  const settled = update.then(
    () => true,
    () => true,
  );
  const deadline = arrivedAt + (unitsOf(entry.snapshot) <= SMALL_WORLD_UNITS ? SMALL_UPDATE_WAIT_MS : UPDATE_WAIT_MS);
  const left = deadline - Date.now();
  if (left <= 0) return false;
  return Promise.race([settled, sleep(left).then(() => false)]);
}

function unitsOf(snapshot: UnitStateSnapshot): number {
  return snapshot.datasets.reduce((n, d) => n + d.codes.length, 0);
}

function stateOf(db: Db): State {
  let s = states.get(db);
  if (!s)
    states.set(db, (s = { entry: null, running: null, full: null, restored: null, persistTimer: null, nextUpdateAt: 0, fingerprintAt: 0, comparing: null }));
  return s;
}

export async function getUnitStateSnapshot(db: Db, now: Date): Promise<UnitStateSnapshot> {
  return snapshotBy(db, now, Date.now());
}

async function snapshotBy(db: Db, now: Date, arrivedAt: number): Promise<UnitStateSnapshot> {
  const s = stateOf(db);
  s.restored ??= restore(db, now, s).catch((e: unknown) => log.error(`the kept unit states could not be taken up: ${(e as Error).message}`));
  await s.restored;
  const catalog = await lineageFingerprint(db);
  if (!s.entry || s.entry.catalog !== catalog) return answerDuringFullComputation(db, now, s, catalog);
  // One update at a time. A request arriving meanwhile waits for it (up to its deadline: 1 s in
  // a small world, 50 ms in a big one), then applies what is left; past its deadline it answers
  // with the states as they stand (one update behind) so reads are not starved by writes.
  while (s.running) if (!(await settlesBy(s.running, s.entry, arrivedAt))) return s.entry.snapshot;
  const entry = s.entry;
  if (!entry || entry.catalog !== catalog) return snapshotBy(db, now, arrivedAt);
  const big = unitsOf(entry.snapshot) > SMALL_WORLD_UNITS;
  const hour = Math.floor(now.getTime() / HOUR);
  // Batched updates in a big world: while writes stream in, an update starts at most once its
  // predecessor's own duration has passed again, so reads keep half the event loop.
  if (big && Date.now() < s.nextUpdateAt && hour === entry.hour) return entry.snapshot;
  // The records' fingerprint is the net for writes that bypass the change log. It is compared
  // only while the log is quiet: a logged write moves it too, so while writes are logged it could
  // only be taken again as the new baseline — a scan of the ledger (~1 s of the event loop at a
  // million publishes) on every update for nothing. Once the log is quiet it is cast and, after
  // updates, becomes the baseline; an unlogged write shows as a difference from then on. In a big
  // world it is cast every 5 s at most, beside the reads: a read answers the states as they stand,
  // and a difference found makes the next read compute them again (at 10,950,000 publishes the
  // counts take 2–3 s, and on SQLite they run on a thread of their own: on the main thread every
  // page waited behind them after any write).
  const quiet = async () => (await lastUnitChange(db)) <= entry.seq && hour === entry.hour;
  if (await quiet()) {
    if (big) {
      if (!s.comparing && Date.now() - s.fingerprintAt >= FINGERPRINT_EVERY_MS) {
        s.comparing = compareRecords(db, s, entry, quiet)
          .catch((e: unknown) => log.error(`comparing the records with the unit states failed: ${(e as Error).message}`))
          .finally(() => {
            s.comparing = null;
            s.fingerprintAt = Date.now();
          });
      }
      return entry.snapshot;
    }
    const seen = await compareRecords(db, s, entry, quiet);
    if (seen === "same") return entry.snapshot;
    if (seen === "changed") return snapshotBy(db, now, arrivedAt);
  }
  // Another read started an update (or replaced the states) while this one looked: join it.
  if (s.running || s.entry !== entry) return snapshotBy(db, now, arrivedAt);
  const started = Date.now();
  const update = applyChanges(db, now, s, { ...entry, ledger: null }, hour).finally(() => {
    if (s.running === update) s.running = null;
    if (big) s.nextUpdateAt = Date.now() + (Date.now() - started);
  });
  s.running = update;
  update.catch((e: unknown) => log.error(`updating the unit states failed: ${(e as Error).message}`));
  if (!(await settlesBy(update, entry, arrivedAt))) return entry.snapshot;
  await update;
  return s.entry!.snapshot;
}

/**
 * The records against the states' baseline (unitStateFingerprint): "same" (the baseline taken if
 * there was none yet), "changed" (a write that bypassed the change log, a direct write to the
 * database: the states are marked to be computed again), or "moved" (a change was logged meanwhile,
 * or the states were replaced: nothing to conclude; the read applies what is new).
 */
async function compareRecords(db: Db, s: State, entry: Entry, quiet: () => Promise<boolean>): Promise<"same" | "changed" | "moved"> {
  const ledger = (await unitStateFingerprintOffMainThread(db)).ledger;
  // Cast before this second look: a change logged in between is not in it.
  if (!(await quiet()) || s.entry !== entry) return "moved";
  if (entry.ledger === null || ledger === entry.ledger) {
    if (entry.ledger === null) s.entry = { ...entry, ledger };
    return "same";
  }
  s.entry = { ...entry, catalog: "" };
  return "changed";
}

/**
 * No states for this catalog yet: start (or join) the full computation and wait for it a little;
 * a small world always waits. Then answer with the previous catalog's states (refreshing) or,
 * on a first start, the datasets computed so far (computing).
 */
async function answerDuringFullComputation(db: Db, now: Date, s: State, catalog: string): Promise<UnitStateSnapshot> {
  if (!s.full || s.full.catalog !== catalog) startFullComputation(db, now, s, catalog);
  const full = s.full!;
  await full.sized.catch(() => undefined);
  const small = full.units <= SMALL_WORLD_UNITS;
  const finished = await Promise.race([full.done.then(() => true), ...(small ? [] : [sleep(WAIT_MS).then(() => false)])]);
  if (finished && s.entry?.catalog === catalog) return s.entry.snapshot;
  // The catalog moved on while this computation ran (a producer declared a new dataset), or the
  // computation failed: the states there are, marked refreshing, or the newer computation's
  // progress — never an error page while datasets arrive.
  if (s.entry) return { ...s.entry.snapshot, refreshing: true };
  const current = finished ? (s.full ?? null) : full;
  if (!current) throw new HttpError(503, "unit_states_unavailable", "the unit states could not be computed; they are computed again on the next read");
  return { computedAt: now, datasets: [...current.partial], computing: { done: current.partial.length, total: current.total }, refreshing: false };
}

function startFullComputation(db: Db, now: Date, s: State, catalog: string): void {
  const partial: DatasetStateCodes[] = [];
  let sized = () => {};
  const full = { catalog, partial, total: 0, units: 0, done: Promise.resolve(), sized: new Promise<void>((r) => (sized = r)) };
  s.full = full;
  full.done = (async () => {
    // Fingerprint and sequence before the records are read: what lands meanwhile is applied after.
    let ledger: string, datasets: DatasetRecord[], seq: number;
    try {
      // In process: the thread starting beside the computation's own (~1 s) held every first read
      // waiting for the size, and at a million publishes the counts are 100–250 ms.
      ({ ledger } = await unitStateFingerprint(db));
      [datasets, seq] = await Promise.all([listDatasets(db), lastUnitChange(db)]);
      full.total = datasets.length;
      full.units = datasets.reduce((n, d) => n + safeSize(d, now), 0);
    } finally {
      // Only once the size is known (or the reads failed): a waiter decides on it whether to wait.
      sized();
    }
    await computeAll(db, now, partial, full.units);
    const snapshot: UnitStateSnapshot = { computedAt: now, datasets: [...partial], computing: null, refreshing: false };
    const entry = { catalog, ledger, seq, above: new Set<number>(), gaps: new Map(), hour: Math.floor(now.getTime() / HOUR), snapshot };
    // A computation a newer catalog superseded does not replace the states of a newer one.
    if (s.full !== full && s.entry) return;
    s.entry = entry;
    await persist(db, s.entry);
  })().finally(() => {
    if (s.full === full) s.full = null;
  });
  full.done.catch((e: unknown) => log.error(`computing the unit states failed: ${(e as Error).message}`));
}

/**
 * Every dataset's states into `partial`, upstream first: a big world's on a thread of its own in
 * the console's server (the pages keep the main thread); a small one's — faster than starting a
 * thread (the demo's 15 datasets: ~1.6 s on a thread, most of it the thread's start) — or if the
 * thread fails, in process.
 */
async function computeAll(db: Db, now: Date, partial: DatasetStateCodes[], units: number): Promise<void> {
  if (units > SMALL_WORLD_UNITS && threadAvailable() && db === getDb()) {
    const started = performance.now();
    const stop = new AbortController();
    try {
      // Parts of the lineage no task links need nothing of each other: one thread each, as many
      // as there are cores (up to 4). A space is not sent (it is a class): resolved here as the thread resolved it.
      const [datasets, edges] = await Promise.all([listDatasets(db), listEdgesAt(db, now)]);
      const parts = computationParts(datasets, edges, Math.min(4, availableParallelism()), (d) => safeSize(d, now));
      const receive = (d: ThreadDataset) => {
        if (!stop.signal.aborted) partial.push({ ...d, space: resolvePartitions(d.dataset.partitionDef, { asOf: now.getTime() }) });
      };
      const threads = parts.length > 1 ? parts.map((part) => part.map((d) => d.nodeId)) : [undefined];
      await Promise.all(threads.map((ids) => visitUnitStatesInThread(now, receive, ids, stop.signal)));
      // In the order one pass gives (upstream first), whichever thread finished first.
      if (parts.length > 1) {
        const writerOf = new Map(edges.filter((e) => e.direction === "write").map((e) => [e.datasetId, e.taskId]));
        const rank = new Map(upstreamFirst(datasets, edges, writerOf).map((d, i) => [d.id, i]));
        const at = (d: DatasetStateCodes) => rank.get(d.dataset.id) ?? rank.size;
        partial.sort((a, b) => at(a) - at(b));
      }
      log.info(
        `unit states of ${partial.length} datasets computed on ${threads.length} thread(s) of their own in ${Math.round(performance.now() - started)} ms`,
      );
      return;
    } catch (e) {
      stop.abort();
      log.warn(`computing the unit states on threads of their own failed (${(e as Error).message}): computing them in process`);
      partial.length = 0;
    }
  }
  await visitUnitStates(db, now, {}, (d) => partial.push(toCodes(d)));
}

function safeSize(d: DatasetRecord, now: Date): number {
  try {
    return resolvePartitions(d.partitionDef, { asOf: now.getTime() }).size;
  } catch {
    return 1;
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());

/**
 * The changes after the applied ones, and on a new hour the units that became due, applied as
 * unit recomputations over their downstream closure, upstream first. Too many at once: a full
 * computation (the states answer meanwhile as they are).
 */
async function applyChanges(db: Db, now: Date, s: State, entry: Entry, hour: number): Promise<void> {
  const changes = await unitChangesAfter(db, entry.seq, MAX_CHANGES + 1);
  const fresh = changes.filter((c) => !entry.above.has(c.seq));
  if (fresh.length > MAX_CHANGES) {
    s.entry = { ...entry, catalog: "" };
    startFullComputation(db, now, s, await lineageFingerprint(db));
    return;
  }
  const [edges, datasets] = await Promise.all([listEdgesAt(db, now), listDatasets(db)]);
  const byId = new Map(entry.snapshot.datasets.map((d) => [d.dataset.id, d]));
  const seeds = new Map<string, Set<number>>();
  const seed = (d: DatasetStateCodes, ordinal: number) => seeds.set(d.dataset.id, (seeds.get(d.dataset.id) ?? new Set()).add(ordinal));
  const written = writtenBy(entry.snapshot.datasets);
  const resized = new Map<string, DatasetStateCodes>();
  if (hour !== entry.hour) for (const d of entry.snapshot.datasets) newlyDue(d, now, seed, resized);
  for (const c of fresh) {
    for (const d of c.datasetId ? [byId.get(c.datasetId)] : (written.get(c.taskId ?? "") ?? [])) {
      const target = d && (resized.get(d.dataset.id) ?? d);
      const v = target?.space.validate(c.unitKey);
      if (target && v?.valid) seed(target, v.ordinal);
    }
  }
  const work = await affectedUnits(db, now, seeds, byId, resized);
  if (work.total > MAX_UNITS) {
    s.entry = { ...entry, catalog: "" };
    startFullComputation(db, now, s, await lineageFingerprint(db));
    return;
  }
  const current = new Map(entry.snapshot.datasets.map((d) => [d.dataset.id, resized.get(d.dataset.id) ?? d]));
  const big = unitsOf(entry.snapshot) > SMALL_WORLD_UNITS;
  const problemsOf = problemsLookupOf(current);
  const spaces = new Map([...current.values()].map((d) => [d.dataset.id, d.space]));
  for (const { datasetId, units } of work.order) {
    const d = current.get(datasetId);
    if (!d) continue;
    const recomputed = await recomputeUnits(
      db,
      now,
      { dataset: d.dataset, writer: d.writer, space: d.space, units, prevailing: d.prevailing },
      {
        edges,
        datasetsById: new Map(datasets.map((x) => [x.id, x])),
        spaces,
        problemsOf: problemsOf.get,
      },
    );
    const next = withUnits(d, units, recomputed);
    current.set(datasetId, next);
    problemsOf.forget(datasetId);
    // A turn of the event loop between datasets (load-unit-states.ts), or an update that caught
    // up with a stream of writes (thousands of units) holds every read for its length.
    if (big) await turn();
  }
  const settled = advance(entry, fresh, changes);
  s.entry = {
    ...settled,
    hour,
    snapshot: { computedAt: now, datasets: entry.snapshot.datasets.map((d) => current.get(d.dataset.id)!), computing: null, refreshing: false },
  };
  schedulePersist(db, s);
}

/** The datasets each task writes, by task row id. */
function writtenBy(datasets: DatasetStateCodes[]): Map<string, DatasetStateCodes[]> {
  const out = new Map<string, DatasetStateCodes[]>();
  for (const d of datasets) if (d.writer) out.set(d.writer.id, [...(out.get(d.writer.id) ?? []), d]);
  return out;
}

/** A new hour: the units that became due (or exist) since the codes were sized, as seeds; the codes resized. */
function newlyDue(d: DatasetStateCodes, now: Date, seed: (d: DatasetStateCodes, o: number) => void, resized: Map<string, DatasetStateCodes>): void {
  let space: PartitionSpace;
  try {
    space = resolvePartitions(d.dataset.partitionDef, { asOf: now.getTime() });
  } catch {
    return;
  }
  if (space.size === d.space.size && space.due.equals(d.space.due)) return;
  const codes = new Uint8Array(space.size).fill(NOT_EXPECTED);
  codes.set(d.codes.subarray(0, Math.min(space.size, d.codes.length)));
  const next = { ...d, space, codes };
  resized.set(d.dataset.id, next);
  const before = UnitSet.range(0, d.space.size - 1);
  for (const o of space.due.difference(d.space.due).union(UnitSet.range(d.space.size, space.size - 1).difference(before))) seed(next, o);
}

/** The seeds' downstream closure through the lineage of now, as units per dataset in topological order. */
async function affectedUnits(
  db: Db,
  now: Date,
  seeds: Map<string, Set<number>>,
  byId: Map<string, DatasetStateCodes>,
  resized: Map<string, DatasetStateCodes>,
) {
  const order: { datasetId: string; units: UnitSet }[] = [];
  if (seeds.size === 0) return { order, total: 0 };
  const { graph, datasets } = await loadLineageGraph(db, now);
  const idOfNode = new Map([...datasets.values()].map((d) => [d.nodeId, d.id]));
  const inGraph: Seed[] = [];
  const outside: { datasetId: string; units: UnitSet }[] = [];
  for (const [datasetId, ordinals] of seeds) {
    const d = resized.get(datasetId) ?? byId.get(datasetId)!;
    const units = UnitSet.fromOrdinals(ordinals);
    if (graph.index.has(d.dataset.nodeId as DatasetId)) inGraph.push({ node: d.dataset.nodeId as DatasetId, units });
    else outside.push({ datasetId, units });
  }
  let total = outside.reduce((n, o) => n + o.units.size, 0);
  if (inGraph.length > 0) {
    const down = closure(graph, inGraph, "downstream");
    for (const i of graph.topo) {
      const node = graph.nodes[i]!;
      const entry = node.nodeKind === "dataset" ? down.entries.get(node.id) : undefined;
      const datasetId = entry && idOfNode.get(node.id);
      if (!entry || !datasetId || !byId.has(datasetId)) continue;
      const size = (resized.get(datasetId) ?? byId.get(datasetId)!).space.size;
      const units = entry.units.clip(size);
      if (units.isEmpty) continue;
      order.push({ datasetId, units });
      total += units.size;
    }
  }
  return { order: [...outside, ...order], total };
}

/** The dataset's codes and problems with the recomputed units replaced (units without a state now: none). */
function withUnits(d: DatasetStateCodes, units: UnitSet, recomputed: DatasetUnitStates): DatasetStateCodes {
  const codes = d.codes.slice();
  const problems = new Map(d.problems);
  for (const o of units) {
    if (o >= codes.length) break;
    codes[o] = NOT_EXPECTED;
    problems.delete(o);
  }
  for (const u of recomputed.units) {
    codes[u.ordinal] = RANK.get(u.result.state)!;
    if (!HEALTHY.has(u.result.state)) problems.set(u.ordinal, u.result);
  }
  return { ...d, codes, problems };
}

/**
 * The applied watermark after these changes: contiguous sequence numbers advance it; one past a
 * gap is remembered in `above` until the gap fills (a PostgreSQL transaction that took its number
 * earlier but commits later) or is older than GAP_MS (a rolled-back one, which never will).
 */
function advance(entry: Entry, applied: UnitChangeRecord[], seen: UnitChangeRecord[]): Omit<Entry, "hour" | "snapshot"> {
  const above = new Set(entry.above);
  for (const c of applied) above.add(c.seq);
  const gaps = new Map(entry.gaps);
  let seq = entry.seq;
  const now = Date.now();
  const highest = seen.reduce((m, c) => Math.max(m, c.seq), seq);
  while (seq < highest) {
    if (above.has(seq + 1)) {
      above.delete(seq + 1);
      gaps.delete(seq + 1);
      seq++;
      continue;
    }
    const since = gaps.get(seq + 1) ?? now;
    gaps.set(seq + 1, since);
    if (now - since < GAP_MS) break;
    gaps.delete(seq + 1);
    seq++;
  }
  return { catalog: entry.catalog, ledger: entry.ledger, seq, above, gaps };
}

/** What is kept in UnitStateSnapshot.body: what the states were computed under, and which datasets are kept. */
interface PersistedSnapshot {
  version: 5;
  vocabulary: string;
  /** The fact fields in the order each problem lists them (a change of UnitStateFacts recomputes). */
  fields: string;
  catalog: string;
  ledger: string | null;
  seq: number;
  above: number[];
  hour: number;
  /** The instant the units were resolved at (the spaces the codes index). */
  resolvedAt: number;
  /** The datasets' ids, in the states' order; each one's states are a UnitStateKept row. */
  datasets: string[];
}

/** What is kept in a UnitStateKept row: one dataset's states. */
interface PersistedDataset {
  codes: string;
  /** Every state, reason and text fact of its problem units once; problems refer to them by index. */
  strings: string[];
  problems: PersistedProblem[];
  invalid: { key: string; reason: string }[];
  prevailing: string | null;
}

/** [ordinal, state, [reason…], …facts in FACT_FIELDS order]; strings as indexes into `strings`. */
type PersistedProblem = [number, number, number[], ...(number | boolean | null)[]];

/**
 * The facts kept with each problem unit, in order. A million-unit world has ~400,000 problem
 * units: kept as objects with repeated keys and reasons they made a 127 MB body that took ~1 s
 * of the event loop to write; as rows of a string table, a fraction of that.
 */
const FACT_FIELDS = [
  "publishCount",
  "ageMs",
  "lastRunId",
  "inputVersion",
  "codeVersion",
  "attempts",
  "partialRows",
  "sourceCount",
  "deviation",
  "running",
] as const satisfies readonly (keyof UnitStateFacts)[];
const TEXT_FACTS: ReadonlySet<string> = new Set<keyof UnitStateFacts>(["lastRunId", "inputVersion", "codeVersion"]);
// Every fact field is listed: adding one to UnitStateFacts without listing it fails to compile.
const EVERY_FACT: Exclude<keyof UnitStateFacts, (typeof FACT_FIELDS)[number]> extends never ? true : never = true;
void EVERY_FACT;

function encodeProblems(problems: Map<number, UnitStateResult>, intern: (text: string) => number): PersistedProblem[] {
  return [...problems].map(([o, r]) => [
    o,
    intern(r.state),
    r.reasons.map(intern),
    ...FACT_FIELDS.map((f) => {
      const v = r.facts[f];
      return TEXT_FACTS.has(f) && v !== null ? intern(v as string) : (v as number | boolean | null);
    }),
  ]);
}

function decodeProblems(rows: PersistedProblem[], strings: readonly string[]): Map<number, UnitStateResult> {
  return new Map(
    rows.map(([o, state, reasons, ...values]) => {
      const facts = Object.fromEntries(
        FACT_FIELDS.map((f, i) => {
          const v = values[i] ?? null;
          return [f, TEXT_FACTS.has(f) && v !== null ? strings[v as number]! : v];
        }),
      ) as unknown as UnitStateFacts;
      return [o, { state: strings[state] as UnitState, reasons: reasons.map((x) => strings[x]!), facts }];
    }),
  );
}

function schedulePersist(db: Db, s: State): void {
  // A console server keeps the states through its `unit-states` job (one instance at a time);
  // a script or test without background work keeps them itself.
  if (s.persistTimer || runningJobQueue()) return;
  s.persistTimer = setTimeout(() => {
    s.persistTimer = null;
    if (s.entry) void persist(db, s.entry);
  }, PERSIST_EVERY_MS);
  s.persistTimer.unref?.();
}

/** Kept datasets taken up per read (a turn of the event loop between reads). */
const KEPT_PAGE = 100;

async function persist(db: Db, entry: Entry): Promise<void> {
  try {
    const s = stateOf(db);
    const { snapshot } = entry;
    // States are replaced, never changed in place: a dataset whose states are still the ones this
    // process last kept or took up is in the database as it is here.
    const kept = new Map((s.kept?.datasets ?? []).map((d) => [d.dataset.id, d]));
    const changed: { datasetId: string; body: string }[] = [];
    for (const d of snapshot.datasets) {
      if (kept.get(d.dataset.id) === d) continue;
      changed.push({ datasetId: d.dataset.id, body: JSON.stringify(encodeDataset(d)) });
      await turn(); // as the computation does after each dataset: requests answer meanwhile
    }
    const header: PersistedSnapshot = {
      version: 5,
      vocabulary: STATE_VOCABULARY,
      fields: FACT_FIELDS.join(","),
      catalog: entry.catalog,
      ledger: entry.ledger,
      seq: entry.seq,
      above: [...entry.above],
      hour: entry.hour,
      resolvedAt: snapshot.computedAt.getTime(),
      datasets: snapshot.datasets.map((d) => d.dataset.id),
    };
    await writeUnitStateSnapshot(db, JSON.stringify(header), snapshot.computedAt, changed, header.datasets);
    s.kept = snapshot;
    // Changes the kept states include are needed by no reader but a console behind: every console
    // brings its states up at least hourly (warm-unit-states.ts), so two hours of them are kept.
    await pruneUnitChanges(db, entry.seq, new Date(Date.now() - 2 * HOUR));
  } catch (e) {
    // The states in memory are right; only a restart will have to compute them again.
    log.error(`keeping the unit states in the database failed: ${(e as Error).message}`);
  }
}

function encodeDataset(d: DatasetStateCodes): PersistedDataset {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const intern = (text: string) => {
    let i = index.get(text);
    if (i === undefined) index.set(text, (i = strings.push(text) - 1));
    return i;
  };
  const problems = encodeProblems(d.problems, intern);
  return { codes: Buffer.from(d.codes).toString("base64"), strings, problems, invalid: d.invalidLedgerKeys, prevailing: d.prevailing };
}

/**
 * The kept states as this process's, as if it had computed them: the catalog fingerprint then
 * decides whether they answer (with the changes since applied) or are computed again. States
 * that no longer fit the catalog (a dataset gone, a definition changed) are not used. Datasets
 * are taken up a page at a time with turns of the event loop between, so requests are answered
 * meanwhile. A dataset kept after the header was read (another console keeping its states) is
 * newer than the header's watermark: the changes since the watermark, applied again, recompute
 * the same units from the records.
 */
async function restore(db: Db, now: Date, s: State): Promise<void> {
  const row = await readUnitStateSnapshot(db);
  if (!row || s.entry) return;
  const kept = JSON.parse(row.body) as PersistedSnapshot;
  if (kept.version !== 5 || kept.vocabulary !== STATE_VOCABULARY || kept.fields !== FACT_FIELDS.join(",")) return;
  const [datasets, tasks, edges] = await Promise.all([listDatasets(db), listTasks(db), listEdgesAt(db, now)]);
  if (kept.datasets.length !== datasets.length) return;
  const datasetsById = new Map(datasets.map((d) => [d.id, d]));
  const tasksById = new Map(tasks.map((t) => [t.id, t]));
  const writerOf = new Map(edges.filter((e) => e.direction === "write").map((e) => [e.datasetId, e.taskId]));
  const listed = new Set(kept.datasets);
  const byId = new Map<string, DatasetStateCodes>();
  for (let after: string | null = null; ;) {
    const page = await readKeptDatasets(db, after, KEPT_PAGE);
    for (const r of page) {
      if (!listed.has(r.datasetId)) continue;
      const dataset = datasetsById.get(r.datasetId);
      if (!dataset) return;
      const d = JSON.parse(r.body) as PersistedDataset;
      const space = resolvePartitions(dataset.partitionDef, { asOf: kept.resolvedAt });
      const codes = new Uint8Array(Buffer.from(d.codes, "base64"));
      if (codes.length !== space.size) return;
      byId.set(r.datasetId, {
        dataset,
        writer: tasksById.get(writerOf.get(r.datasetId) ?? "") ?? null,
        space,
        codes,
        problems: decodeProblems(d.problems, d.strings),
        invalidLedgerKeys: d.invalid,
        prevailing: d.prevailing,
      });
    }
    if (page.length < KEPT_PAGE) break;
    after = page.at(-1)!.datasetId;
    await turn();
  }
  const restored = kept.datasets.map((id) => byId.get(id));
  if (s.entry || restored.some((d) => d === undefined)) return;
  s.entry = {
    catalog: kept.catalog,
    ledger: kept.ledger,
    seq: kept.seq,
    above: new Set(kept.above),
    gaps: new Map(),
    hour: kept.hour,
    snapshot: { computedAt: row.computedAt, datasets: restored as DatasetStateCodes[], computing: null, refreshing: false },
  };
  s.kept = s.entry.snapshot;
}

/** Problem units per dataset of a set of dataset states, memoised; `forget` after a dataset changes. */
function problemsLookupOf(byId: Map<string, DatasetStateCodes>) {
  const memo = new Map<string, DatasetProblems>();
  return {
    get: (id: string) => {
      const d = byId.get(id);
      if (!d) return undefined;
      let p = memo.get(id);
      if (!p) memo.set(id, (p = problemsOfCodes(d)));
      return p;
    },
    forget: (id: string) => void memo.delete(id),
  };
}

/**
 * The units of the kept states that make what reads them suspect (suspect.ts), per dataset id:
 * a load of a few datasets (one cell, an incident's units) judges their units against the same
 * upstream states the whole computation did, so both say the same.
 */
export function problemsLookup(snapshot: UnitStateSnapshot): (datasetId: string) => DatasetProblems | undefined {
  return problemsLookupOf(new Map(snapshot.datasets.map((d) => [d.dataset.id, d]))).get;
}

function problemsOfCodes(d: DatasetStateCodes): DatasetProblems {
  const problems = new Map<number, string>();
  for (const [o, r] of d.problems) {
    const p = upstreamProblemOf(r.state, r.facts.partialRows);
    if (p !== null) problems.set(o, p);
  }
  return { nodeId: d.dataset.nodeId, space: d.space, units: UnitSet.fromOrdinals(problems.keys()), problemAt: (o) => problems.get(o) ?? "bad" };
}

/** The state of one unit in the kept states (undefined: not a unit with a state). */
export function stateLookup(snapshot: UnitStateSnapshot): (datasetNodeId: string, key: string) => UnitState | undefined {
  const byNode = new Map(snapshot.datasets.map((d) => [d.dataset.nodeId, d]));
  return (node, key) => {
    const d = byNode.get(node);
    const v = d?.space.validate(key);
    if (!d || !v?.valid) return undefined;
    const code = d.codes[v.ordinal]!;
    return code === NOT_EXPECTED ? undefined : UNIT_STATE_PRECEDENCE[code];
  };
}

/**
 * The `unit-states` job: brings this instance's states up to date and, when they moved since it
 * last did, keeps them in the database (with the change rows they include pruned), so a console
 * that starts, or another instance, takes them up instead of reading the whole ledger.
 */
export async function keepUnitStates(db: Db, now: Date): Promise<void> {
  await whenUnitStatesReady(db, now);
  const s = stateOf(db);
  if (!s.entry || s.entry.snapshot === s.kept) return;
  await persist(db, s.entry);
}

/** How far this instance's states are behind the change log (0 = caught up; null = not computed yet). */
export async function unitStateLag(db: Db): Promise<number | null> {
  const entry = stateOf(db).entry;
  if (!entry) return null;
  return Math.max(0, (await lastUnitChange(db)) - entry.seq);
}

/** Resolves once the states of the current catalog are complete and current (the server's start-up warm-up waits on it). */
export async function whenUnitStatesReady(db: Db, now: Date): Promise<UnitStateSnapshot> {
  for (;;) {
    const snapshot = await getUnitStateSnapshot(db, now);
    if (!snapshot.computing && !snapshot.refreshing) return snapshot;
    await stateOf(db).full?.done.catch(() => undefined);
  }
}

/**
 * The kept states, holding at least these datasets: during a first start's computation, the
 * ones it has not reached are computed here (with any upstream dataset they need), so what
 * certifies or plans (completeness, an incident's scope) answers now and never reads a dataset
 * it has not reached as healthy. With `units` (a question's upstream closure), only those units
 * of them are computed, and only those units of them may be read from the answer.
 */
export async function getUnitStateSnapshotCovering(
  db: Db,
  now: Date,
  datasetNodeIds: readonly string[],
  units?: LoadOptions["units"],
): Promise<UnitStateSnapshot> {
  const snapshot = await getUnitStateSnapshot(db, now);
  if (!snapshot.computing) return snapshot;
  const have = new Set(snapshot.datasets.map((d) => d.dataset.nodeId));
  const missing = [...new Set(datasetNodeIds)].filter((id) => !have.has(id));
  if (missing.length === 0) return snapshot;
  const computed = await loadUnitStates(db, now, { datasetNodeIds: missing, knownProblems: problemsLookup(snapshot), units });
  return { ...snapshot, datasets: [...snapshot.datasets, ...computed.map(toCodes)] };
}

/**
 * Where the states stand, as the read APIs say it (StatesStatusSchema): still computing, being
 * refreshed, or behind events accepted and not folded yet (deferred folding).
 */
export async function statusOf(db: Db, snapshot: UnitStateSnapshot, now = new Date()): Promise<StatesStatus> {
  const lag = await pendingFoldLag(db);
  return {
    computing: snapshot.computing,
    refreshing: snapshot.refreshing,
    unfolded:
      lag.events > 0
        ? { events: lag.events, oldestSeconds: Math.max(0, Math.round((now.getTime() - (lag.oldestAcceptedAt?.getTime() ?? now.getTime())) / 1000)) }
        : null,
  };
}
