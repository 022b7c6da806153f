import { describe, expect, it } from "vitest";
import { parseLineageBody } from "./parse-lineage-body";

const NOW = new Date("2026-12-04T12:00:00Z");
const event = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    eventType: "COMPLETE",
    eventTime: "2026-12-04T11:00:00Z",
    producer: "https://example.com/producer",
    schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
    run: { runId: "0190f0a0-0000-7000-8000-000000000001", facets: {} },
    job: { namespace: "airflow", name },
    inputs: [],
    outputs: [],
    ...extra,
  });

describe("producer text a database cannot hold", () => {
  it("a lone surrogate or a NUL anywhere — a value or a key — is refused, naming the field", () => {
    const body = [
      event("daily.\ud800"),
      event("ok", { run: { runId: "0190f0a0-0000-7000-8000-000000000002", facets: { "x\udc00": {} } } }),
      event("nul\u0000"),
    ].join("\n");
    const parsed = parseLineageBody(body, NOW);
    expect(parsed.events).toEqual([]);
    expect(parsed.refused.map((r) => [r.index, r.issues[0]!.path])).toEqual([
      [0, "body[0].job.name"],
      [1, "body[1].run.facets.x\udc00"],
      [2, "body[2].job.name"],
    ]);
    expect(parsed.refused[0]!.issues[0]!.message).toMatch(/lone UTF-16 surrogate/);
    expect(parsed.refused[2]!.issues[0]!.message).toMatch(/NUL/);
  });

  it("a surrogate pair, and text that only spells an escape, are stored as sent", () => {
    const parsed = parseLineageBody([event("daily.\ud83d\ude00"), event("literally \\ud800 and \\u0000")].join("\n"), NOW);
    expect(parsed.refused).toEqual([]);
    expect(parsed.events.map((e) => (e.event as { job: { name: string } }).job.name)).toEqual(["daily.😀", "literally \\ud800 and \\u0000"]);
  });
});
