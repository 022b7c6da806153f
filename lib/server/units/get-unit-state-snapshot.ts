import type { PartitionSpace } from "@/lib/domain/partitions";
import { UNIT_STATE_PRECEDENCE, type UnitState } from "@/lib/domain/unit-state";
import type { Db } from "../db/client";
import type { DatasetRecord, TaskRecord } from "../repositories/catalog";
import { unitStateFingerprint } from "../repositories/unit-matrix-reads";
import { visitUnitStates } from "./load-unit-states";

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

interface Entry { key: string; snapshot: Promise<UnitStateSnapshot> }
const cache = new WeakMap<Db, Entry>();
const HOUR = 3_600_000;

/**
 * Every unit's state as one byte, recomputed only when the records changed. The unit states
 * of a million cells take seconds to gather (every ledger row and attempt is read); the
 * fingerprint (counts and maxima of the tables the rules read) takes milliseconds, so the
 * matrix, its filters and zoom levels answer from memory until a publish, an attempt, a mark or
 * the lineage changes. The hour is part of the key: open-ended definitions gain units with time.
 * Concurrent requests share one computation.
 */
export async function getUnitStateSnapshot(db: Db, now: Date): Promise<UnitStateSnapshot> {
  const key = `${Math.floor(now.getTime() / HOUR)}|${await unitStateFingerprint(db)}`;
  const cached = cache.get(db);
  if (cached?.key === key) return cached.snapshot;
  const snapshot = computeSnapshot(db, now);
  cache.set(db, { key, snapshot });
  try {
    return await snapshot;
  } catch (e) {
    if (cache.get(db)?.snapshot === snapshot) cache.delete(db);
    throw e;
  }
}

async function computeSnapshot(db: Db, now: Date): Promise<UnitStateSnapshot> {
  const datasets: DatasetStateCodes[] = [];
  await visitUnitStates(db, now, {}, (d) => {
    const codes = new Uint8Array(d.space.size).fill(NOT_EXPECTED);
    for (const u of d.units) codes[u.ordinal] = RANK.get(u.result.state)!;
    datasets.push({ dataset: d.dataset, writer: d.writer, space: d.space, codes, invalidLedgerKeys: d.invalidLedgerKeys });
  });
  return { computedAt: now, datasets };
}
