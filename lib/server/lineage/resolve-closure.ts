import type { NodeId } from "@/lib/domain/ids";
import { closure, type ClosureResult, type Direction } from "@/lib/domain/closure";
import type { UnitSet } from "@/lib/domain/unit-set";
import type { Db } from "../repositories/database";
import { NotFoundError } from "@/lib/domain/errors";
import { loadLineageGraph, type LoadedLineage } from "./load-lineage-graph";
import { parseUnitSelection } from "./parse-unit-selection";

export interface ClosureRequest {
  nodeId: string;
  units?: string;
  direction: Direction;
  asOf: Date;
}

export interface ResolvedClosure {
  lineage: LoadedLineage;
  seedUnits: UnitSet;
  result: ClosureResult;
}

/**
 * Loads the lineage of `asOf`, checks the seed (unknown node → 404 naming it; a key its
 * partition definition rejects → 400 with the reason) and runs lib/domain's closure.
 */
export async function resolveClosure(db: Db, request: ClosureRequest): Promise<ResolvedClosure> {
  const lineage = await loadLineageGraph(db, request.asOf);
  const index = lineage.graph.index.get(request.nodeId as NodeId);
  if (index === undefined) {
    throw new NotFoundError(`nodeId: ${request.nodeId} is not in the lineage as of ${request.asOf.toISOString()}`, { nodeId: request.nodeId });
  }
  const node = lineage.graph.nodes[index]!;
  const seedUnits = parseUnitSelection(node.space, request.units);
  const result = closure(lineage.graph, [{ node: node.id, units: seedUnits }], request.direction);
  return { lineage, seedUnits, result };
}
