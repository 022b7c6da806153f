/**
 * The one unit-state service every screen reads: each unit's state as one byte, and the full
 * result (reasons, facts) of every unit that is not simply healthy.
 *
 * Incremental at write time. Every write to the records states are computed from (a publish, an
 * attempt, a source count, a mark) records its units in UnitChange in the same transaction. A
 * request applies the changes after the last one the states include (apply-changes.ts, the
 * watermark in lib/domain/change-watermark.ts): it recomputes those units and their downstream
 * closure (through the lineage's mappings) from their records only — a publish at the head of a
 * 30-dataset chain recomputes 30 units, not the ledger. A new hour makes new units due: those are
 * recomputed, nothing else. A catalog or lineage change (a definition, an edge, a write mode)
 * recomputes everything, in the background (full-computation.ts): meanwhile the previous states
 * answer, flagged `refreshing`.
 *
 * Durable. The states are kept in the database (kept-states.ts, in the text of
 * lib/domain/kept-unit-states.ts), a row per dataset (UnitStateKept, rewritten only when its
 * states changed) under a header (UnitStateSnapshot) with the last change they include and a hash
 * of the state vocabulary: a console that restarts, or another console on the same database,
 * takes them up and applies the changes since; a kept snapshot of another vocabulary is computed
 * again, never remapped. A first start with nothing kept answers at once with the datasets
 * computed so far, flagged `computing`, while the rest is computed.
 *
 * service.ts answers the reads; service-state.ts holds what the service keeps per process.
 */
export { getUnitStateSnapshot, getUnitStateSnapshotCovering, keepUnitStates, whenUnitStatesReady } from "./service";
export { problemsLookup, stateLookup } from "./lookups";
export { statusOf, unitStateLag } from "./status";
export type { DatasetStateCodes, UnitStateSnapshot } from "./unit-state-snapshot";
export { NOT_EXPECTED } from "../state-codes";
