import { processSingleton } from "../../runtime/process-singleton";
import { startThread } from "../../runtime/threads";
import { RpcThread } from "../../runtime/worker-rpc";
import type { ElkNode } from "elkjs/lib/elk-api";

/**
 * ELK off the server's main thread: each ElkThread is a worker thread running elkjs's bundled
 * build (runtime/workers/elk.worker.mjs) — the one layout pipeline of the console: the lineage
 * and an incident's scope graph are both laid out here. A worker that dies rejects what it had in hand; the next
 * layout starts another.
 */
export interface Elk {
  layout(graph: ElkNode): Promise<ElkNode>;
}

export class ElkThread implements Elk {
  private readonly thread = new RpcThread<{ graph: ElkNode }, { id: number; result?: ElkNode; error?: string }>({
    start: startThread.layout,
    stopped: (why) => new Error(`the layout thread stopped: ${why}`),
  });

  async layout(graph: ElkNode): Promise<ElkNode> {
    const { result, error } = await this.thread.ask({ graph });
    if (error !== undefined || !result) throw new Error(`ELK could not lay the graph out: ${error ?? "no result"}`);
    return result;
  }
}

/**
 * The process's layout threads: as many as two cores (this machine kind, and the smallest
 * server worth running a console on) can use, started on the first layout and kept (they never
 * hold the process open); one set per process.
 */
export const LAYOUT_THREADS = 2;
export function elkThreads(): ElkThread[] {
  return processSingleton("elkThreads", () => Array.from({ length: LAYOUT_THREADS }, () => new ElkThread()));
}
