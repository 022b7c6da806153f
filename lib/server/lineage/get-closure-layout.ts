import { CLOSURE_ALONE_UP_TO, LINEAGE_NODE_SIZE, type ClosureLayout, type ClosureLayoutQuery } from "@/lib/contracts/lineage";
import { remember } from "../cache/recent-promises";
import { RefusedError } from "@/lib/domain/errors";
import { contentHash } from "../ingestion/stable-id";
import { getDb, type Db } from "../repositories/database";
import { processSingleton } from "../runtime/process-singleton";
import { elkThreads } from "./layout/elk-threads";
import { layoutScope, type SubgraphLayoutOptions } from "./layout/layout-scope";
import { resolveClosure } from "./resolve-closure";

/** A canvas a little wider than tall, as /lineage's is on a laptop. */
const DEFAULT_ASPECT = 1.5;

/**
 * The aspect asked for, in quarter steps between a phone held upright and a wide screen: a few
 * layouts per closure, not one per pixel of window width.
 */
export function canvasAspect(asked: number | undefined): number {
  return Math.min(4, Math.max(0.5, Math.round((asked ?? DEFAULT_ASPECT) * 4) / 4));
}

/**
 * A closure laid out on its own, as /lineage shows it when opened on a selection: in the whole
 * lineage's layout its nodes are scattered among unrelated pipelines, so framing them all makes
 * their names unreadable. Left to right like the lineage; a closure much wider than the canvas
 * (a long chain of waves) has its layers wrapped into rows of about the canvas's shape. Laid out
 * by the server's ELK threads and kept by the closure's shape and the aspect.
 */
export async function getClosureLayout(query: ClosureLayoutQuery, now: Date, db: Db = getDb()): Promise<ClosureLayout> {
  const asOf = query.asOf ? new Date(query.asOf) : now;
  const { result } = await resolveClosure(db, { nodeId: query.nodeId, units: query.units, direction: query.direction, asOf });
  if (result.entries.size > CLOSURE_ALONE_UP_TO)
    throw new RefusedError(`the closure has ${result.entries.size} nodes: one over ${CLOSURE_ALONE_UP_TO} is framed on the whole lineage, not laid out alone`);
  const nodes = [...result.entries.keys()].sort().map((nodeId) => ({ nodeId }));
  // `via` points back along the walk: downstream that is the lineage's own direction, upstream its reverse.
  const edges = [...result.entries.values()]
    .flatMap((e) => e.via.map((v) => (result.direction === "downstream" ? { from: v, to: e.node } : { from: e.node, to: v })))
    .sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
  const aspect = canvasAspect(query.aspect);
  const options: SubgraphLayoutOptions = {
    nodeSize: LINEAGE_NODE_SIZE,
    tooWide: (flat) => flat.width > aspect * flat.height * 1.25,
    aspectRatio: aspect,
  };
  const key = contentHash(JSON.stringify({ nodes, edges, aspect }));
  return remember(layouts, key, KEPT_LAYOUTS, () => layoutScope(elkThreads()[0]!, { nodes, edges }, options));
}

/** Closure layouts of the selections being looked at (a few KB each). */
const KEPT_LAYOUTS = 64;
const layouts = processSingleton("closureLayouts", () => new Map<string, Promise<ClosureLayout>>());
