import type { UnitFacts, UnitStateResult } from "@/lib/domain/unit-state";
import type { Db } from "../db/client";
import { loadUnitStates } from "../units/load-unit-states";

export interface UnitStateIndex {
  /** dataset node id → unit key → state result and the facts it came from. */
  get(datasetNodeId: string, unitKey: string): { result: UnitStateResult; facts: UnitFacts } | undefined;
}

/** Every expected unit's state, indexed for lookups by (dataset node id, key). */
export async function loadUnitStateIndex(db: Db, now: Date): Promise<UnitStateIndex> {
  const states = await loadUnitStates(db, now);
  const index = new Map<string, Map<string, { result: UnitStateResult; facts: UnitFacts }>>();
  for (const d of states) index.set(d.dataset.nodeId, new Map(d.units.map((u) => [u.key, { result: u.result, facts: u.facts }])));
  return { get: (node, key) => index.get(node)?.get(key) };
}
