/**
 * A big JSON answer serialised once and sent many times: the lineage graph of 50,000 nodes and
 * 152,201 edges is 35 MB, ~0.9 s of the server's one thread to serialise per request
 * (docs/lineage.md). Its per-request fields (an `asOf` of now) are added at the end, so the kept
 * text never changes. (Kept gzipped too, it would be sent gzipped twice: Next.js drops a route's
 * Content-Encoding and compresses the answer itself — on libuv's threads, off the event loop.)
 */
export interface KeptJson {
  /** The object's text without its closing brace. */
  readonly head: Uint8Array;
}

export function keepJson(value: object): KeptJson {
  const text = JSON.stringify(value);
  if (!text.startsWith("{") || text === "{}") throw new Error("keepJson: expected an object with at least one field");
  return { head: new TextEncoder().encode(text.slice(0, -1)) };
}

/** The kept object with `fields` added, as a Response streamed from the kept bytes (not copied). */
export function keptJsonResponse(kept: KeptJson, fields: Record<string, unknown> = {}): Response {
  const added = JSON.stringify(fields).slice(1);
  const tail = new TextEncoder().encode(added === "}" ? added : `,${added}`);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(kept.head);
      controller.enqueue(tail);
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "application/json" } });
}
