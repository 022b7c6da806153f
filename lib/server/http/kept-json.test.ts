import { describe, expect, it } from "vitest";
import { keepJson, keptJsonResponse } from "./kept-json";

describe("keptJsonResponse", () => {
  const value = { hash: "3f2a", nodes: Array.from({ length: 2_000 }, (_, i) => ({ id: `job:p${i % 7}:task_${i}`, name: `tâche ✓ ${i}` })) };
  const kept = keepJson(value);

  it("answers the kept object with the request's fields added at the end, as JSON.stringify gives it", async () => {
    const res = keptJsonResponse(kept, { asOf: "2026-12-06T12:00:00.000Z" });
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.text()).toBe(JSON.stringify({ ...value, asOf: "2026-12-06T12:00:00.000Z" }));
  });

  it("answers two requests from the same kept text with their own fields, and adds nothing when there are none", async () => {
    const asOf = async (r: Response) => (JSON.parse(await r.text()) as { asOf?: string }).asOf;
    expect([await asOf(keptJsonResponse(kept, { asOf: "a" })), await asOf(keptJsonResponse(kept, { asOf: "b" }))]).toEqual(["a", "b"]);
    expect(await keptJsonResponse(kept).text()).toBe(JSON.stringify(value));
  });

  it("keeps only an object with fields", () => {
    expect(() => keepJson({})).toThrow("expected an object with at least one field");
  });
});
