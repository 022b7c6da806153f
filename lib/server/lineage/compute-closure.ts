import { nodeName } from "@/lib/domain/ids";
import { toKeyRanges } from "@/lib/domain/unit-set";
import type { Closure, ClosureQuery } from "@/lib/contracts/lineage";
import { getDb, type Db } from "../repositories/database";
import { describeUnitSet } from "./describe-unit-set";
import { resolveClosure } from "./resolve-closure";

/**
 * GET /api/v1/closure: the closure of (nodeId, units) at `asOf` as JSON, nodes in execution
 * order with their units as key ranges (null when unpartitioned), the nodes each was reached
 * via, and the waves a repair would run in.
 */
export async function computeClosure(query: ClosureQuery, now: Date, db: Db = getDb()): Promise<Closure> {
  const asOf = query.asOf ? new Date(query.asOf) : now;
  const { lineage, result } = await resolveClosure(db, { nodeId: query.nodeId, units: query.units, direction: query.direction, asOf });
  const nodes = [...result.entries.values()].map((entry) => {
    const space = lineage.graph.nodes[lineage.graph.index.get(entry.node)!]!.space;
    const unpartitioned = space.def.kind === "none";
    return {
      nodeId: entry.node,
      kind: entry.nodeKind,
      name: nodeName(entry.node),
      units: unpartitioned ? null : toKeyRanges(entry.units, space),
      unitCount: entry.units.size,
      unitsText: describeUnitSet(entry.units, space),
      via: [...entry.via],
      degradedVia: entry.degradedVia.map((d) => ({ nodeId: d.node, reason: d.reason })),
      seed: entry.seed,
      depth: entry.depth,
    };
  });
  return { asOf: asOf.toISOString(), direction: query.direction, nodes, waves: result.nodeWaves.map((w) => [...w]) };
}
