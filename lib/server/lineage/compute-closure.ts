import { nodeName } from "@/lib/domain/ids";
import type { PartitionSpace } from "@/lib/domain/partitions";
import { toKeyRanges, type UnitSet } from "@/lib/domain/unit-set";
import type { Closure, ClosureNode, ClosureQuery } from "@/lib/contracts/lineage";
import { listConsumers, type ConsumerRecord } from "../repositories/people/teams-and-consumers";
import { consumersReached } from "./consumer-nodes";
import { getDb, type Db } from "../repositories/database";
import { describeUnitSet } from "./describe-unit-set";
import { resolveClosure } from "./resolve-closure";

/**
 * GET /api/v1/closure: the closure of (nodeId, units) at `asOf` as JSON, nodes in execution
 * order with their units as key ranges (null when unpartitioned), the nodes each was reached
 * via, and the waves a repair would run in; downstream, the declared consumers reading them last.
 */
export async function computeClosure(query: ClosureQuery, now: Date, db: Db = getDb()): Promise<Closure> {
  const asOf = query.asOf ? new Date(query.asOf) : now;
  const [{ lineage, result }, consumers] = await Promise.all([
    resolveClosure(db, { nodeId: query.nodeId, units: query.units, direction: query.direction, asOf }),
    query.direction === "downstream" ? listConsumers(db) : [],
  ]);
  const said = unitsInWords();
  const nodes: ClosureNode[] = [...result.entries.values()].map((entry) => {
    const space = lineage.graph.nodes[lineage.graph.index.get(entry.node)!]!.space;
    const { units, text } = said(entry.units, space);
    return {
      nodeId: entry.node,
      kind: entry.nodeKind,
      name: nodeName(entry.node),
      units,
      unitCount: entry.units.size,
      unitsText: text,
      via: [...entry.via],
      degradedVia: entry.degradedVia.map((d) => ({ nodeId: d.node, reason: d.reason })),
      seed: entry.seed,
      depth: entry.depth,
    };
  });
  return {
    asOf: asOf.toISOString(),
    direction: query.direction,
    nodes: [...nodes, ...consumerNodes(nodes, consumers)],
    waves: result.nodeWaves.map((w) => [...w]),
  };
}

/**
 * A unit set as key ranges and in words, once per distinct set of a partition space: the nodes of
 * a wide closure mostly share a few sets (a whole year downstream of a whole year), and spelling
 * each again was a good part of a 45,000-node answer (docs/lineage.md). The answers share the
 * arrays; nothing mutates them before they are serialised.
 */
function unitsInWords() {
  const seen = new Map<PartitionSpace, Map<string, { units: [string, string][] | null; text: string }>>();
  return (set: UnitSet, space: PartitionSpace) => {
    let perSpace = seen.get(space);
    if (!perSpace) seen.set(space, (perSpace = new Map()));
    const key = set.toString();
    let hit = perSpace.get(key);
    if (!hit) perSpace.set(key, (hit = { units: space.def.kind === "none" ? null : toKeyRanges(set, space), text: describeUnitSet(set, space) }));
    return hit;
  };
}

/**
 * The declared consumers a downstream closure reaches, after its nodes: what they read of it in
 * words ("2026-W34 of weekly_revenue_export"). Never in a wave: nothing of a consumer is re-run.
 */
function consumerNodes(nodes: readonly ClosureNode[], consumers: readonly ConsumerRecord[]): ClosureNode[] {
  if (consumers.length === 0) return [];
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  return consumersReached(new Map(nodes.map((n) => [n.nodeId, n.depth])), consumers).map((c) => ({
    nodeId: c.nodeId,
    kind: "consumer",
    name: c.name,
    units: null,
    unitCount: 0,
    unitsText: c.via.map((v) => `${byId.get(v)!.unitsText} of ${byId.get(v)!.name}`).join("; "),
    via: c.via,
    degradedVia: [],
    seed: false,
    depth: c.depth,
  }));
}
