"use client";

import { useQuery } from "@tanstack/react-query";
import type { LineageGraphView } from "@/lib/contracts/lineage";
import { planLayout, type LayoutInput, type LayoutResult, type PipelineJob, type PipelineLaid } from "./layout-lineage";
import type { LayoutRequest } from "./lineage-layout.worker";

/** Two workers: this machine (and most laptops) has at least two cores, and pipelines lay out independently. */
const WORKERS = 2;
const workers: (Worker | null)[] = Array.from({ length: WORKERS }, () => null);
let nextId = 0;
const pending = new Map<number, { resolve: (r: unknown) => void; reject: (e: Error) => void }>();

function layoutWorker(slot: number): Worker {
  const existing = workers[slot];
  if (existing) return existing;
  const worker = new Worker(new URL("./lineage-layout.worker.ts", import.meta.url));
  worker.onmessage = (event: MessageEvent<{ id: number; result?: unknown; error?: string }>) => {
    const job = pending.get(event.data.id);
    pending.delete(event.data.id);
    if (event.data.error !== undefined || !event.data.result) job?.reject(new Error(`layout failed: ${event.data.error ?? "no result"}`));
    else job?.resolve(event.data.result);
  };
  worker.onerror = (event) => {
    for (const job of pending.values()) job.reject(new Error(`the layout worker stopped: ${event.message}`));
    pending.clear();
    workers[slot] = null;
  };
  workers[slot] = worker;
  return worker;
}

type Request = LayoutRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

function ask<T>(slot: number, request: Request): Promise<T> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve: resolve as (r: unknown) => void, reject });
    layoutWorker(slot).postMessage({ ...request, id });
  });
}

/** Biggest pipelines first, each to the worker with the fewest nodes so far. */
function split(jobs: PipelineJob[]): PipelineJob[][] {
  const batches: PipelineJob[][] = Array.from({ length: WORKERS }, () => []);
  const load = new Array<number>(WORKERS).fill(0);
  for (const job of [...jobs].sort((a, b) => b.ids.length - a.ids.length)) {
    const slot = load.indexOf(Math.min(...load));
    batches[slot]!.push(job);
    load[slot]! += job.ids.length + job.edges.length;
  }
  return batches;
}

async function runLayout(input: LayoutInput): Promise<LayoutResult> {
  performance.mark("reparo:layout-start");
  const { jobs, ...rest } = planLayout(input);
  const batches = split(jobs).map((batch, slot) => (batch.length > 0 ? ask<PipelineLaid[]>(slot, { kind: "pipelines", jobs: batch }) : Promise.resolve([])));
  const laid = (await Promise.all(batches)).flat();
  performance.mark("reparo:layout-pipelines");
  const result = await ask<LayoutResult>(0, { kind: "place", plan: rest, laid });
  performance.mark("reparo:layout-computed");
  return result;
}

/**
 * The last layouts, kept in localStorage under the graph hash and collapsed pipelines: a reload
 * of an unchanged lineage paints without running ELK again (a 10,000-node layout is ~0.6 MB).
 * Storage full or unavailable only means laying out again.
 */
const STORED = "reparo:lineage-layout:";

function storedLayout(key: string): LayoutResult | null {
  try {
    const raw = window.localStorage.getItem(STORED + key);
    return raw ? (JSON.parse(raw) as LayoutResult) : null;
  } catch {
    return null;
  }
}

function storeLayout(key: string, result: LayoutResult): void {
  try {
    for (const k of Object.keys(window.localStorage)) if (k.startsWith(STORED)) window.localStorage.removeItem(k);
    window.localStorage.setItem(STORED + key, JSON.stringify(result));
  } catch {
    // Quota or privacy mode: the in-memory query cache still holds it for this session.
  }
}

async function cachedLayout(key: string, input: () => LayoutInput): Promise<LayoutResult> {
  const stored = storedLayout(key);
  if (stored) {
    performance.mark("reparo:layout-from-storage");
    return stored;
  }
  const result = await runLayout(input());
  storeLayout(key, result);
  return result;
}

export const lineageLayoutKeys = {
  layout: (hash: string, collapsed: readonly string[]) => ["lineage", "layout", hash, [...collapsed].sort().join(",")] as const,
};

/**
 * The ELK layout of a lineage graph, computed in two workers (pipelines split between them,
 * then the pipelines placed as boxes) and cached like data under the graph's content hash and
 * the collapsed pipelines (and in localStorage, across reloads): the same picture is not laid out twice.
 */
export function useLineageLayout(graph: LineageGraphView | undefined, collapsed: readonly string[]) {
  return useQuery({
    queryKey: lineageLayoutKeys.layout(graph?.hash ?? "", collapsed),
    queryFn: () => cachedLayout(`${graph!.hash}|${[...collapsed].sort().join(",")}`, () => ({
      nodes: graph!.nodes.map((n) => ({ id: n.id, pipeline: n.pipeline })),
      edges: graph!.edges.map((e) => ({ source: e.source, target: e.target })),
      collapsed: [...collapsed],
    })),
    enabled: graph !== undefined,
    staleTime: Infinity,
    gcTime: 10 * 60_000,
    retry: false,
  });
}
