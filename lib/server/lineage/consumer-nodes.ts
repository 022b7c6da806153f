import { createHash } from "node:crypto";
import type { LineageEdge, LineageGraphView, LineageNode } from "@/lib/contracts/lineage";
import type { ConsumerKind } from "@/lib/domain/recipients";
import type { ConsumerRecord } from "../repositories/people/teams-and-consumers";

/** The box consumers are drawn in: they belong to no pipeline, and read from several. */
export const CONSUMERS_GROUP = "consumers";

const KIND_WORDS: Record<ConsumerKind, string> = {
  dashboard: "dashboard",
  export_recipient: "export recipient",
  model_team: "model team",
  other: "consumer",
};

type ViewBody = Omit<LineageGraphView, "asOf">;

/**
 * The lineage view with the declared consumers drawn downstream of what they read: each a node
 * `consumer:<id>` in the consumers' box, with a read edge from each node it reads that the view
 * holds (a consumer reading nothing drawn is left out). Nothing declared: the view itself, same
 * hash — a lineage without consumers costs nothing more.
 */
export function withConsumers(view: ViewBody, consumers: readonly ConsumerRecord[]): ViewBody {
  if (consumers.length === 0) return view;
  const held = new Set(view.nodes.map((n) => n.id));
  const nodes: LineageNode[] = [];
  const edges: LineageEdge[] = [];
  for (const c of consumers) {
    const reads = c.reads.filter((r) => held.has(r));
    if (reads.length === 0) continue;
    nodes.push({
      id: c.nodeId,
      kind: "consumer",
      role: "consumer",
      name: c.name,
      namespace: "",
      pipeline: CONSUMERS_GROUP,
      partitions: "",
      traits: [KIND_WORDS[c.kind], ...(c.people.length > 0 ? [c.people.join(", ")] : [])],
    });
    for (const r of reads) edges.push({ id: `${r}->${c.nodeId}`, source: r, target: c.nodeId, kind: "reads", mapping: "", status: "exact", note: "" });
  }
  if (nodes.length === 0) return view;
  const hash = createHash("sha1")
    .update(JSON.stringify([view.hash, nodes, edges]))
    .digest("hex")
    .slice(0, 16);
  return { hash, nodes: [...view.nodes, ...nodes], edges: [...view.edges, ...edges] };
}

/** A consumer reached by a closure: through which of its nodes, one step past the deepest of them. */
export interface ReachedConsumer {
  nodeId: string;
  name: string;
  via: string[];
  depth: number;
}

/** The consumers reading a node of a downstream closure (given its nodes' depths), by node id. */
export function consumersReached(depthOf: ReadonlyMap<string, number>, consumers: readonly ConsumerRecord[]): ReachedConsumer[] {
  return consumers.flatMap((c) => {
    const via = c.reads.filter((r) => depthOf.has(r));
    if (via.length === 0) return [];
    return [{ nodeId: c.nodeId, name: c.name, via, depth: Math.max(...via.map((v) => depthOf.get(v)!)) + 1 }];
  });
}
