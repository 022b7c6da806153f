import { upstreamProblemOf } from "@/lib/domain/suspect";
import { UnitSet } from "@/lib/domain/unit-set";
import { UNIT_STATE_PRECEDENCE, type UnitState } from "@/lib/domain/unit-state";
import { NOT_EXPECTED } from "../state-codes";
import type { DatasetProblems } from "../upstream-problems";
import type { DatasetStateCodes, UnitStateSnapshot } from "./unit-state-snapshot";

/** Problem units per dataset of a set of dataset states, memoised; `forget` after a dataset changes. */
export function problemsLookupOf(byId: Map<string, DatasetStateCodes>) {
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
