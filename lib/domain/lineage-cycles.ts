import type { GraphEdge, GraphNode } from "./lineage-graph";

/**
 * Kahn's algorithm that never fails: when only nodes on cycles remain, one concrete cycle is
 * found by walking predecessors inside the remainder (each remaining node has one there), its
 * newest read edge (ties: the last by node id) is cut, and the sort goes on. Each cut removes an
 * edge, so it ends; an acyclic lineage costs one pass, as before.
 */
export function acyclicOrder(
  nodes: readonly GraphNode[],
  out: GraphEdge[][],
  inn: GraphEdge[][],
  sinceOf: (e: GraphEdge) => number,
): { order: number[]; cut: { edge: GraphEdge; cycle: number[] }[] } {
  const n = nodes.length;
  const indegree = new Array<number>(n).fill(0);
  for (const edges of out) for (const e of edges) indegree[e.to]!++;
  const order: number[] = [];
  const done = new Uint8Array(n);
  const queue: number[] = [];
  for (let i = 0; i < n; i++) if (indegree[i] === 0) queue.push(i);
  const cut: { edge: GraphEdge; cycle: number[] }[] = [];
  let head = 0;
  for (;;) {
    while (head < queue.length) {
      const i = queue[head++]!;
      done[i] = 1;
      order.push(i);
      for (const e of out[i]!) if (--indegree[e.to]! === 0) queue.push(e.to);
    }
    if (order.length === n) return { order, cut };
    const cycle = cycleInRemainder(nodes, inn, done);
    const edges = cycle.slice(1).map((to, k) => inn[to]!.find((e) => e.from === cycle[k]! && !done[e.from])!);
    const reads = edges.filter((e) => e.kind === "reads");
    const candidates = reads.length > 0 ? reads : edges;
    const victim = candidates.reduce((best, e) => (compareForCut(e, best, nodes, sinceOf) > 0 ? e : best));
    out[victim.from] = out[victim.from]!.filter((e) => e !== victim);
    inn[victim.to] = inn[victim.to]!.filter((e) => e !== victim);
    cut.push({ edge: victim, cycle });
    if (--indegree[victim.to]! === 0) queue.push(victim.to);
  }
}

function compareForCut(a: GraphEdge, b: GraphEdge, nodes: readonly GraphNode[], sinceOf: (e: GraphEdge) => number): number {
  return sinceOf(a) - sinceOf(b) || compareIds(nodes[a.to]!.id, nodes[b.to]!.id) || compareIds(nodes[a.from]!.id, nodes[b.from]!.id);
}

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A cycle among the unsorted nodes, in edge direction, first node repeated last. */
function cycleInRemainder(nodes: readonly GraphNode[], inn: GraphEdge[][], done: Uint8Array): number[] {
  let at = -1;
  for (let i = 0; i < nodes.length && at < 0; i++) if (!done[i]) at = i;
  const seen = new Map<number, number>();
  const backwards: number[] = [];
  while (!seen.has(at)) {
    seen.set(at, backwards.push(at) - 1);
    at = inn[at]!.find((e) => !done[e.from])!.from;
  }
  const loop = backwards.slice(seen.get(at)!);
  const forward = loop.reverse();
  return [...forward, forward[0]!];
}
