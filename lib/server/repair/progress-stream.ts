import type { ProgressView } from "@/lib/contracts/repair";
import { getDb, type Db } from "../repositories/database";
import { getProgress } from "./get-progress";
import { isActiveRun } from "@/lib/domain/repair-run-lifecycle";

const CHECK_MS = 500;
const KEEPALIVE_MS = 15_000;
/** A stream ends after this long; EventSource reconnects on its own. */
const MAX_MS = 30 * 60_000;

/**
 * The Execute step's live progress as server-sent events: `progress` with the whole
 * ProgressView each time it changes (checked every 0.5 s on this console, whichever console runs
 * the repair), a comment every 15 s to keep proxies from closing the connection, and `end` once
 * the run has ended. Every console reads the same database, so a balancer may send the stream to
 * any of them.
 */
export function progressStream(id: string, signal: AbortSignal, db: Db = getDb()): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const started = Date.now();
      let last = "";
      let lastSent = Date.now();
      const close = () => {
        if (closed) return;
        closed = true;
        clearTimeout(timer);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      signal.addEventListener("abort", close);
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
          lastSent = Date.now();
        } catch {
          close(); // the client went away
        }
      };
      const tick = async () => {
        if (closed) return;
        let view: ProgressView;
        try {
          view = await getProgress(id, db);
        } catch (e) {
          send(`event: failure\ndata: ${JSON.stringify({ message: (e as Error).message })}\n\n`);
          return close();
        }
        const json = JSON.stringify(view);
        if (json !== last) {
          send(`event: progress\ndata: ${json}\n\n`);
          last = json;
        } else if (Date.now() - lastSent >= KEEPALIVE_MS) send(": keep-alive\n\n");
        if ((view.run && !isActiveRun(view.run.status)) || Date.now() - started >= MAX_MS) {
          send("event: end\ndata: {}\n\n");
          return close();
        }
        if (!closed) timer = setTimeout(() => void tick(), CHECK_MS);
      };
      void tick();
    },
    cancel() {
      closed = true;
      clearTimeout(timer);
    },
  });
}
