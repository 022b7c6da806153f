import { compileMapping, type PartitionMapping } from "@/lib/domain/partition-mappings";
import type { PartitionSpace } from "@/lib/domain/partitions";
import type { UnitSet } from "@/lib/domain/unit-set";
import type { Db } from "../repositories/database";
import type { EdgeRecord, TaskRecord } from "../repositories/lineage/catalog-reads";
import type { LedgerEntry, RunKind } from "@/lib/domain/unit-state";
import { type ByUnit } from "../repositories/ledger/unit-ledger";
import { chunked } from "../repositories/sql/chunked";
import { attemptsOfTask, latestPublishedAtOfUnits, publishesOfDataset, unscheduledRunKinds } from "../repositories/units/unit-matrix-reads";

/**
 * Reads of some units' records by key (through the (owner, unitKey) indexes), as an incremental
 * update (recompute-units.ts) and a question's closure during a first start (load-unit-states.ts)
 * make them instead of reading whole ledgers.
 */
const CHUNK = 500;

/** One owner's records of some units of its space, by unit key. */
export async function keyed<T>(units: UnitSet, space: PartitionSpace, owner: string, read: (keys: string[]) => Promise<ByUnit<T>>): Promise<Map<string, T[]>> {
  const keys = [...units].filter((o) => o < space.size).map((o) => space.keyAt(o));
  return (await merged(chunks(keys).map(read))).get(owner) ?? new Map();
}

/**
 * The newest publish of each upstream unit the recomputed units read (staleness), per read
 * dataset, as the whole computation's latest-publish arrays but filled only where read.
 */
export async function upstreamLatest(
  db: Db,
  writer: TaskRecord,
  space: PartitionSpace,
  units: UnitSet,
  around: { edges: readonly EdgeRecord[]; spaces: ReadonlyMap<string, PartitionSpace> },
): Promise<Map<string, Float64Array>> {
  const out = new Map<string, Float64Array>();
  for (const e of around.edges) {
    if (e.taskId !== writer.id || e.direction !== "read" || e.mapping === "latest" || out.has(e.datasetId)) continue;
    const upSpace = around.spaces.get(e.datasetId);
    if (!upSpace) continue;
    let read: UnitSet;
    try {
      read = compileMapping({ type: e.mapping, ...e.mappingParams } as PartitionMapping, upSpace, space).readsOf(units);
    } catch {
      continue; // the whole computation skips such an edge for staleness too (upstream-resolver.ts)
    }
    const latest = new Float64Array(upSpace.size).fill(-1);
    const keys = [...read].filter((o) => o < upSpace.size).map((o) => upSpace.keyAt(o));
    await latestPublishedAtOfUnits(db, e.datasetId, keys, (key, at) => {
      const v = upSpace.validate(key);
      if (v.valid) latest[v.ordinal] = Math.max(latest[v.ordinal]!, at);
    });
    out.set(e.datasetId, latest);
  }
  return out;
}

const NO_KINDS = new Map<string, RunKind>();

/**
 * One dataset's publishes of some units, read as the first computation reads a whole dataset
 * (one JSON array per field, in its index's order: a unit's records in the same order either
 * way), the kinds of their runs read for those runs alone. An update after a fold recomputes
 * thousands of units on every console: through the ORM, a row per record, that read cost
 * about what the fold did (docs/ingestion.md).
 */
export async function publishesOfUnits(db: Db, datasetId: string, keys: string[]): Promise<Map<string, LedgerEntry[]>> {
  if (keys.length === 0) return new Map();
  const out = await publishesOfDataset(db, datasetId, NO_KINDS, keys);
  // The rules read the kind of a unit's latest publish alone (repaired or published; unit-state.ts),
  // and the latest is one of those at its newest instant (unit-facts.ts): only their runs' kinds are
  // read. Probing every publish's run was most of an update's statements' time on PostgreSQL once
  // units had hundreds of publishes (an unpartitioned dataset rebuilt daily; docs/ingestion.md).
  const newest: string[] = [];
  for (const list of out.values()) {
    let at = -Infinity;
    for (const e of list) at = Math.max(at, e.publishedAt);
    for (const e of list) if (e.publishedAt === at) newest.push(e.runId);
  }
  const kinds = await unscheduledRunKinds(db, newest);
  if (kinds.size > 0) for (const list of out.values()) for (const e of list) e.runKind = kinds.get(e.runId) ?? e.runKind;
  return out;
}

/** One task's attempts of some units, read as publishesOfUnits reads publishes. */
export function attemptsOfUnits(db: Db, taskId: string, keys: string[]) {
  return keys.length === 0 ? Promise.resolve(new Map()) : attemptsOfTask(db, taskId, keys);
}

export function chunks<T>(items: T[]): T[][] {
  const out = chunked(items, CHUNK);
  return out.length > 0 ? out : [[]];
}

/** Per-owner maps from several chunked reads, merged. */
export async function merged<V>(reads: readonly (Map<string, Map<string, V>> | Promise<Map<string, Map<string, V>>>)[]): Promise<Map<string, Map<string, V>>> {
  const out = new Map<string, Map<string, V>>();
  for (const part of await Promise.all(reads)) {
    for (const [owner, byKey] of part) {
      const into = out.get(owner) ?? new Map<string, V>();
      for (const [k, v] of byKey) into.set(k, v);
      out.set(owner, into);
    }
  }
  return out;
}
