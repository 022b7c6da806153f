import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as alerts } from "@/app/api/v1/alerts/route";
import { POST as lineage } from "@/app/api/v1/lineage/route";
import { GET as matrix } from "@/app/api/v1/units/matrix/route";
import { GET as overview } from "@/app/api/v1/overview/route";
import { getRoute } from "../testing/read-routes";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";

/**
 * A producer declares a new dataset every few tens of milliseconds while people read the pages.
 * Measured before: 12 of 80 overview reads answered 500 "the unit states could not be computed"
 * — a full computation for one catalog finished after the catalog had moved on.
 */
describe("reads while new datasets arrive", () => {
  let t: TestDatabase;
  const saved = process.env.DATABASE_URL;
  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
    process.env.DATABASE_URL = t.target.url;
    await t.db.user.create({ data: { id: "ingest-bot", displayName: "Ingest bot", role: "operator" } });
  });
  afterAll(async () => {
    process.env.DATABASE_URL = saved;
    await t.drop();
  });

  it("never answer 5xx", async () => {
    let producing = true;
    const produced: number[] = [];
    const producer = (async () => {
      for (let i = 0; producing && i < 80; i++) {
        const event = {
          eventType: "COMPLETE",
          eventTime: new Date(Date.UTC(2026, 7, 1, 2, i)).toISOString(),
          producer: "https://example.com/arriving",
          schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
          run: { runId: `0190a8f3-1c2d-7e4f-8a9b-${String(i).padStart(12, "0")}` },
          job: { namespace: "arriving", name: `job_${i}` },
          inputs: i > 0 ? [{ namespace: "arriving", name: `table_${i - 1}` }] : [],
          outputs: [{ namespace: "arriving", name: `table_${i}` }],
        };
        const res = await lineage(
          new Request("http://console.test/api/v1/lineage", {
            method: "POST",
            body: JSON.stringify(event),
            headers: { "content-type": "application/json", "x-reparo-user": "ingest-bot" },
          }),
          { params: Promise.resolve({}) },
        );
        produced.push(res.status);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const answers: { path: string; status: number; body: string }[] = [];
    for (let i = 0; i < 60; i++) {
      answers.push(
        ...(await Promise.all([getRoute(overview, "/api/v1/overview"), getRoute(matrix, "/api/v1/units/matrix"), getRoute(alerts, "/api/v1/alerts")])),
      );
    }
    producing = false;
    await producer;
    expect(produced.filter((s) => s !== 200)).toEqual([]);
    expect(answers.filter((a) => a.status >= 500).map((a) => `${a.status} ${a.path}: ${a.body.slice(0, 200)}`)).toEqual([]);
    expect(answers.length).toBe(180);
  });
});
