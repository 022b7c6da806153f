import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { NotFoundError } from "@/lib/domain/errors";
import { route } from "./route";

let t: TestDatabase;
const saved = process.env.DATABASE_URL;

beforeAll(async () => {
  t = await createTestDatabase("sqlite");
  process.env.DATABASE_URL = t.target.url;
  await t.db.user.createMany({
    data: [
      { id: "vic", displayName: "Vic", role: "viewer" },
      { id: "ola", displayName: "Ola", role: "operator" },
    ],
  });
});
afterAll(async () => {
  process.env.DATABASE_URL = saved;
  await t.drop();
});

const ctx = { params: Promise.resolve({}) };
const post = (body: string, headers: Record<string, string> = {}) =>
  new Request("http://console.test/api/x", {
    method: "POST",
    body,
    headers: { host: "console.test", "content-type": "application/json", "x-reparo-user": "ola", ...headers },
  });

describe("route()", () => {
  const handler = vi.fn(async ({ body }: { body: { name: string; count: number } }) => ({ ok: body.name }));
  const wrapped = route({ body: z.object({ name: z.string().min(1), count: z.number().int() }), maxBodyBytes: 200 }, handler);

  it("passes a valid body to the handler", async () => {
    const res = await wrapped(post(JSON.stringify({ name: "a", count: 1 })), ctx);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: "a" });
  });

  it("answers 400 naming every bad field, and never calls the handler", async () => {
    handler.mockClear();
    const res = await wrapped(post(JSON.stringify({ name: "", count: "x" })), ctx);
    expect(res.status).toBe(400);
    const json = await res.json();
    expect(json.details.issues.map((i: { path: string }) => i.path)).toEqual(["body.name", "body.count"]);
    expect(json.message).toContain("body.count");
    expect(handler).not.toHaveBeenCalled();
  });

  it("answers 400 for malformed JSON and 413 for an oversized body", async () => {
    expect((await wrapped(post("{nope"), ctx)).status).toBe(400);
    const big = await wrapped(post(JSON.stringify({ name: "x".repeat(500), count: 1 })), ctx);
    expect(big.status).toBe(413);
    expect(handler).not.toHaveBeenCalled();
  });

  it("refuses cross-site mutations with 403", async () => {
    expect((await wrapped(post("{}", { origin: "https://evil.example" }), ctx)).status).toBe(403);
    expect((await wrapped(post("{}", { "sec-fetch-site": "cross-site" }), ctx)).status).toBe(403);
    expect(handler).not.toHaveBeenCalled();
  });

  it("refuses a viewer's mutation with 403 naming the role needed", async () => {
    const res = await wrapped(post(JSON.stringify({ name: "a", count: 1 }), { "x-reparo-user": "vic" }), ctx);
    expect(res.status).toBe(403);
    expect((await res.json()).message).toBe("vic is a viewer; this needs the operator role");
    expect(handler).not.toHaveBeenCalled();
  });

  it("maps a use case's NotFoundError to 404 with its message", async () => {
    const get = route({ query: z.object({ id: z.string() }) }, async ({ query }) => {
      throw new NotFoundError(`no node ${query.id}`);
    });
    const res = await get(new Request("http://console.test/api/x?id=job:a:b"), ctx);
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe("no node job:a:b");
  });
});

describe("route() and a busy database", () => {
  const busy = () => Object.assign(new Error("Operation has timed out"), { code: "P1008" });

  it("retries a handler the database was too busy for, with a fresh copy of the raw body, and answers its result", async () => {
    const seen: string[] = [];
    let calls = 0;
    const wrapped = route({}, async ({ req }) => {
      seen.push(await req.text());
      if (++calls < 3) throw busy();
      return { ok: true };
    });
    const res = await wrapped(post('{"x":1}', { "content-length": "7" }), ctx);
    expect(res.status).toBe(200);
    expect(seen).toEqual(['{"x":1}', '{"x":1}', '{"x":1}']);
  });

  it("rawBody: the body is read once within its limit, and a retry gets the same text whatever its size", async () => {
    const big = JSON.stringify({ x: "y".repeat(2_000_000) });
    const seen: number[] = [];
    let calls = 0;
    const wrapped = route({ rawBody: { maxBytes: 4_000_000 } }, async ({ rawBody }) => {
      seen.push((await rawBody()).length);
      if (++calls < 3) throw busy();
      return { ok: true };
    });
    const res = await wrapped(post(big, { "content-length": String(big.length) }), ctx);
    expect(res.status).toBe(200);
    expect(seen).toEqual([big.length, big.length, big.length]);
  });

  it("rawBody: a body over its limit is refused 413 when the handler reads it, naming the limit", async () => {
    let read = false;
    const wrapped = route({ rawBody: { maxBytes: 10 } }, async ({ rawBody }) => {
      read = true;
      return { length: (await rawBody()).length };
    });
    const res = await wrapped(post('{"x":"too long for ten"}'), ctx);
    expect(read).toBe(true);
    expect(res.status).toBe(413);
    expect((await res.json()).message).toBe("body: larger than this route's limit of 10 bytes; nothing was stored: send it in smaller batches");
  });

  it("rawBody: a body shorter or longer than its Content-Length is refused whole (400), never taken as cut", async () => {
    let stored = 0;
    const wrapped = route({ rawBody: { maxBytes: 1_000_000 } }, async ({ rawBody }) => {
      await rawBody();
      stored++;
      return { ok: true };
    });
    const body = '{"events":[1,2,3]}';
    const short = await wrapped(post(body, { "content-length": String(body.length + 100) }), ctx);
    expect(short.status).toBe(400);
    expect((await short.json()).message).toBe(
      `body: ${body.length} bytes received where Content-Length declares ${body.length + 100}: the body was cut or padded on its way; nothing was stored, send it again`,
    );
    const padded = await wrapped(post(body, { "content-length": "3" }), ctx);
    expect(padded.status).toBe(400);
    const nonsense = await wrapped(post(body, { "content-length": "ten" }), ctx);
    expect(nonsense.status).toBe(400);
    expect((await nonsense.json()).message).toMatch(/^headers\.content-length: not a length in bytes/);
    expect(stored).toBe(0);
    const whole = await wrapped(post(body, { "content-length": String(body.length) }), ctx);
    expect(whole.status).toBe(200);
  });

  it("after the bounded retries: 503 with Retry-After, never a 500", async () => {
    let calls = 0;
    const wrapped = route({ body: z.object({ x: z.number() }) }, async () => {
      calls++;
      throw busy();
    });
    const res = await wrapped(post('{"x":1}'), ctx);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(calls).toBe(3);
  });
});
