import { createHash } from "node:crypto";
import { nodeName, parseNodeId } from "@/lib/domain/ids";
import type { GraphNode, LineageGraph, SelfRead } from "@/lib/domain/lineage-graph";
import { describeMapping } from "@/lib/domain/partition-mappings";
import { LineageGraphSchema, type LineageEdge, type LineageGraphView, type LineageNode, type NodeRole } from "@/lib/contracts/lineage";
import { CompactLineageGraphSchema, compactLineageGraph } from "@/lib/contracts/compact-lineage-graph";
import { keepJson, type KeptJson } from "../http/kept-json";
import { getDb, type Db } from "../repositories/database";
import { lineageFingerprint } from "../repositories/lineage/lineage-fingerprint";
import { describePartitions } from "./describe-partitions";
import { loadLineageGraph } from "./load-lineage-graph";
import { processSingleton } from "../runtime/process-singleton";
import { listConsumers, type ConsumerRecord } from "../repositories/people/teams-and-consumers";
import { withConsumers } from "./consumer-nodes";

/**
 * The lineage graph as the page draws it: every task and dataset with its pipeline and the
 * facts that matter in an incident, every read/write edge, the declared consumers downstream of
 * what they read, and a content hash the client
 * keys its layout cache on (the same graph is never laid out twice).
 */
export async function getLineageGraphView(asOfParam: string | undefined, now: Date, db: Db = getDb()): Promise<LineageGraphView> {
  const { asOf, view } = await drawnView(asOfParam, now, db);
  return { asOf, ...view };
}

/**
 * The same answer with its body kept serialised per view and form (http/kept-json.ts): at 50,000
 * nodes the view is 35 MB written out (6 MB compact, lib/contracts/compact-lineage-graph.ts), and
 * serialising it took ~0.9 s of the server's thread per request.
 */
export async function getKeptLineageGraphView(
  asOfParam: string | undefined,
  now: Date,
  db: Db = getDb(),
  form: "full" | "compact" = "full",
): Promise<{ asOf: string; body: KeptJson }> {
  const { asOf, view } = await drawnView(asOfParam, now, db);
  const kept = form === "compact" ? answers.compact : answers.full;
  let body = kept.get(view);
  if (!body) {
    // Outside production the route checks each answer against its contract; a kept one is checked once.
    if (process.env.NODE_ENV !== "production") {
      LineageGraphSchema.parse({ asOf, ...view });
      if (form === "compact") CompactLineageGraphSchema.parse({ asOf, ...compactLineageGraph(view) });
    }
    kept.set(view, (body = keepJson(form === "compact" ? compactLineageGraph(view) : view)));
  }
  return { asOf, body };
}

/**
 * Per process, not per bundle (runtime/process-singleton.ts): what the start-up warm-up keeps is
 * what the route sends. Kept per bundle, the route built its own view and answer on first ask.
 */
const answers = processSingleton("keptLineageAnswers", () => ({
  full: new WeakMap<ViewBody, KeptJson>(),
  compact: new WeakMap<ViewBody, KeptJson>(),
  withConsumers: new WeakMap<ViewBody, { key: string; view: ViewBody }>(),
  views: new WeakMap<LineageGraph, ViewBody>(),
}));

async function drawnView(asOfParam: string | undefined, now: Date, db: Db): Promise<{ asOf: string; view: ViewBody }> {
  const asOf = asOfParam ? new Date(asOfParam) : now;
  const [view, consumers] = await Promise.all([
    asOfParam ? loadLineageGraph(db, asOf).then(({ graph }) => viewOfCompiled(graph)) : currentView(db, now),
    listConsumers(db),
  ]);
  return { asOf: asOf.toISOString(), view: drawnWithConsumers(view, consumers) };
}

/**
 * The declared consumers drawn on the view (consumer-nodes.ts), kept per view while they do not
 * change. They are today's consumers, whatever the `asOf`: a declaration is not versioned in time.
 */
function drawnWithConsumers(view: ViewBody, consumers: ConsumerRecord[]): ViewBody {
  if (consumers.length === 0) return view;
  const key = JSON.stringify(consumers);
  const hit = answers.withConsumers.get(view);
  if (hit?.key === key) return hit.view;
  const drawn = withConsumers(view, consumers);
  answers.withConsumers.set(view, { key, view: drawn });
  return drawn;
}

type ViewBody = Omit<LineageGraphView, "asOf">;

/** One view per compiled graph (the compile is cached in load-lineage-graph.ts): ~10 MB of objects are not rebuilt per request. */
function viewOfCompiled(graph: LineageGraph): ViewBody {
  let view = answers.views.get(graph);
  if (!view) answers.views.set(graph, (view = viewOfGraph(graph)));
  return view;
}

/**
 * The lineage of now, kept until the catalog changes: what the view shows (nodes, edges,
 * partition definitions in words) does not move with the clock, only a closure's units do, and
 * those are computed per request. So the page of a 10,000-node lineage does not wait for a new
 * compile (~1.4 s) each new minute. One per process: the startup warm-up and the routes share it.
 */
const current = processSingleton("lineageViews", () => new WeakMap<Db, { fingerprint: string; view: Promise<ViewBody> }>());

async function currentView(db: Db, now: Date): Promise<ViewBody> {
  const fingerprint = await lineageFingerprint(db);
  const hit = current.get(db);
  if (hit?.fingerprint === fingerprint) return hit.view;
  const view = loadLineageGraph(db, now).then(({ graph }) => viewOfCompiled(graph));
  const entry = { fingerprint, view };
  current.set(db, entry);
  view.catch(() => current.get(db) === entry && current.delete(db));
  return view;
}

function viewOfGraph(graph: LineageGraph): Omit<LineageGraphView, "asOf"> {
  const nodes = graph.nodes.map((n) => viewOf(n, graph));
  const edges: LineageEdge[] = [];
  const push = (source: string, target: string, kind: LineageEdge["kind"], mapping: string, status: LineageEdge["status"], note: string) =>
    edges.push({ id: `${source}->${target}`, source, target, kind, mapping, status, note });
  for (const out of graph.out) {
    for (const e of out) {
      const [source, target] = [graph.nodes[e.from]!.id, graph.nodes[e.to]!.id];
      push(source, target, e.kind, e.kind === "reads" ? describeMapping(e.mapping) : "", e.degraded ? "degraded" : "exact", e.degraded ?? "");
    }
  }
  for (const [taskIndex, self] of graph.selfReads) {
    const task = graph.nodes[taskIndex]!;
    push(self.dataset, task.id, "reads", describeMapping(self.mapping), "self", selfNote(self));
  }
  for (const c of graph.cutEdges)
    push(c.dataset, c.task, "reads", describeMapping(c.mapping), "cut", `left out of closures to break the cycle ${c.cycle.map(nodeNameOrId).join(" → ")}`);
  nodes.sort((a, b) => a.pipeline.localeCompare(b.pipeline) || a.id.localeCompare(b.id));
  const hash = createHash("sha1")
    .update(JSON.stringify([nodes, edges]))
    .digest("hex")
    .slice(0, 16);
  return { hash, nodes, edges };
}

const ROLE_OF_KIND: Record<string, NodeRole> = { dashboard: "dashboard", export: "export", feature_set: "model", model: "model" };

function selfNote(self: SelfRead): string {
  return self.kind === "in_place"
    ? "reads the unit it writes: updates it in place (merge, upsert)"
    : `reads its own past (${describeMapping(self.mapping)}): its units are sequential`;
}

const nodeNameOrId = (id: string) => parseNodeId(id)?.name ?? id;

function viewOf(node: GraphNode, graph: LineageGraph): LineageNode {
  const base = {
    id: node.id,
    name: nodeName(node.id),
    namespace: parseNodeId(node.id)?.namespace ?? "",
    pipeline: node.pipeline,
    partitions: describePartitions(node.space.def),
  };
  if (node.nodeKind === "dataset") {
    return {
      ...base,
      kind: "dataset",
      role: ROLE_OF_KIND[node.kind] ?? "dataset",
      traits: [node.kind.replace("_", " "), ...(node.externalConsumer ? ["consumed outside the platform"] : [])],
    };
  }
  const traits = [
    node.writeMode ? (node.writeMode === "append" ? "append: not idempotent" : node.writeMode) : "write mode unknown",
    ...(node.sideEffect === "external" ? ["external side effect"] : []),
    ...(graph.selfLoops.has(node.index) ? ["reads its own past"] : graph.selfReads.has(node.index) ? ["updates in place"] : []),
    ...(node.publish === "atomic_set" ? ["atomic-set publish"] : []),
  ];
  return { ...base, kind: "task", role: "task", traits };
}
