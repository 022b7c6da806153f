import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postLineage } from "@/app/api/v1/lineage/route";
import { POST as postPublishes } from "@/app/api/v1/publishes/route";
import { PUT as putPartitions } from "@/app/api/v1/datasets/[id]/partitions/route";
import { createToken } from "../access/manage-access";
import { openIncident } from "./open-incident";
import { loadUnitStateIndex } from "../repair/unit-state-index";
import { COMMANDER, OPERATOR, STG } from "../repair/testing/journey-steps";
import { type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";

/**
 * Issue 13, required 6: turning a failed unit that an incident holds published is a
 * commander's outcome (mark-success, audited) or its repair's — an operator cannot reach it by
 * ingesting a publish or a COMPLETE event. A machine token reporting a real run can.
 */
type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
let t: TestDatabase;
const saved = process.env.DATABASE_URL;
const STG_DS = "dataset:warehouse:stg_orders";

const post = (h: Handler, body: unknown, headers: Record<string, string>) =>
  h(new Request("http://console.test/api/v1/x", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers } }), {
    params: Promise.resolve({}),
  });
const publish = (runId: string) => ({
  dataset: { nodeId: STG_DS },
  unitKey: "2026-08-23",
  run: { externalId: runId, job: { nodeId: STG } },
  publishedAt: "2026-08-24T03:00:00Z",
  rowCount: 50,
});
const stateOf = async () => (await loadUnitStateIndex(t.db, new Date(), [STG_DS])).get(STG_DS, "2026-08-23")!.result.state;

describe("a unit an open incident holds", () => {
  beforeAll(async () => {
    t = await createDemoTestDatabase("sqlite");
    process.env.DATABASE_URL = t.target.url;
    await openIncident({ taskNodeId: STG, units: ["2026-08-23"], reason: "raw partition lost" }, OPERATOR, new Date(), t.db);
  }, 300_000);
  afterAll(async () => {
    process.env.DATABASE_URL = saved;
    await t.drop();
  });

  it("an operator's publish for it is refused naming the incident, and the unit stays failed with nothing written", async () => {
    const before = await t.db.publish.count();
    const res = await post(postPublishes, publish("manual-1"), { "x-reparo-user": "demo-operator" });
    expect(res.status).toBe(422);
    expect((await res.json()).message).toMatch(
      /^body\.unitKey: dataset:warehouse:stg_orders 2026-08-23 is held by incident \S+ \(.*, job:orders:stg_orders\): only its repair or a commander's mark-success publishes it \(demo-operator's role is operator\)$/,
    );
    // Under another job name it is the same unit of the same dataset: refused the same way.
    const renamed = await post(
      postPublishes,
      { ...publish("manual-2"), run: { externalId: "manual-2", job: { nodeId: "job:orders:hand_fix" } } },
      { "x-reparo-user": "demo-operator" },
    );
    expect(renamed.status).toBe(422);
    expect(await t.db.publish.count()).toBe(before);
    expect(await stateOf()).toBe("failed");
  });

  it("an operator's COMPLETE event that publishes it is a 403, and nothing is written", async () => {
    const event = completeFor("0190a8f3-1c2d-7e4f-8a9b-0c1d2e3f4a99");
    const before = await t.db.ingestedEvent.count();
    const res = await post(postLineage, event, { "x-reparo-user": "demo-operator" });
    const text = await res.text();
    expect(res.status, text).toBe(403);
    expect(text).toContain("dataset:warehouse:stg_orders 2026-08-23 is held by incident");
    expect(await t.db.ingestedEvent.count()).toBe(before);
    expect(await stateOf()).toBe("failed");
  });

  it("nor through a declaration: narrowed, the COMPLETE is a rejected key; widened again, the refold leaves the held unit out", async () => {
    const stored = await t.db.dataset.findUniqueOrThrow({ where: { nodeId: STG_DS }, select: { partitionDef: true } });
    const daily = JSON.parse(stored.partitionDef);
    const declare = (partitionDef: unknown) =>
      putPartitions(
        new Request("http://console.test/api/v1/datasets/x/partitions", {
          method: "PUT",
          body: JSON.stringify({ partitionDef, reason: "re-declared by the test" }),
          headers: { "content-type": "application/json", "x-reparo-user": "demo-operator" },
        }),
        { params: Promise.resolve({ id: STG_DS }) },
      );
    expect((await declare({ ...daily, start: "2026-08-24" })).status).toBe(200);
    const sent = await post(postLineage, completeFor("0190a8f3-1c2d-7e4f-8a9b-0c1d2e3f4a98"), { "x-reparo-user": "demo-operator" });
    expect(sent.status, await sent.clone().text()).toBe(200);
    expect(await t.db.invalidKey.count({ where: { nodeId: STG_DS, unitKey: "2026-08-23" } })).toBe(1);
    const widened = await declare(daily);
    expect(widened.status).toBe(200);
    expect((await widened.json()).resolved).toMatchObject({ held: 1 });
    expect(await t.db.publish.count({ where: { unitKey: "2026-08-23", submittedBy: "demo-operator" } })).toBe(0);
    expect(await stateOf()).toBe("failed");
  });

  it("a commander's publish, and a machine token's, are accepted", async () => {
    expect((await post(postPublishes, publish("cmdr-1"), { "x-reparo-user": COMMANDER.id })).status).toBe(200);
    const { secret } = await createToken(t.db, { name: "airflow", scope: "ingest" }, { actor: "test", actorRole: "admin", reason: "the orchestrator" });
    expect((await post(postPublishes, publish("airflow-1"), { authorization: `Bearer ${secret}` })).status).toBe(200);
    // Each is attributed in the ledger to who sent it.
    const rows = await t.db.publish.findMany({ where: { unitKey: "2026-08-23", submittedBy: { not: null } }, select: { submittedBy: true } });
    expect(rows.map((r) => r.submittedBy).sort()).toEqual(["demo-commander", "token:airflow"]);
  });
});

function completeFor(runId: string) {
  return {
    eventType: "COMPLETE",
    eventTime: "2026-08-24T03:00:00Z",
    producer: "https://example.com/manual",
    schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
    run: {
      runId,
      facets: {
        nominalTime: {
          _producer: "https://example.com/manual",
          _schemaURL: "https://openlineage.io/spec/facets/1-0-1/NominalTimeRunFacet.json",
          nominalStartTime: "2026-08-23T00:00:00Z",
        },
      },
    },
    job: { namespace: "orders", name: "stg_orders" },
    inputs: [],
    outputs: [
      {
        namespace: "warehouse",
        name: "stg_orders",
        outputFacets: {
          outputStatistics: {
            _producer: "https://example.com/manual",
            _schemaURL: "https://openlineage.io/spec/facets/1-0-2/OutputStatisticsOutputDatasetFacet.json",
            rowCount: 50,
          },
        },
      },
    ],
  };
}
