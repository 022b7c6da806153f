import { parseNodeId, type NodeId } from "@/lib/domain/ids";
import { closure, type ClosureResult, type Direction } from "@/lib/domain/closure";
import type { UnitSet } from "@/lib/domain/unit-set";
import type { Db } from "../repositories/database";
import { NotFoundError } from "@/lib/domain/errors";
import { loadLineageGraph, type LoadedLineage } from "./load-lineage-graph";
import { parseUnitSelection } from "./parse-unit-selection";
import { listConsumers, type ConsumerRecord } from "../repositories/people/teams-and-consumers";
import { remember } from "../cache/recent-promises";
import { processSingleton } from "../runtime/process-singleton";
import { compositeKey } from "@/lib/domain/composite-key";

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
  if (index === undefined && request.nodeId.startsWith("consumer:")) return consumerClosure(lineage, request, await listConsumers(db));
  return remember(recentOf(lineage), compositeKey(request.nodeId, request.units ?? "", request.direction), RECENT_CLOSURES, async () => {
    if (index === undefined) return pipelineClosure(lineage, request);
    const node = lineage.graph.nodes[index]!;
    const seedUnits = parseUnitSelection(node.space, request.units);
    const result = closure(lineage.graph, [{ node: node.id, units: seedUnits }], request.direction);
    return { lineage, seedUnits, result };
  });
}

/**
 * The last closures walked on a compiled lineage: a click asks for the closure, then — once it is
 * painted — for what its nodes hold, and the second walk of a 45,000-node closure cost as much as
 * the first. What a node or pipeline closure depends on is the compiled lineage (this map's key)
 * and the request; a consumer's also depends on the declarations of the day, so it is not kept.
 */
const RECENT_CLOSURES = 8;
// Per process (runtime/process-singleton.ts): the closure, holdings and people routes share the walk.
const recent = processSingleton("recentClosures", () => new WeakMap<LoadedLineage, Map<string, Promise<ResolvedClosure>>>());

function recentOf(lineage: LoadedLineage): Map<string, Promise<ResolvedClosure>> {
  let kept = recent.get(lineage);
  if (!kept) recent.set(lineage, (kept = new Map()));
  return kept;
}

/**
 * A declared consumer is no node closures walk (nothing of it is re-run): its closure is that of
 * every unit of what it reads — upstream, what its numbers are built from; downstream, what is fed
 * from the same data (and the consumers reading it, compute-closure.ts).
 */
function consumerClosure(lineage: LoadedLineage, request: ClosureRequest, consumers: readonly ConsumerRecord[]): ResolvedClosure {
  const reads = consumers.find((c) => c.nodeId === request.nodeId)?.reads.filter((r) => lineage.graph.index.has(r as NodeId)) ?? [];
  if (reads.length === 0)
    throw new NotFoundError(`nodeId: ${request.nodeId} reads nothing the lineage holds as of ${request.asOf.toISOString()}`, { nodeId: request.nodeId });
  const seeds = reads.map((r) => {
    const node = lineage.graph.nodes[lineage.graph.index.get(r as NodeId)!]!;
    return { node: node.id, units: parseUnitSelection(node.space, undefined) };
  });
  return { lineage, seedUnits: seeds[0]!.units, result: closure(lineage.graph, seeds, request.direction) };
}

/**
 * A job that is a pipeline — an Airflow DAG, dbt-ol's job for the whole command — is not a task
 * of the lineage, but its runs are its tasks' parents: its closure is theirs, from every task of
 * it the lineage holds (each over the units asked, in its own partitioning).
 */
function pipelineClosure(lineage: LoadedLineage, request: ClosureRequest): ResolvedClosure {
  const parsed = parseNodeId(request.nodeId);
  const tasks =
    parsed?.kind === "job"
      ? [...lineage.tasks.values()].filter((t) => t.namespace === parsed.namespace && t.pipeline === parsed.name && lineage.graph.index.has(t.nodeId as NodeId))
      : [];
  if (tasks.length === 0)
    throw new NotFoundError(`nodeId: ${request.nodeId} is not in the lineage as of ${request.asOf.toISOString()}`, { nodeId: request.nodeId });
  const seeds = tasks.map((t) => {
    const node = lineage.graph.nodes[lineage.graph.index.get(t.nodeId as NodeId)!]!;
    return { node: node.id, units: parseUnitSelection(node.space, request.units) };
  });
  const result = closure(lineage.graph, seeds, request.direction);
  return { lineage, seedUnits: seeds[0]!.units, result };
}
