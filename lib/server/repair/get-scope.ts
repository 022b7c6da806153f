import { compositeKey } from "@/lib/domain/composite-key";
import { nodeName } from "@/lib/domain/ids";
import { closure, type ClosureResult } from "@/lib/domain/closure";
import type { NodeId } from "@/lib/domain/ids";
import type { LineageGraph } from "@/lib/domain/lineage-graph";
import { planRepair } from "@/lib/domain/repair-planner";
import { toKeyRanges, UnitSet } from "@/lib/domain/unit-set";
import type { ScopeNode, ScopeView } from "@/lib/contracts/repair";
import { getDb, type Db } from "../repositories/database";
import { allDeliveries } from "../repositories/ledger/external-deliveries";
import { requireIncident } from "../incidents/require-incident";
import { incidentTargets } from "./incident-targets";
import { loadRepairContext, type RepairContext } from "./load-repair-context";
import type { UnitState } from "@/lib/domain/unit-state";
import { getUnitStateSnapshotCovering, stateLookup } from "../units/get-unit-state-snapshot";

const UNPUBLISHED = new Set(["failed", "blocked", "missing"]);
const MAX_KEYS = 2000;
const short = nodeName;

/**
 * The Scope step: the downstream closure of the incident's failed pairs (lib/domain closure,
 * through the planner so scope and plan never disagree), what each node holds now, and any
 * other failure the closure waits on (a unit it reads that nothing in scope will publish).
 */
export async function getScope(id: string, now = new Date(), db: Db = getDb()): Promise<ScopeView> {
  const incident = await requireIncident(db, id);
  const [ctx, deliveries] = await Promise.all([loadRepairContext(db, now), allDeliveries(db)]);
  const { scope } = planRepair({ graph: ctx.graph, targets: incidentTargets(incident), ledger: ctx.ledger });
  // What the scope holds and waits on: the states of its datasets and of everything upstream of them.
  const reach = closure(
    ctx.graph,
    [...scope.entries.values()].map((e) => ({ node: e.node, units: e.units })),
    "upstream",
  );
  const needed = [...reach.entries.values()].flatMap((e) => (e.nodeKind === "dataset" ? [e.node] : (ctx.outputOf.get(e.node)?.nodeId ?? [])));
  const states = stateLookup(await getUnitStateSnapshotCovering(db, now, needed));
  const nodes = [...scope.entries.values()].map((e): ScopeNode => {
    const node = ctx.graph.nodes[ctx.graph.index.get(e.node)!]!;
    const dataset = node.nodeKind === "dataset" ? node.id : ctx.outputOf.get(node.id)?.nodeId;
    const taskRecord = ctx.tasks.get(node.id);
    const held = dataset ? holdings(node.space, e.units, dataset, states) : { holdsNow: [], cells: [] };
    return {
      nodeId: e.node,
      name: short(e.node),
      kind: e.nodeKind,
      pipeline: node.pipeline,
      seed: e.seed,
      wave: e.nodeWave,
      via: [...e.via],
      units: toKeyRanges(e.units, node.space),
      unitCount: e.units.size,
      ...held,
      sentOutside: taskRecord
        ? deliveries
            .filter((d) => d.taskId === taskRecord.id && inSet(node.space, e.units, d.unitKey))
            .map((d) => `${d.unitKey} sent to ${d.destination} at ${d.sentAt.toISOString()}`)
        : [],
    };
  });
  const edges = nodes.flatMap((n) => n.via.filter((v) => scope.entries.has(v as NodeId)).map((from) => ({ from, to: n.nodeId })));
  return {
    failedPairs: incident.failedPairs,
    nodes,
    edges,
    pairCount: scope.pairCount,
    taskWaves: scope.taskWaves.map((w) => [...w]),
    waitsOn: waitsOn(ctx, scope, states, incident.failedPairs),
  };
}

function inSet(space: LineageGraph["nodes"][number]["space"], units: UnitSet, key: string): boolean {
  const v = space.validate(key);
  return v.valid && units.contains(v.ordinal);
}

function keysIn(space: LineageGraph["nodes"][number]["space"], units: UnitSet): string[] {
  const keys: string[] = [];
  for (const o of units) {
    if (keys.length >= MAX_KEYS) break;
    keys.push(space.keyAt(o));
  }
  return keys;
}

type StateOf = (datasetNodeId: string, key: string) => UnitState | undefined;

function holdings(space: LineageGraph["nodes"][number]["space"], units: UnitSet, dataset: string, states: StateOf): Pick<ScopeNode, "holdsNow" | "cells"> {
  const byState = new Map<string, number[]>();
  const cells: ScopeNode["cells"] = [];
  for (const o of units) {
    if (o >= MAX_KEYS + (units.min ?? 0)) break;
    const key = space.keyAt(o);
    const state = states(dataset, key) ?? "not expected yet";
    cells.push({ key, state });
    byState.set(state, [...(byState.get(state) ?? []), o]);
  }
  const holdsNow = [...byState].map(([state, ordinals]) => {
    const set = UnitSet.fromOrdinals(ordinals);
    return { state, units: toKeyRanges(set, space), count: set.size };
  });
  return { holdsNow, cells };
}

/** Unpublished inputs of scope tasks that nothing in scope produces, traced up to the failure that causes them. */
function waitsOn(ctx: RepairContext, scope: ClosureResult, states: StateOf, failedPairs: { nodeId: string; units: string[] }[]): ScopeView["waitsOn"] {
  const { graph } = ctx;
  const out = new Map<string, ScopeView["waitsOn"][number]>();
  const already = new Set(failedPairs.flatMap((p) => p.units.map((u) => compositeKey(p.nodeId, u))));
  for (const e of scope.entries.values()) {
    if (e.nodeKind !== "task") continue;
    const ti = graph.index.get(e.node)!;
    for (const edge of graph.in[ti]!) {
      const ds = graph.nodes[edge.from]!;
      const writer = graph.in[edge.from]!.map((w) => graph.nodes[w.from]!).find((n) => n.nodeKind === "task");
      if (!writer) continue;
      const outside = edge.up(e.units).difference(scope.entries.get(ds.id)?.units ?? UnitSet.EMPTY);
      const missing = keysIn(ds.space, outside).filter((k) => UNPUBLISHED.has(states(ds.id, k) ?? ""));
      if (missing.length === 0) continue;
      const seedUnits = UnitSet.fromOrdinals(missing.map((k) => (ds.space.validate(k) as { ordinal: number }).ordinal));
      const up = closure(graph, [{ node: writer.id as NodeId, units: seedUnits }], "upstream");
      for (const u of up.entries.values()) {
        if (u.nodeKind !== "task") continue;
        const out_ = ctx.outputOf.get(u.node);
        if (!out_) continue;
        const space = graph.nodes[graph.index.get(u.node)!]!.space;
        const roots = keysIn(space, u.units).filter((k) => states(out_.nodeId, k) === "failed" && !already.has(compositeKey(u.node, k)));
        for (const k of roots) {
          const entry = out.get(u.node) ?? {
            taskNodeId: u.node,
            units: [],
            neededBy: `${short(e.node)} ${toKeyRanges(e.units, graph.nodes[ti]!.space)
              .map(([a, b]) => (a === b ? a : `${a}…${b}`))
              .join(", ")}`,
            reason: "",
          };
          if (!entry.units.includes(k)) entry.units.push(k);
          entry.reason = `${short(u.node)} ${entry.units.join(", ")} failed and nothing in this incident re-runs it, so ${entry.neededBy} cannot be rebuilt: add it to this incident or repair it first.`;
          out.set(u.node, entry);
        }
      }
    }
  }
  return [...out.values()];
}
