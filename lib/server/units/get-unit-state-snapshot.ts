import type { PartitionSpace } from "@/lib/domain/partitions";
import { UNIT_STATE_PRECEDENCE, type UnitState } from "@/lib/domain/unit-state";
import type { Db } from "../db/client";
import type { DatasetRecord, TaskRecord } from "../repositories/catalog";
import { listEdgesAt } from "../repositories/catalog";
import { ledgerFingerprintsByOwner, unitStateFingerprint } from "../repositories/unit-matrix-reads";
import { visitUnitStates, type DatasetUnitStates } from "./load-unit-states";

/** Byte per unit: the state's index in UNIT_STATE_PRECEDENCE, or NOT_EXPECTED. */
export const NOT_EXPECTED = 255;
const RANK = new Map<UnitState, number>(UNIT_STATE_PRECEDENCE.map((s, i) => [s, i]));

export interface DatasetStateCodes {
  dataset: DatasetRecord;
  writer: TaskRecord | null;
  space: PartitionSpace;
  codes: Uint8Array;
  invalidLedgerKeys: { key: string; reason: string }[];
}

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
 * (staleness), are recomputed. A catalog, lineage, mark or source-count change, or a new hour
 * (open-ended definitions gain units), recomputes everything. Concurrent requests share one
 * computation.
 */
export async function getUnitStateSnapshot(db: Db, now: Date): Promise<UnitStateSnapshot> {
  const fp = await unitStateFingerprint(db);
  const hour = Math.floor(now.getTime() / HOUR);
  const cached = cache.get(db);
  if (cached && cached.hour === hour && cached.catalog === fp.catalog && cached.ledger === fp.ledger) return cached.snapshot;
  const incremental = cached && cached.hour === hour && cached.catalog === fp.catalog;
  // Taken before the states are gathered: a write landing in between is then seen as a change
  // next time, never folded into the baseline without being in the snapshot.
  const owners = ownerFingerprints(db);
  const snapshot = owners.then(() => (incremental ? refresh(db, now, cached, owners) : computeSnapshot(db, now, null)));
  const entry: Entry = { hour, catalog: fp.catalog, ledger: fp.ledger, owners, snapshot };
  cache.set(db, entry);
  try {
    await owners;
    return await snapshot;
  } catch (e) {
    if (cache.get(db) === entry) cache.delete(db);
    throw e;
  }
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
    return keys.some((k) => before.get(k) !== after.get(k));
  }).map((d) => d.dataset.id));
  if (changed.size === 0) return base;
  const readers = new Set(edges.filter((e) => e.direction === "read" && changed.has(e.datasetId)).map((e) => e.taskId));
  const redo = base.datasets.filter((d) => changed.has(d.dataset.id) || (d.writer !== null && readers.has(d.writer.id)));
  return computeSnapshot(db, now, { base, nodeIds: redo.map((d) => d.dataset.nodeId) });
}

async function computeSnapshot(db: Db, now: Date, partial: { base: UnitStateSnapshot; nodeIds: string[] } | null): Promise<UnitStateSnapshot> {
  const fresh = new Map<string, DatasetStateCodes>();
  await visitUnitStates(db, now, partial ? { datasetNodeIds: partial.nodeIds } : {}, (d) => fresh.set(d.dataset.id, toCodes(d)));
  const datasets = partial ? partial.base.datasets.map((d) => fresh.get(d.dataset.id) ?? d) : [...fresh.values()];
  return { computedAt: now, datasets };
}

function toCodes(d: DatasetUnitStates): DatasetStateCodes {
  const codes = new Uint8Array(d.space.size).fill(NOT_EXPECTED);
  for (const u of d.units) codes[u.ordinal] = RANK.get(u.result.state)!;
  return { dataset: d.dataset, writer: d.writer, space: d.space, codes, invalidLedgerKeys: d.invalidLedgerKeys };
}
