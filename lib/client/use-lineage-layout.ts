"use client";

import { useQuery } from "@tanstack/react-query";
import type { LineageGraphView } from "@/lib/contracts/lineage";
import type { LayoutInput, LayoutResult } from "./layout-lineage";

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, { resolve: (r: LayoutResult) => void; reject: (e: Error) => void }>();

function layoutWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL("./lineage-layout.worker.ts", import.meta.url));
  worker.onmessage = (event: MessageEvent<{ id: number; result?: LayoutResult; error?: string }>) => {
    const job = pending.get(event.data.id);
    pending.delete(event.data.id);
    if (event.data.error !== undefined || !event.data.result) job?.reject(new Error(`layout failed: ${event.data.error ?? "no result"}`));
    else job?.resolve(event.data.result);
  };
  worker.onerror = (event) => {
    for (const job of pending.values()) job.reject(new Error(`the layout worker stopped: ${event.message}`));
    pending.clear();
    worker = null;
  };
  return worker;
}

function runLayout(input: LayoutInput): Promise<LayoutResult> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    layoutWorker().postMessage({ id, input });
  });
}

export const lineageLayoutKeys = {
  layout: (hash: string, collapsed: readonly string[]) => ["lineage", "layout", hash, [...collapsed].sort().join(",")] as const,
};

/**
 * The ELK layout of a lineage graph, computed in a worker and cached like data under the
 * graph's content hash and the collapsed pipelines: the same picture is never laid out twice.
 */
export function useLineageLayout(graph: LineageGraphView | undefined, collapsed: readonly string[]) {
  return useQuery({
    queryKey: lineageLayoutKeys.layout(graph?.hash ?? "", collapsed),
    queryFn: () => runLayout({
      nodes: graph!.nodes.map((n) => ({ id: n.id, pipeline: n.pipeline })),
      edges: graph!.edges.map((e) => ({ source: e.source, target: e.target })),
      collapsed: [...collapsed],
    }),
    enabled: graph !== undefined,
    staleTime: Infinity,
    gcTime: 10 * 60_000,
    retry: false,
  });
}
