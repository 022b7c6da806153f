import { createHash } from "node:crypto";
import { resolvePartitions, type PartitionSpace } from "@/lib/domain/partitions";
import { upstreamProblemOf } from "@/lib/domain/suspect";
import { UnitSet } from "@/lib/domain/unit-set";
import { UNIT_STATE_PRECEDENCE, type UnitState, type UnitStateResult } from "@/lib/domain/unit-state";
import type { Db } from "../db/client";
import type { DatasetRecord, TaskRecord } from "../repositories/catalog";
import { listDatasets, listEdgesAt, listTasks } from "../repositories/catalog";
import { readUnitStateSnapshot, writeUnitStateSnapshot } from "../repositories/unit-state-snapshots";
import { ledgerFingerprintsByOwner, unitStateFingerprint } from "../repositories/unit-matrix-reads";
import { visitUnitStates, type DatasetUnitStates } from "./load-unit-states";
import type { DatasetProblems } from "./upstream-problems";

/** Byte per unit: the state's index in UNIT_STATE_PRECEDENCE, or NOT_EXPECTED. */
export const NOT_EXPECTED = 255;
const RANK = new Map<UnitState, number>(UNIT_STATE_PRECEDENCE.map((s, i) => [s, i]));

export interface DatasetStateCodes {
  dataset: DatasetRecord;
  writer: TaskRecord | null;
  space: PartitionSpace;
  codes: Uint8Array;
  /**
   * The full result (reasons, facts) of every unit that is not simply healthy — every state but
   * published and repaired — by ordinal: what the overview, the alerts and the failure lists
   * read, without computing a single unit again.
   */
  problems: Map<number, UnitStateResult>;
  invalidLedgerKeys: { key: string; reason: string }[];
}

const HEALTHY = new Set<UnitState>(["published", "repaired"]);

/**
 * The kept states' vocabulary: a hash of the precedence the codes index. A snapshot kept under
 * another vocabulary (a state added, the order changed) is computed again, never remapped.
 */
export const STATE_VOCABULARY = createHash("sha1").update(UNIT_STATE_PRECEDENCE.join(",")).digest("hex").slice(0, 12);

export interface UnitStateSnapshot {
  computedAt: Date;
  datasets: DatasetStateCodes[];
}

interface Entry {
  hour: number;
  catalog: string;
  ledger: string;
  /** Per dataset id: its publishes' and its writer's attempts' summary when computed. */
  owners: Promise<Map<string, string>>;
  snapshot: Promise<UnitStateSnapshot>;
}
// On globalThis: the server-start warm-up (instrumentation) and the routes are separate bundles,
// each with its own copy of this module; one cache per process lets the routes find the warm one.
const holder = globalThis as unknown as { __reparoUnitStates?: WeakMap<Db, Entry> };
const cache = (holder.__reparoUnitStates ??= new WeakMap<Db, Entry>());
const HOUR = 3_600_000;

/**
 * Every unit's state as one byte, recomputed only where the records changed. Gathering a
 * million units' facts takes seconds (every ledger row and attempt is read); the fingerprints
 * take milliseconds. Unchanged records: the snapshot answers. New publishes or attempts: only
 * the datasets whose ledger or writer's attempts changed, and the datasets that read them
 * (staleness), are recomputed; so are, on a new hour, the datasets whose expected units grew
 * (a unit's state does not depend on the clock, only which units are expected does). A catalog,
 * lineage, mark or source-count change recomputes everything. Concurrent requests share one
 * computation. Each snapshot is also kept in the database (UnitStateSnapshot): a console that
 * restarts, or another console on the same database, starts from it instead of from nothing.
 */
export async function getUnitStateSnapshot(db: Db, now: Date): Promise<UnitStateSnapshot> {
  const fp = await unitStateFingerprint(db);
  const hour = Math.floor(now.getTime() / HOUR);
  const cached = cache.get(db) ?? (await restoreOnce(db, now));
  if (cached && cached.hour === hour && cached.catalog === fp.catalog && cached.ledger === fp.ledger) return cached.snapshot;
  const incremental = cached && cached.catalog === fp.catalog;
  // Taken before the states are gathered: a write landing in between is then seen as a change
  // next time, never folded into the baseline without being in the snapshot.
  const owners = ownerFingerprints(db);
  const computed = owners.then(() => (incremental ? refresh(db, now, cached, owners) : computeSnapshot(db, now, null)));
  const entry: Entry = { hour, catalog: fp.catalog, ledger: fp.ledger, owners, snapshot: computed.then((s) => persist(db, entry, s)) };
  cache.set(db, entry);
  try {
    await owners;
    return await entry.snapshot;
  } catch (e) {
    if (cache.get(db) === entry) cache.delete(db);
    throw e;
  }
}

/** What is kept in UnitStateSnapshot.body. */
interface PersistedSnapshot {
  version: 2;
  vocabulary: string;
  hour: number;
  catalog: string;
  ledger: string;
  owners: [string, string][];
  /** The instant the units were resolved at (the spaces the codes index). */
  resolvedAt: number;
  datasets: { id: string; codes: string; problems: [number, UnitStateResult][]; invalid: { key: string; reason: string }[] }[];
}

async function persist(db: Db, entry: Entry, snapshot: UnitStateSnapshot): Promise<UnitStateSnapshot> {
  try {
    const body: PersistedSnapshot = {
      version: 2, vocabulary: STATE_VOCABULARY, hour: entry.hour, catalog: entry.catalog, ledger: entry.ledger, owners: [...(await entry.owners)],
      resolvedAt: snapshot.computedAt.getTime(),
      datasets: snapshot.datasets.map((d) => ({ id: d.dataset.id, codes: Buffer.from(d.codes).toString("base64"), problems: [...d.problems], invalid: d.invalidLedgerKeys })),
    };
    await writeUnitStateSnapshot(db, JSON.stringify(body), snapshot.computedAt);
  } catch (e) {
    // The snapshot in memory is right; only a restart will have to compute it again.
    console.error(`reparo: keeping the unit states in the database failed: ${(e as Error).message}`);
  }
  return snapshot;
}

const restoring = new WeakMap<Db, Promise<Entry | null>>();
function restoreOnce(db: Db, now: Date): Promise<Entry | null> {
  let pending = restoring.get(db);
  if (!pending) {
    pending = restore(db, now).catch(() => null);
    restoring.set(db, pending);
  }
  return pending;
}

/**
 * The kept snapshot as a cache entry, as if this process had computed it: the fingerprints then
 * decide, as for any cached entry, whether it answers as is or which datasets to recompute. A
 * snapshot that no longer fits the catalog (a dataset gone, a definition changed) is not used.
 */
async function restore(db: Db, now: Date): Promise<Entry | null> {
  const row = await readUnitStateSnapshot(db);
  if (!row) return null;
  const kept = JSON.parse(row.body) as PersistedSnapshot;
  if (kept.version !== 2 || kept.vocabulary !== STATE_VOCABULARY) return null;
  const [datasets, tasks, edges] = await Promise.all([listDatasets(db), listTasks(db), listEdgesAt(db, now)]);
  const datasetsById = new Map(datasets.map((d) => [d.id, d]));
  const tasksById = new Map(tasks.map((t) => [t.id, t]));
  const writerOf = new Map(edges.filter((e) => e.direction === "write").map((e) => [e.datasetId, e.taskId]));
  const restored: DatasetStateCodes[] = [];
  for (const d of kept.datasets) {
    const dataset = datasetsById.get(d.id);
    if (!dataset) return null;
    const space = resolvePartitions(dataset.partitionDef, { asOf: kept.resolvedAt });
    const codes = new Uint8Array(Buffer.from(d.codes, "base64"));
    if (codes.length !== space.size) return null;
    restored.push({ dataset, writer: tasksById.get(writerOf.get(d.id) ?? "") ?? null, space, codes, problems: new Map(d.problems), invalidLedgerKeys: d.invalid });
  }
  const entry: Entry = {
    hour: kept.hour, catalog: kept.catalog, ledger: kept.ledger, owners: Promise.resolve(new Map(kept.owners)),
    snapshot: Promise.resolve({ computedAt: row.computedAt, datasets: restored }),
  };
  if (!cache.has(db)) cache.set(db, entry);
  return cache.get(db)!;
}

async function ownerFingerprints(db: Db): Promise<Map<string, string>> {
  const { publishes, attempts } = await ledgerFingerprintsByOwner(db);
  const out = new Map<string, string>();
  for (const [id, p] of publishes) out.set(`d:${id}`, p);
  for (const [id, a] of attempts) out.set(`t:${id}`, a);
  return out;
}

async function refresh(db: Db, now: Date, previous: Entry, owners: Promise<Map<string, string>>): Promise<UnitStateSnapshot> {
  const [base, before, after, edges] = await Promise.all([previous.snapshot, previous.owners, owners, listEdgesAt(db, now)]);
  const changed = new Set(base.datasets.filter((d) => {
    const keys = [`d:${d.dataset.id}`, ...(d.writer ? [`t:${d.writer.id}`] : [])];
    return keys.some((k) => before.get(k) !== after.get(k)) || expectedGrew(d, now);
  }).map((d) => d.dataset.id));
  // Nothing to recompute: the same states, now known to be current.
  if (changed.size === 0) return { computedAt: now, datasets: base.datasets };
  const redo = downstreamOf(changed, base.datasets, edges);
  return computeSnapshot(db, now, { base, nodeIds: base.datasets.filter((d) => redo.has(d.dataset.id)).map((d) => d.dataset.nodeId) });
}

/**
 * The changed datasets and every dataset built from them, transitively: a reader's staleness
 * reads its upstream's ledger, and whether it is suspect reads its upstream's states, which may
 * have changed all the way down.
 */
function downstreamOf(changed: Set<string>, datasets: DatasetStateCodes[], edges: { taskId: string; datasetId: string; direction: string }[]): Set<string> {
  const writtenBy = new Map<string, string[]>();
  for (const d of datasets) if (d.writer) writtenBy.set(d.writer.id, [...(writtenBy.get(d.writer.id) ?? []), d.dataset.id]);
  const readersOf = new Map<string, string[]>();
  for (const e of edges) if (e.direction === "read") readersOf.set(e.datasetId, [...(readersOf.get(e.datasetId) ?? []), e.taskId]);
  const out = new Set(changed);
  const queue = [...changed];
  while (queue.length > 0) {
    for (const task of readersOf.get(queue.pop()!) ?? []) {
      for (const d of writtenBy.get(task) ?? []) {
        if (out.has(d)) continue;
        out.add(d);
        queue.push(d);
      }
    }
  }
  return out;
}

/** Whether the units expected now differ from the ones the codes were computed for (a window closed since). */
function expectedGrew(d: DatasetStateCodes, now: Date): boolean {
  const current = resolvePartitions(d.dataset.partitionDef, { asOf: now.getTime() });
  return current.size !== d.space.size || !current.expected.equals(d.space.expected);
}

async function computeSnapshot(db: Db, now: Date, partial: { base: UnitStateSnapshot; nodeIds: string[] } | null): Promise<UnitStateSnapshot> {
  const fresh = new Map<string, DatasetStateCodes>();
  const knownProblems = partial ? problemsLookup(partial.base) : undefined;
  await visitUnitStates(db, now, partial ? { datasetNodeIds: partial.nodeIds, knownProblems } : {}, (d) => fresh.set(d.dataset.id, toCodes(d)));
  const datasets = partial ? partial.base.datasets.map((d) => fresh.get(d.dataset.id) ?? d) : [...fresh.values()];
  return { computedAt: now, datasets };
}

function toCodes(d: DatasetUnitStates): DatasetStateCodes {
  const codes = new Uint8Array(d.space.size).fill(NOT_EXPECTED);
  const problems = new Map<number, UnitStateResult>();
  for (const u of d.units) {
    codes[u.ordinal] = RANK.get(u.result.state)!;
    if (!HEALTHY.has(u.result.state)) problems.set(u.ordinal, u.result);
  }
  return { dataset: d.dataset, writer: d.writer, space: d.space, codes, problems, invalidLedgerKeys: d.invalidLedgerKeys };
}

/**
 * The units of the kept states that make what reads them suspect (suspect.ts), per dataset id:
 * a load of a few datasets (one cell, an incident's units) judges their units against the same
 * upstream states the whole computation did, so both say the same.
 */
export function problemsLookup(snapshot: UnitStateSnapshot): (datasetId: string) => DatasetProblems | undefined {
  const byId = new Map(snapshot.datasets.map((d) => [d.dataset.id, d]));
  const memo = new Map<string, DatasetProblems>();
  return (id) => {
    const d = byId.get(id);
    if (!d) return undefined;
    let p = memo.get(id);
    if (!p) memo.set(id, (p = problemsOfCodes(d)));
    return p;
  };
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
