import { z } from "zod";
import {
  LineageEdgeSchema,
  LineageGraphQuerySchema,
  NodeKindSchema,
  NodeRoleSchema,
  type LineageEdge,
  type LineageGraphView,
  type LineageNode,
} from "./lineage";

/**
 * GET /api/v1/lineage-graph?form=compact: the same graph with every string spelled once and each
 * node and edge a row of indices — what the lineage page asks for. Written out, the 50,000-node
 * lineage is 35 MB (152,201 edges each repeating its two ids, its own id made of them, an empty
 * note and mapping): seconds to compress, send, parse and check (docs/lineage.md). Edge ids are
 * not sent (they are `source->target`). Expanded back by `expandLineageGraph`, so every screen
 * reads one shape.
 */
export const CompactLineageGraphSchema = z.object({
  form: z.literal("compact"),
  asOf: z.string(),
  hash: z.string(),
  /** Every name, namespace, pipeline, partition description, trait, mapping and note, once. */
  strings: z.array(z.string()),
  /** Per node: [id, kind, role, name, namespace, pipeline, partitions, traits] — kind and role index their enums, the rest `strings`. */
  nodes: z.array(
    z.tuple([
      z.string(),
      z.number().int(),
      z.number().int(),
      z.number().int(),
      z.number().int(),
      z.number().int(),
      z.number().int(),
      z.array(z.number().int()),
    ]),
  ),
  /** Per edge: [source, target] (indices of `nodes`), kind, status (indices of their enums), mapping, note (of `strings`). */
  edges: z.array(z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int(), z.number().int(), z.number().int()])),
});
export type CompactLineageGraph = z.infer<typeof CompactLineageGraphSchema>;

/** GET /api/v1/lineage-graph's query: `form=compact` asks for the compact answer (default `full`). */
export const LineageGraphAnswerQuerySchema = LineageGraphQuerySchema.extend({ form: z.enum(["full", "compact"]).default("full") });

const KINDS = NodeKindSchema.options;
const ROLES = NodeRoleSchema.options;
const EDGE_KINDS = LineageEdgeSchema.shape.kind.options;
const STATUSES = LineageEdgeSchema.shape.status.options;

/** The graph with each string once (`asOf` left out: the route adds it per request). */
export function compactLineageGraph(graph: Omit<LineageGraphView, "asOf">): Omit<CompactLineageGraph, "asOf"> {
  const strings = new Map<string, number>();
  const said = (s: string) => {
    let i = strings.get(s);
    if (i === undefined) strings.set(s, (i = strings.size));
    return i;
  };
  const at = new Map(graph.nodes.map((n, i) => [n.id, i]));
  const indexOf = (id: string) => {
    const i = at.get(id);
    if (i === undefined) throw new Error(`compactLineageGraph: an edge names ${id}, which is not a node`);
    return i;
  };
  const nodes = graph.nodes.map((n): CompactLineageGraph["nodes"][number] => [
    n.id,
    KINDS.indexOf(n.kind),
    ROLES.indexOf(n.role),
    said(n.name),
    said(n.namespace),
    said(n.pipeline),
    said(n.partitions),
    n.traits.map(said),
  ]);
  const edges = graph.edges.map((e): CompactLineageGraph["edges"][number] => [
    indexOf(e.source),
    indexOf(e.target),
    EDGE_KINDS.indexOf(e.kind),
    STATUSES.indexOf(e.status),
    said(e.mapping),
    said(e.note),
  ]);
  return { form: "compact", hash: graph.hash, strings: [...strings.keys()], nodes, edges };
}

/** The full answer back (`LineageGraphSchema`'s shape). */
export function expandLineageGraph(compact: CompactLineageGraph): LineageGraphView {
  const { strings } = compact;
  const text = (i: number) => {
    const s = strings[i];
    if (s === undefined) throw new Error(`the compact lineage graph refers to string ${i} of ${strings.length}`);
    return s;
  };
  const enumAt = <T>(options: readonly T[], i: number, what: string): T => {
    const value = options[i];
    if (value === undefined) throw new Error(`the compact lineage graph names ${what} ${i}, which is none`);
    return value;
  };
  const nodes = compact.nodes.map(([id, kind, role, name, namespace, pipeline, partitions, traits]): LineageNode => ({
    id,
    kind: enumAt(KINDS, kind, "node kind"),
    role: enumAt(ROLES, role, "node role"),
    name: text(name),
    namespace: text(namespace),
    pipeline: text(pipeline),
    partitions: text(partitions),
    traits: traits.map(text),
  }));
  const idAt = (i: number) => {
    const node = nodes[i];
    if (node === undefined) throw new Error(`the compact lineage graph's edge names node ${i} of ${nodes.length}`);
    return node.id;
  };
  const edges = compact.edges.map(([source, target, kind, status, mapping, note]): LineageEdge => {
    const [from, to] = [idAt(source), idAt(target)];
    return {
      id: `${from}->${to}`,
      source: from,
      target: to,
      kind: enumAt(EDGE_KINDS, kind, "edge kind"),
      mapping: text(mapping),
      status: enumAt(STATUSES, status, "edge status"),
      note: text(note),
    };
  });
  return { asOf: compact.asOf, hash: compact.hash, nodes, edges };
}
