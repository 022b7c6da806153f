import type { ChangeWatermark } from "@/lib/domain/change-watermark";
import type { Db } from "../../repositories/database";
import { processSingleton } from "../../runtime/process-singleton";
import type { DatasetStateCodes, UnitStateSnapshot } from "./unit-state-snapshot";

/** The states this process answers from, and what they were computed under. */
export interface Entry {
  /** The catalog (lineage) fingerprint the states were computed under. */
  catalog: string;
  /**
   * Counts and maxima of the records (unitStateFingerprint): a write that bypassed the change log
   * still shows. Null after an update: it is cast again once the log is quiet (service.ts).
   */
  ledger: string | null;
  /** How far the change log is applied (lib/domain/change-watermark.ts). */
  watermark: ChangeWatermark;
  hour: number;
  snapshot: UnitStateSnapshot;
}

/** A full computation in flight, its catalog, and its datasets so far (`sized` once `total` units are known). */
export interface FullComputation {
  catalog: string;
  done: Promise<void>;
  sized: Promise<void>;
  partial: DatasetStateCodes[];
  total: number;
  units: number;
}

export interface ServiceState {
  entry: Entry | null;
  /** The update being applied (one at a time per database). */
  running: Promise<unknown> | null;
  full: FullComputation | null;
  restored: Promise<void> | null;
  persistTimer: NodeJS.Timeout | null;
  /**
   * The states kept in the database (written or taken up by this process). States are replaced,
   * never changed in place: while they are still these there is nothing to keep, and keeping
   * newer ones rewrites only the datasets whose states are not these. (Not the change watermark:
   * changes applied past a gap, and newly due units, move the states, not it.)
   */
  kept?: UnitStateSnapshot;
  /**
   * The header of the kept states as this process last wrote or took it up. Another console may
   * keep its states in between: the rows are then not what `kept` says, and are all written again.
   */
  keptHeader?: string;
  /** Big world: no update starts before this instant (updates take at most half the event loop). */
  nextUpdateAt: number;
  /** Big world: when the records' fingerprint was last compared (the net for unlogged writes). */
  fingerprintAt: number;
  /** Big world: the comparison running beside the reads. */
  comparing: Promise<unknown> | null;
}

// One per process (the server-start warm-up and the routes are separate bundles): the routes find the warm one.
const states = processSingleton("unitStates", () => new WeakMap<Db, ServiceState>());

export function stateOf(db: Db): ServiceState {
  let s = states.get(db);
  if (!s)
    states.set(db, (s = { entry: null, running: null, full: null, restored: null, persistTimer: null, nextUpdateAt: 0, fingerprintAt: 0, comparing: null }));
  return s;
}

export const HOUR = 3_600_000;

export const hourOf = (now: Date): number => Math.floor(now.getTime() / HOUR);

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());
