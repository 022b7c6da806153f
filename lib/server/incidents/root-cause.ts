import type { AuditTarget } from "@/lib/contracts/audit";
import type { RootCauseView } from "@/lib/contracts/root-cause";
import { compositeKey } from "@/lib/domain/composite-key";
import { InvalidFieldError } from "@/lib/domain/errors";
import { nodeName, type NodeId } from "@/lib/domain/ids";
import { keysOf, type PartitionSpace } from "@/lib/domain/partitions";
import { walkToRootCauses, type CauseUnit } from "@/lib/domain/root-cause";
import { UnitSet } from "@/lib/domain/unit-set";
import type { UnitState, UnitStateResult } from "@/lib/domain/unit-state";
import { closure } from "@/lib/domain/closure";
import type { Db, Tx } from "../repositories/database";
import { pairsHeldByOpenIncidents } from "../repositories/incidents/incidents";
import type { LineageGraph } from "@/lib/domain/lineage-graph";
import { getUnitStateSnapshotCovering, NOT_EXPECTED, type DatasetStateCodes, type UnitStateSnapshot } from "../units/state-service";
import { UNIT_STATE_PRECEDENCE } from "@/lib/domain/unit-state";

export const MAX_INCIDENT_UNITS = 2000;

/** A key, or an inclusive range "from..to" (as the lineage and matrix links write them), validated. */
export function expandUnitEntry(space: PartitionSpace, entry: string, field: string, task: string): string[] {
  const [from, to] = entry.includes("..") ? (entry.split("..", 2).map((k) => k.trim()) as [string, string]) : [entry, entry];
  const [a, z] = [space.validate(from), space.validate(to)];
  if (!a.valid) throw new InvalidFieldError(field, `"${from}" is not a unit of ${task}: ${a.reason}`);
  if (!z.valid) throw new InvalidFieldError(field, `"${to}" is not a unit of ${task}: ${z.reason}`);
  if (z.ordinal < a.ordinal) throw new InvalidFieldError(field, `"${entry}" ends before it starts`);
  if (z.ordinal - a.ordinal >= MAX_INCIDENT_UNITS) throw new InvalidFieldError(field, `"${entry}" spans more than ${MAX_INCIDENT_UNITS} units`);
  return [...keysOf(space, UnitSet.range(a.ordinal, z.ordinal))];
}

/** A task of the current lineage and the keys asked for, validated (400 naming the field). */
export function symptomOf(
  graph: LineageGraph,
  taskNodeId: string,
  entries: readonly string[],
  field: string,
): { node: NodeId; space: PartitionSpace; keys: string[] } {
  const i = graph.index.get(taskNodeId as NodeId);
  const node = i === undefined ? undefined : graph.nodes[i];
  if (!node || node.nodeKind !== "task") throw new InvalidFieldError(`${field}.taskNodeId`, `no task ${taskNodeId} in the current lineage`);
  const keys = [...new Set(entries.flatMap((entry, n) => expandUnitEntry(node.space, entry, `${field}.units.${n}`, taskNodeId)))];
  if (keys.length > MAX_INCIDENT_UNITS) throw new InvalidFieldError(`${field}.units`, `${keys.length} units: open at most ${MAX_INCIDENT_UNITS} per incident`);
  return { node: node.id, space: node.space, keys };
}

/**
 * The kept unit states read through the lineage graph's nodes and ordinals (the walk's view): the
 * state of a dataset unit, and the full result of one that is not healthy.
 */
export function statesOnGraph(graph: LineageGraph, snapshot: UnitStateSnapshot) {
  const byNode = new Map(snapshot.datasets.map((d) => [d.dataset.nodeId, d]));
  // Per dataset, once: its kept states, and whether they were computed for the same partition
  // definition as the graph's (then an ordinal is the same unit in both, and no key is formatted
  // and parsed again: grouping thousands of alerts walks millions of units).
  const keptOf = new Map<number, { kept: DatasetStateCodes; same: boolean } | null>();
  const at = (d: number, o: number) => {
    let k = keptOf.get(d);
    if (k === undefined) {
      const node = graph.nodes[d]!;
      const kept = byNode.get(node.id);
      k = kept ? { kept, same: JSON.stringify(kept.space.def) === JSON.stringify(node.space.def) } : null;
      keptOf.set(d, k);
    }
    if (!k) return null;
    if (k.same) return o < k.kept.space.size ? { kept: k.kept, ordinal: o } : null;
    const v = k.kept.space.validate(graph.nodes[d]!.space.keyAt(o));
    return v.valid ? { kept: k.kept, ordinal: v.ordinal } : null;
  };
  return {
    stateOf: (d: number, o: number): UnitState | undefined => {
      const x = at(d, o);
      const code = x?.kept.codes[x.ordinal];
      return code === undefined || code === NOT_EXPECTED ? undefined : UNIT_STATE_PRECEDENCE[code];
    },
    resultAt: (d: number, o: number): UnitStateResult | undefined => {
      const x = at(d, o);
      return x ? x.kept.problems.get(x.ordinal) : undefined;
    },
  };
}

/** A unit's state in the words a title or a timeline uses: "half-written (120 rows left)", "duplicated". */
export function wordsFor(state: string, result: UnitStateResult | undefined): string {
  const partial = result?.facts.partialRows;
  if (state === "failed" && partial !== undefined && partial !== null && partial > 0) return `half-written (${partial} rows left by failed tries)`;
  if (state === "failed" && partial === null) return "failed (rows it left unknown)";
  const words: Record<string, string> = {
    failed: "failed",
    blocked: "blocked by a failed upstream unit",
    missing: "never published",
    empty: "empty",
    duplicate: "duplicated",
    divergent: "divergent from its source count",
    suspect: "suspect",
    stale: "stale",
    known_bad: "known-bad",
  };
  return words[state] ?? state.replace(/_/g, "-");
}

/** "2026-08-17", "2026-08-17, 2026-08-23", or "12 units" past three. */
export function unitsLabel(keys: readonly string[]): string {
  return keys.length <= 3 ? keys.join(", ") : `${keys.length} units`;
}

/**
 * The root causes of a symptom, as the incident form shows them and `openIncident` acts on
 * them: the walk over the matrix's own states (so what the form proposes is what the cells say),
 * the pairs to open the incident on, its title, and the open incidents that already hold them.
 */
export async function analyseRootCause(
  db: Db | Tx,
  graph: LineageGraph,
  now: Date,
  symptom: { node: NodeId; keys: readonly string[]; space: PartitionSpace },
): Promise<RootCauseView> {
  const units = UnitSet.fromOrdinals(symptom.keys.map((k) => (symptom.space.validate(k) as { ordinal: number }).ordinal));
  // The states of everything the symptom was built from (what the walk may reach), computed now if not yet kept.
  const reach = closure(graph, [{ node: symptom.node, units }], "upstream");
  const datasets = [...reach.entries.values()].filter((e) => e.nodeKind === "dataset").map((e) => e.node as string);
  for (const e of graph.out[graph.index.get(symptom.node)!]!) datasets.push(graph.nodes[e.to]!.id);
  const states = statesOnGraph(graph, await getUnitStateSnapshotCovering(db as Db, now, datasets));
  const walk = walkToRootCauses(graph, { taskNodeId: symptom.node, units }, states.stateOf);
  const describe = (datasetNodeId: string, u: CauseUnit) => {
    const d = graph.index.get(datasetNodeId as NodeId)!;
    const v = graph.nodes[d]!.space.validate(u.key);
    return { key: u.key, state: u.state, words: wordsFor(u.state, v.valid ? states.resultAt(d, v.ordinal) : undefined) };
  };
  const roots = walk.roots.map((r) => ({ taskNodeId: r.taskNodeId, datasetNodeId: r.datasetNodeId, units: r.units.map((u) => describe(r.datasetNodeId, u)) }));
  const wrong = walk.symptom.map((u) => ({ datasetNodeId: u.datasetNodeId, ...describe(u.datasetNodeId, u) }));
  const followable = roots.length > 0 && !walk.symptomIsRoot && roots.every((r) => r.taskNodeId !== null);
  const proposedPairs: AuditTarget[] = followable
    ? mergePairs(roots.map((r) => ({ nodeId: r.taskNodeId!, units: r.units.map((u) => u.key) })))
    : [{ nodeId: symptom.node, units: [...symptom.keys] }];
  return {
    symptom: { taskNodeId: symptom.node, units: [...symptom.keys], wrong },
    roots,
    symptomIsRoot: walk.symptomIsRoot,
    followable,
    proposedPairs,
    title: titleOf(symptom.node, symptom.keys, wrong, followable ? roots : []),
    truncated: walk.truncated,
    heldBy: await heldBy(db, proposedPairs),
  };
}

function mergePairs(pairs: AuditTarget[]): AuditTarget[] {
  const byNode = new Map<string, Set<string>>();
  for (const p of pairs) for (const u of p.units) byNode.set(p.nodeId, (byNode.get(p.nodeId) ?? new Set()).add(u));
  return [...byNode].map(([nodeId, units]) => ({ nodeId, units: [...units].sort() }));
}

/**
 * "meter_readings_deduped 2026-07 divergent from its source count, caused by land_meter_readings
 * 2026-07: half-written (80 rows left by failed tries)" — the symptom in the states the matrix
 * shows, then its cause; at most 200 characters. The symptom is named by the dataset whose units
 * are wrong (what the alert and the matrix name: a task is not "divergent"), by its task when its
 * wrong units lie in several datasets or none.
 */
export function titleOf(
  taskNodeId: string,
  keys: readonly string[],
  wrong: readonly { datasetNodeId?: string; key: string; state: string; words: string }[],
  roots: readonly { taskNodeId: string | null; units: readonly { key: string; words: string }[] }[],
): string {
  const states = [...new Set(wrong.map((w) => w.words))];
  const what = wrong.length === 0 ? "nothing wrong in the ledger" : states.length === 1 ? states[0]! : `${states.length} kinds of trouble`;
  const datasets = [...new Set(wrong.map((w) => w.datasetNodeId))];
  const byDataset = datasets.length === 1 && datasets[0] !== undefined ? datasets[0] : null;
  const symptom = byDataset
    ? `${nodeName(byDataset)} ${unitsLabel([...new Set(wrong.map((w) => w.key))])} ${what}`
    : `${nodeName(taskNodeId)} ${unitsLabel(keys)} ${what}`;
  if (roots.length === 0) return clip(symptom);
  const causes = rootsInWords(roots.map((r) => ({ name: nodeName(r.taskNodeId!), units: r.units })));
  return clip(`${symptom}, caused by ${causes}`);
}

/**
 * Root units in words: "stg_orders 2026-08-17, 2026-08-23: failed" when they share a state, else
 * each with its own — "stg_orders 2026-08-17 half-written (20 rows left by failed tries), 2026-08-23 failed".
 */
export function rootsInWords(roots: readonly { name: string; units: readonly { key: string; words: string }[] }[]): string {
  return roots
    .map((r) => {
      const words = [...new Set(r.units.map((u) => u.words))];
      return words.length === 1
        ? `${r.name} ${unitsLabel(r.units.map((u) => u.key))}: ${words[0]}`
        : `${r.name} ${r.units.map((u) => `${u.key} ${u.words}`).join(", ")}`;
    })
    .join("; ");
}

const clip = (s: string) => (s.length <= 200 ? s : `${s.slice(0, 199)}…`);

/** Open incidents whose failed pairs include any of these (task, unit) pairs, with the pairs they hold. */
async function heldBy(db: Db | Tx, pairs: readonly AuditTarget[]): Promise<RootCauseView["heldBy"]> {
  const wanted = new Set(pairs.flatMap((p) => p.units.map((u) => compositeKey(p.nodeId, u))));
  const out: RootCauseView["heldBy"] = [];
  for (const inc of await pairsHeldByOpenIncidents(db)) {
    const held = inc.failedPairs
      .map((p) => ({ nodeId: p.nodeId, units: p.units.filter((u) => wanted.has(compositeKey(p.nodeId, u))) }))
      .filter((p) => p.units.length > 0);
    if (held.length > 0) out.push({ id: inc.id, title: inc.title, pairs: held });
  }
  return out;
}
