import { HttpError } from "./errors";
import { checkJsonLimits } from "./json-limits";

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
  const text = await textOf(source, maxBytes);
  if (text.trim() === "") throw new HttpError(400, "invalid_request", "body: a JSON body is required");
  checkJsonLimits(text);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, "invalid_request", `body: malformed JSON (${(e as Error).message})`);
  }
}

export async function readTextBody(req: Request, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return "";
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
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, "payload_too_large", `body: larger than the limit of ${maxBytes} bytes`);
}
