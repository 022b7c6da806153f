import { compositeKey } from "@/lib/domain/composite-key";
import { nodeName } from "@/lib/domain/ids";
import { closure, type ClosureResult } from "@/lib/domain/closure";
import type { NodeId } from "@/lib/domain/ids";
import type { GraphNode as LineageNode, LineageGraph } from "@/lib/domain/lineage-graph";
import { planRepair } from "@/lib/domain/repair-planner";
import { toKeyRanges, UnitSet } from "@/lib/domain/unit-set";
import type { ScopeNode, ScopeView } from "@/lib/contracts/repair";
import { getDb, type Db } from "../repositories/database";
import { allDeliveries } from "../repositories/ledger/external-deliveries";
import { requireIncident } from "../incidents/require-incident";
import { incidentTargets } from "./incident-targets";
import { loadRepairContext, type RepairContext } from "./load-repair-context";
import type { UnitState } from "@/lib/domain/unit-state";
import { getUnitStateSnapshotCovering, stateLookup } from "../units/state-service";

const UNPUBLISHED = new Set(["failed", "blocked", "missing"]);
/** Inputs that are there but wrong: what the scope's tasks would be rebuilt on (they would come out suspect). */
const UNSOUND = new Set(["duplicate", "divergent", "empty", "known_bad", "stale", "suspect"]);
/** The root causes an input traces back to: a failure, or a unit wrong in itself (not merely built on one). */
const ROOT_CAUSES = new Set(["failed", "duplicate", "divergent", "empty", "known_bad"]);
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
  const states = await scopeStates(db, ctx, scope);
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
    // (task, unit) pairs, as the plan, the run and the history count them — not datasets' units too.
    pairCount: scope.taskPairCount,
    taskWaves: scope.taskWaves.map((w) => [...w]),
    waitsOn: waitsOn(ctx, scope, states, incident.failedPairs).map((w) => ({
      taskNodeId: w.taskNodeId,
      units: w.units,
      neededBy: w.neededBy,
      reason: w.reason,
    })),
  };
}

/** What the scope holds and waits on: the states of its datasets and of everything upstream of them. */
async function scopeStates(db: Db, ctx: RepairContext, scope: ClosureResult): Promise<StateOf> {
  const reach = closure(
    ctx.graph,
    [...scope.entries.values()].map((e) => ({ node: e.node, units: e.units })),
    "upstream",
  );
  const needed = [...reach.entries.values()].flatMap((e) => (e.nodeKind === "dataset" ? [e.node] : (ctx.outputOf.get(e.node)?.nodeId ?? [])));
  return stateLookup(await getUnitStateSnapshotCovering(db, ctx.now, needed));
}

export type WaitsOn = ScopeView["waitsOn"][number] & { states: Record<string, string>; neededByTasks: string[] };

/**
 * The scope's findings the plan must carry (the Scope step shows the same): root causes the
 * closure reads that nothing in the incident re-runs, each unit with its state.
 */
export async function scopeWaitsOn(db: Db, ctx: RepairContext, scope: ClosureResult, failedPairs: { nodeId: string; units: string[] }[]): Promise<WaitsOn[]> {
  return waitsOn(ctx, scope, await scopeStates(db, ctx, scope), failedPairs);
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

/**
 * Inputs of scope tasks that nothing in scope produces and that are unpublished (a re-run cannot
 * be rebuilt without them) or unsound (a re-run would be rebuilt on them and come out suspect),
 * traced up to their root causes: the failed, duplicated, divergent, empty or known-bad units
 * nothing in this incident re-runs. Example: running_balance 2026-08-17…25 reads its own
 * 2026-08-16, built on the duplicated stg_orders 2026-08-10: that unit is proposed.
 */
function waitsOn(ctx: RepairContext, scope: ClosureResult, states: StateOf, failedPairs: { nodeId: string; units: string[] }[]): WaitsOn[] {
  const { graph } = ctx;
  const out = new Map<string, WaitsOn>();
  const already = new Set(failedPairs.flatMap((p) => p.units.map((u) => compositeKey(p.nodeId, u))));
  const rootStates = new Map<string, string>();
  /** Units of `ds` (written by `writer`) that the scope task `e` reads from outside the scope: traced to their root causes. */
  const propose = (e: ClosureResult["entries"] extends ReadonlyMap<unknown, infer E> ? E : never, ds: LineageNode, writer: LineageNode, outside: UnitSet) => {
    const wanting = keysIn(ds.space, outside).filter((k) => {
      const state = states(ds.id, k) ?? "";
      return UNPUBLISHED.has(state) || UNSOUND.has(state);
    });
    if (wanting.length === 0) return;
    const seedUnits = UnitSet.fromOrdinals(wanting.map((k) => (ds.space.validate(k) as { ordinal: number }).ordinal));
    const up = closure(graph, [{ node: writer.id as NodeId, units: seedUnits }], "upstream");
    const task = graph.nodes[graph.index.get(e.node)!]!;
    for (const u of up.entries.values()) {
      if (u.nodeKind !== "task") continue;
      const out_ = ctx.outputOf.get(u.node);
      if (!out_) continue;
      const space = graph.nodes[graph.index.get(u.node)!]!.space;
      const roots = keysIn(space, u.units).filter((k) => ROOT_CAUSES.has(states(out_.nodeId, k) ?? "") && !already.has(compositeKey(u.node, k)));
      for (const k of roots) {
        rootStates.set(compositeKey(u.node, k), states(out_.nodeId, k)!);
        const entry = out.get(u.node) ?? {
          taskNodeId: u.node,
          units: [],
          neededBy: `${short(e.node)} ${toKeyRanges(e.units, task.space)
            .map(([a, b]) => (a === b ? a : `${a}…${b}`))
            .join(", ")}`,
          reason: "",
          states: {},
          neededByTasks: [],
        };
        entry.states[k] = states(out_.nodeId, k)!;
        if (!entry.neededByTasks.includes(e.node)) entry.neededByTasks.push(e.node);
        if (!entry.units.includes(k)) entry.units.push(k);
        entry.units.sort();
        const what = entry.units.map((x) => `${x} (${rootStates.get(compositeKey(u.node, x))!.replace(/_/g, "-")})`).join(", ");
        const them = entry.units.length === 1 ? "it" : "them";
        entry.reason = `${short(u.node)} ${what}: nothing in this incident re-runs ${them}, so ${entry.neededBy} cannot be rebuilt soundly — add ${them} to this incident, or repair ${them} first.`;
        out.set(u.node, entry);
      }
    }
  };
  for (const e of scope.entries.values()) {
    if (e.nodeKind !== "task") continue;
    const ti = graph.index.get(e.node)!;
    for (const edge of graph.in[ti]!) {
      const ds = graph.nodes[edge.from]!;
      const writer = graph.in[edge.from]!.map((w) => graph.nodes[w.from]!).find((n) => n.nodeKind === "task");
      if (!writer) continue;
      propose(e, ds, writer, edge.up(e.units).difference(scope.entries.get(ds.id)?.units ?? UnitSet.EMPTY));
    }
    // A task reading its own past (a running balance) reads the units before the first it re-runs.
    const past = graph.selfLoops.get(ti);
    const output = ctx.outputOf.get(e.node);
    const ds = output ? graph.nodes[graph.index.get(output.nodeId as NodeId) ?? -1] : undefined;
    if (past !== undefined && ds) {
      const before: number[] = [];
      for (const o of e.units) for (let k = 1; k <= past; k++) if (o - k >= 0) before.push(o - k);
      propose(e, ds, graph.nodes[ti]!, UnitSet.fromOrdinals(before).difference(scope.entries.get(ds.id)?.units ?? UnitSet.EMPTY));
    }
  }
  return earliestOnly(graph, [...out.values()]);
}

/**
 * Root causes that are themselves built on another proposed one (fct_orders 2026-08-10 divergent
 * because stg_orders 2026-08-10 is duplicated) are left out: repairing the earlier one re-runs them.
 */
function earliestOnly(graph: LineageGraph, proposals: WaitsOn[]): WaitsOn[] {
  const seeds = proposals.map((p) => {
    const node = graph.nodes[graph.index.get(p.taskNodeId as NodeId)!]!;
    return { node: node.id as NodeId, units: UnitSet.fromOrdinals(p.units.map((k) => (node.space.validate(k) as { ordinal: number }).ordinal)) };
  });
  return proposals
    .map((p, i) => {
      const others = seeds.filter((_, j) => j !== i);
      if (others.length === 0) return p;
      const downstream = closure(graph, others, "downstream");
      const covered = downstream.entries.get(seeds[i]!.node)?.units ?? UnitSet.EMPTY;
      const node = graph.nodes[graph.index.get(seeds[i]!.node)!]!;
      const units = p.units.filter((k) => !covered.contains((node.space.validate(k) as { ordinal: number }).ordinal));
      return units.length === p.units.length ? p : { ...p, units };
    })
    .filter((p) => p.units.length > 0);
}
