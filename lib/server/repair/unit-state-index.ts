import type { UnitFacts, UnitStateResult } from "@/lib/domain/unit-state";
import type { Db } from "../repositories/database";
import { getUnitStateSnapshot, problemsLookup } from "../units/state-service";
import { loadUnitStates } from "../units/load-unit-states";

export interface UnitStateIndex {
  /** dataset node id → unit key → state result and the facts it came from. */
  get(datasetNodeId: string, unitKey: string): { result: UnitStateResult; facts: UnitFacts } | undefined;
}

/**
 * The states of the given datasets' units, with the facts each came from (marks and validation
 * check evidence against them), indexed by (dataset node id, key). Computed for those datasets
 * only, against the upstream states of the one unit-state service, so a unit reads here exactly
 * as it does on the matrix.
 */
export async function loadUnitStateIndex(db: Db, now: Date, datasetNodeIds: readonly string[]): Promise<UnitStateIndex> {
  const index = new Map<string, Map<string, { result: UnitStateResult; facts: UnitFacts }>>();
  if (datasetNodeIds.length > 0) {
    const knownProblems = problemsLookup(await getUnitStateSnapshot(db, now));
    const states = await loadUnitStates(db, now, { datasetNodeIds: [...new Set(datasetNodeIds)], knownProblems });
    for (const d of states) index.set(d.dataset.nodeId, new Map(d.units.map((u) => [u.key, { result: u.result, facts: u.facts }])));
  }
  return { get: (node, key) => index.get(node)?.get(key) };
}
