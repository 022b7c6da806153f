import { HttpError } from "./errors";
import { parseJsonInput } from "@/lib/domain/json-limits";

export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;

/**
 * Where a handler's body comes from: the request itself, or route()'s raw body (read once, with
 * its size limit, and kept for the busy-database retries).
 */
export type BodySource = Request | RawBody;
/** route({ rawBody }): the body's text, read on the first call; every later call (a retry) answers the same text. */
export type RawBody = () => Promise<string>;

/** The text of a body source: a Request is read here with `maxBytes`; a raw body was limited by the route. */
export function textOf(source: BodySource, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<string> {
  return typeof source === "function" ? source() : readTextBody(source, maxBytes);
}

/** Reads a JSON body with a size limit: oversized → 413, malformed → 400 naming the position. */
export async function readJsonBody(source: BodySource, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<unknown> {
  return parseJsonInput(await textOf(source, maxBytes));
}

/**
 * The body's text, read whole: beyond `maxBytes` it is refused (413) before or while it is read;
 * a body that ends before or after the length its Content-Length declares is refused (400), so a
 * body cut on its way (a proxy's buffer, a broken connection) is never taken for a whole one.
 */
export async function readTextBody(req: Request, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<string> {
  const header = req.headers.get("content-length");
  const declared = header === null ? null : Number(header);
  if (declared !== null && !(Number.isSafeInteger(declared) && declared >= 0))
    throw new HttpError(400, "invalid_request", `headers.content-length: not a length in bytes (${header!.slice(0, 40)})`);
  if (declared !== null && declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) {
    if (declared) throw cut(0, declared);
    return "";
  }
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (declared !== null && size !== declared) throw cut(size, declared);
  try {
    return UTF8.decode(Buffer.concat(chunks));
  } catch {
    // Decoding leniently would fold every invalid sequence to U+FFFD: two different names would
    // become one dataset, and what is stored would not be what was sent.
    throw new HttpError(400, "invalid_request", "body: is not valid UTF-8 (send text encoded as UTF-8); nothing was stored");
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

function cut(received: number, declared: number): HttpError {
  return new HttpError(
    400,
    "invalid_request",
    `body: ${received} bytes received where Content-Length declares ${declared}: the body was cut or padded on its way; nothing was stored, send it again`,
  );
}

function tooLarge(maxBytes: number): HttpError {
  const limit = maxBytes % (1024 * 1024) === 0 ? `${maxBytes / (1024 * 1024)} MiB (${maxBytes} bytes)` : `${maxBytes} bytes`;
  return new HttpError(413, "payload_too_large", `body: larger than this route's limit of ${limit}; nothing was stored: send it in smaller batches`);
}
