import { Worker } from "node:worker_threads";
import type { ElkNode } from "elkjs/lib/elk-api";

/**
 * ELK off the server's main thread: each ElkThread is a worker thread (elk.worker.mjs) running
 * elkjs's bundled build — the one layout pipeline of the console: the lineage and an incident's
 * scope graph are both laid out here. A worker that dies rejects what it had in hand; the next
 * layout starts another.
 */
export interface Elk {
  layout(graph: ElkNode): Promise<ElkNode>;
}

export class ElkThread implements Elk {
  private worker: Worker | null = null;
  private nextId = 0;
  private pending = new Map<number, { resolve: (g: ElkNode) => void; reject: (e: Error) => void }>();

  layout(graph: ElkNode): Promise<ElkNode> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.thread().postMessage({ id, graph });
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL("./elk.worker.mjs", import.meta.url));
    worker.unref();
    worker.on("message", ({ id, result, error }: { id: number; result?: ElkNode; error?: string }) => {
      const job = this.pending.get(id);
      this.pending.delete(id);
      if (error !== undefined || !result) job?.reject(new Error(`ELK could not lay the graph out: ${error ?? "no result"}`));
      else job?.resolve(result);
    });
    const fail = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const job of this.pending.values()) job.reject(new Error(`the layout thread stopped: ${reason}`));
      this.pending.clear();
    };
    worker.on("error", (e) => fail(e.message));
    worker.on("exit", (code) => fail(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }
}

/**
 * The process's layout threads: as many as two cores (this machine kind, and the smallest
 * server worth running a console on) can use, started on the first layout and kept (unref'd:
 * they never hold the process open). On globalThis, like the other caches: instrumentation and
 * the routes are separate bundles.
 */
export const LAYOUT_THREADS = 2;
const holder = globalThis as unknown as { __reparoElkThreads?: ElkThread[] };
export function elkThreads(): ElkThread[] {
  return (holder.__reparoElkThreads ??= Array.from({ length: LAYOUT_THREADS }, () => new ElkThread()));
}
