/**
 * Lays the lineage out with ELK (layered, left to right) in two levels: each expanded
 * pipeline on its own, then the pipelines as boxes with the edges between them. Why two
 * levels: a pipeline is what the operator collapses, so its box must be one rectangle; and ELK's
 * cost grows faster than linearly with graph size, so forty small layouts of 250 nodes
 * finish in about a tenth of the time of one layout of 10,000 (measured in bench/).
 *
 * Positions only: React Flow draws the edges itself, so a big pipeline is laid out with one
 * "tight" incoming edge per node (an edge from a predecessor exactly one layer back). That
 * keeps ELK's layering identical (longest path from the sources) without the dummy nodes
 * that long edges cost, which dominate ELK's time on wide lineages.
 */
import { compositeKey, partsOf } from "@/lib/domain/composite-key";
import { createHash } from "node:crypto";
import type { ElkNode, LayoutOptions } from "elkjs/lib/elk-api";
import { LINEAGE_NODE_SIZE, type LineageLayoutResult } from "@/lib/contracts/lineage";
import { remember } from "../../cache/recent-promises";
import type { Elk } from "./elk-threads";
import { processSingleton } from "../../runtime/process-singleton";

export interface LayoutInput {
  nodes: { id: string; pipeline: string }[];
  edges: { source: string; target: string }[];
  collapsed: string[];
}

type LayoutResult = LineageLayoutResult;

const { width: NODE_WIDTH, height: NODE_HEIGHT } = LINEAGE_NODE_SIZE;
const GROUP_HEADER = 34;
const GROUP_PAD = 16;
const COLLAPSED = { width: 230, height: 64 };
const FULL_EDGES_UP_TO = 150;

const OPTIONS: LayoutOptions = {
  "elk.algorithm": "layered",
  "elk.direction": "RIGHT",
  "elk.layered.layering.strategy": "LONGEST_PATH_SOURCE",
  "elk.layered.nodePlacement.strategy": "SIMPLE",
  "elk.layered.thoroughness": "1",
  "elk.edgeRouting": "POLYLINE",
  "elk.spacing.nodeNode": "18",
  "elk.layered.spacing.nodeNodeBetweenLayers": "44",
};

/** One pipeline to lay out: its nodes and the (possibly reduced) edges ELK sees. */
interface PipelineJob {
  pipeline: string;
  ids: string[];
  edges: { source: string; target: string }[];
}
interface PipelineLaid {
  pipeline: string;
  width: number;
  height: number;
  positions: Record<string, { x: number; y: number }>;
}
/** What is left once every pipeline is laid out: the boxes and the edges between them. */
interface LayoutPlan {
  jobs: PipelineJob[];
  collapsed: string[];
  sizes: Record<string, number>;
  between: [string, string][];
}

/** Splits the lineage into per-pipeline jobs (pure and cheap: the caller's thread). */
function planLayout(input: LayoutInput): LayoutPlan {
  const byPipeline = new Map<string, string[]>();
  const pipelineOf = new Map<string, string>();
  for (const n of input.nodes) {
    pipelineOf.set(n.id, n.pipeline);
    const ids = byPipeline.get(n.pipeline);
    if (ids) ids.push(n.id);
    else byPipeline.set(n.pipeline, [n.id]);
  }
  const inner = new Map<string, { source: string; target: string }[]>();
  const between = new Set<string>();
  for (const e of input.edges) {
    const [a, b] = [pipelineOf.get(e.source), pipelineOf.get(e.target)];
    if (a === undefined || b === undefined) continue;
    if (a !== b) between.add(compositeKey(a, b));
    else if (inner.has(a)) inner.get(a)!.push(e);
    else inner.set(a, [e]);
  }
  const collapsed = new Set(input.collapsed);
  const jobs = [...byPipeline]
    .filter(([p]) => !collapsed.has(p))
    .map(([pipeline, ids]) => {
      const edges = inner.get(pipeline) ?? [];
      return { pipeline, ids, edges: ids.length > FULL_EDGES_UP_TO ? tightEdges(ids, edges) : edges };
    });
  return {
    jobs,
    collapsed: [...byPipeline.keys()].filter((p) => collapsed.has(p)),
    sizes: Object.fromEntries([...byPipeline].map(([p, ids]) => [p, ids.length])),
    between: [...between].map((key) => partsOf(key) as [string, string]),
  };
}

/**
 * ELK on each pipeline of a batch (one thread runs one batch; the threads split the jobs). All
 * of a batch is handed to its thread at once: the thread works through them while this thread
 * serves other requests, and a pipeline laid out before (same nodes, same edges) is not laid
 * out again — collapsing a pipeline, or a catalog change inside one, re-lays out only what changed.
 */
async function layoutPipelines(elk: Elk, jobs: PipelineJob[]): Promise<PipelineLaid[]> {
  return Promise.all(
    jobs.map((job) =>
      remember(laidPipelines, jobKey(job), KEPT_PIPELINES, async () => {
        const laid = await elk.layout(pipelineGraph(job));
        const positions: PipelineLaid["positions"] = {};
        for (const c of laid.children ?? []) positions[c.id] = { x: (c.x ?? 0) + GROUP_PAD, y: (c.y ?? 0) + GROUP_HEADER + GROUP_PAD };
        return { pipeline: job.pipeline, positions, width: (laid.width ?? 0) + 2 * GROUP_PAD, height: (laid.height ?? 0) + GROUP_HEADER + 2 * GROUP_PAD };
      }),
    ),
  );
}

/** Laid-out pipelines by their content, most recently used last (one per process). */
const KEPT_PIPELINES = 2_000;
const laidPipelines = processSingleton("laidPipelines", () => new Map<string, Promise<PipelineLaid>>());
const jobKey = (job: PipelineJob) =>
  createHash("sha1")
    .update(JSON.stringify([job.pipeline, job.ids, job.edges]))
    .digest("base64");

/** ELK on the pipelines as boxes (laid-out sizes, or the collapsed box) with the edges between them. */
async function placePipelines(elk: Elk, plan: Omit<LayoutPlan, "jobs">, laid: PipelineLaid[]): Promise<LayoutResult> {
  const sizes = new Map<string, { width: number; height: number }>(plan.collapsed.map((p) => [p, COLLAPSED]));
  const positions: LayoutResult["positions"] = {};
  for (const l of laid) {
    sizes.set(l.pipeline, { width: l.width, height: l.height });
    Object.assign(positions, l.positions);
  }
  // Same reduction as inside a big pipeline: 677 edges between 40 boxes cost ~1.5 s of dummy nodes, the tight ones ~0.1 s.
  const between = plan.between.map(([source, target]) => ({ source, target }));
  const kept = between.length > FULL_EDGES_UP_TO ? tightEdges([...sizes.keys()], between) : between;
  const meta = await elk.layout({
    id: "pipelines",
    layoutOptions: { ...(kept === between ? OPTIONS : BIG_OPTIONS), "elk.spacing.nodeNode": "40", "elk.layered.spacing.nodeNodeBetweenLayers": "90" },
    children: [...sizes].map(([pipeline, size]) => ({ id: pipeline, ...size })),
    edges: kept.map((e, i) => ({ id: `p${i}`, sources: [e.source], targets: [e.target] })),
  });
  const collapsed = new Set(plan.collapsed);
  const groups = (meta.children ?? []).map((c) => ({
    pipeline: c.id,
    x: c.x ?? 0,
    y: c.y ?? 0,
    width: c.width ?? 0,
    height: c.height ?? 0,
    collapsed: collapsed.has(c.id),
    nodeCount: plan.sizes[c.id] ?? 0,
  }));
  return { groups, positions };
}

/**
 * The whole layout: the pipelines shared between the ELK threads (biggest first, each to the
 * thread with the least work so far), then the pipelines placed as boxes on the first.
 */
export async function layoutLineage(elks: readonly Elk[], input: LayoutInput): Promise<LayoutResult> {
  const { jobs, ...plan } = planLayout(input);
  const batches = splitJobs(jobs, elks.length);
  const laid = (await Promise.all(batches.map((batch, i) => layoutPipelines(elks[i]!, batch)))).flat();
  return placePipelines(elks[0]!, plan, laid);
}

function splitJobs(jobs: PipelineJob[], threads: number): PipelineJob[][] {
  const batches: PipelineJob[][] = Array.from({ length: threads }, () => []);
  const load = new Array<number>(threads).fill(0);
  for (const job of [...jobs].sort((a, b) => b.ids.length - a.ids.length)) {
    const slot = load.indexOf(Math.min(...load));
    batches[slot]!.push(job);
    load[slot]! += job.ids.length + job.edges.length;
  }
  return batches;
}

/**
 * For big pipelines: no splitting into connected components (one ELK pass per pipeline) and
 * one crossing-minimisation sweep without the greedy switch — measured on the 10,000-node bench
 * graph in Node: ~2.0 s for the 40 pipelines against ~2.8 s with ELK's defaults there.
 */
const BIG_OPTIONS: LayoutOptions = {
  ...OPTIONS,
  "elk.separateConnectedComponents": "false",
  "elk.layered.crossingMinimization.strategy": "LAYER_SWEEP",
  "elk.layered.crossingMinimization.greedySwitch.type": "OFF",
};

function pipelineGraph({ pipeline, ids, edges }: PipelineJob): ElkNode {
  return {
    id: `pipeline:${pipeline}`,
    layoutOptions: ids.length > FULL_EDGES_UP_TO ? BIG_OPTIONS : OPTIONS,
    children: ids.map((id) => ({ id, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges: edges.map((e, i) => ({ id: `e${i}`, sources: [e.source], targets: [e.target] })),
  };
}

/**
 * One incoming edge per node, from a predecessor exactly one layer (longest path) back. The
 * edges between pipeline boxes can run in a circle (A feeds B, B feeds A) even when the lineage
 * does not: a predecessor still being walked is a back edge and is left out of the depth.
 */
function tightEdges(ids: string[], edges: { source: string; target: string }[]) {
  const incoming = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const e of edges) incoming.get(e.target)?.push(e.source);
  const depth = new Map<string, number>();
  const walking = new Set<string>();
  const depthOf = (start: string): number => {
    // Iterative DFS: a 250-node chain must not overflow the stack.
    const stack = [start];
    while (stack.length > 0) {
      const id = stack[stack.length - 1]!;
      if (depth.has(id)) {
        stack.pop();
        continue;
      }
      walking.add(id);
      const pending = (incoming.get(id) ?? []).filter((p) => !depth.has(p) && !walking.has(p));
      if (pending.length > 0) {
        stack.push(...pending);
        continue;
      }
      depth.set(id, Math.max(-1, ...(incoming.get(id) ?? []).map((p) => depth.get(p) ?? -1)) + 1);
      walking.delete(id);
      stack.pop();
    }
    return depth.get(start)!;
  };
  const kept = new Map<string, { source: string; target: string }>();
  for (const e of edges) {
    if (kept.has(e.target)) continue;
    if (depthOf(e.target) === depthOf(e.source) + 1) kept.set(e.target, e);
  }
  return [...kept.values()];
}
