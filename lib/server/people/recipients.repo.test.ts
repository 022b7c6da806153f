import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClosureQuerySchema } from "@/lib/contracts/lineage";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { computeClosure } from "../lineage/compute-closure";
import { recipientsOfNodes } from "./recipients";
import { nodeOwnership, WHOLE_CATALOG_FROM } from "../repositories/people/node-ownership";
import { getClosurePeople, getNodePeople } from "./get-node-people";
import { errorResponse } from "../http/route";

const NOW = new Date("2026-11-29T12:00:00Z");

describe.each(providersUnderTest())("who must know, on the demo world (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
  }, 120_000);
  afterAll(async () => t.drop());

  it("the closure of stg_orders 2026-08-17 reaches the finance export's and the ML feature pipeline's owners", async () => {
    const closure = await computeClosure(ClosureQuerySchema.parse({ nodeId: "job:orders:stg_orders", units: "2026-08-17" }), NOW, t.db);
    const recipients = await recipientsOfNodes(
      t.db,
      closure.nodes.map((n) => n.nodeId),
    );
    const owners = recipients.filter((r) => r.role === "owner");
    expect(owners.map((r) => [r.key, r.nodeIds.length])).toEqual([
      ["owner:finance-team", 2],
      ["owner:ml-team", 2],
      ["owner:orders-team", 10],
    ]);
    expect(owners.find((r) => r.name === "finance-team")).toMatchObject({
      role: "owner",
      channel: null,
      nodeIds: ["job:finance:weekly_revenue_export", "dataset:finance:weekly_revenue_export"],
    });
    expect(owners.find((r) => r.name === "ml-team")?.nodeIds).toEqual(["job:ml:build_order_features", "dataset:ml:order_features"]);
    // The demo declares its teams (people, no channel: the default webhook) and who reads past the last datasets.
    expect(owners.find((r) => r.name === "finance-team")?.people).toEqual(["Ana Silva (finance controller)"]);
    expect(recipients.filter((r) => r.role === "consumer")).toEqual([
      {
        key: "consumer:churn-model-team",
        name: "Churn model team",
        role: "consumer",
        consumerKind: "model_team",
        people: ["Churn model owners"],
        channel: null,
        nodeIds: ["dataset:ml:order_features"],
      },
      {
        key: "consumer:finance-ledger",
        name: "Finance ledger (export recipient)",
        role: "consumer",
        consumerKind: "export_recipient",
        people: ["Accounts payable"],
        channel: null,
        nodeIds: ["dataset:finance:weekly_revenue_export"],
      },
      {
        key: "consumer:revenue-dashboard",
        name: "Revenue dashboard",
        role: "consumer",
        consumerKind: "dashboard",
        people: ["Executive team"],
        channel: null,
        nodeIds: ["dataset:warehouse:revenue_daily"],
      },
    ]);
  });

  it("a node's people: its owners with where each was found, and who reads it", async () => {
    expect(await getNodePeople("dataset:warehouse:revenue_daily", t.db)).toEqual({
      nodeId: "dataset:warehouse:revenue_daily",
      owners: [{ name: "orders-team", from: "owner of the task writing it (declared)" }],
      readBy: [
        {
          key: "consumer:revenue-dashboard",
          name: "Revenue dashboard",
          role: "consumer",
          consumerKind: "dashboard",
          people: ["Executive team"],
          channel: null,
          nodeIds: ["dataset:warehouse:revenue_daily"],
        },
      ],
    });
    const closure = await getClosurePeople(ClosureQuerySchema.parse({ nodeId: "job:orders:stg_orders", units: "2026-08-17" }), NOW, t.db);
    expect(closure.recipients.map((r) => r.key)).toEqual([
      "owner:finance-team",
      "owner:ml-team",
      "owner:orders-team",
      "consumer:churn-model-team",
      "consumer:finance-ledger",
      "consumer:revenue-dashboard",
    ]);
  });

  it("the people of a closure nobody waits for any more stop (499)", async () => {
    const gone = new AbortController();
    gone.abort();
    const q = ClosureQuerySchema.parse({ nodeId: "job:orders:stg_orders", units: "2026-08-17" });
    const stopped = await getClosurePeople(q, NOW, t.db, gone.signal).catch(errorResponse);
    expect((stopped as Response).status).toBe(499);
    // Still waited for: the same answer as without a signal.
    expect((await getClosurePeople(q, NOW, t.db, new AbortController().signal)).recipients.map((r) => r.key)).toHaveLength(6);
  });

  it("asked about many nodes, the whole catalog read finds what the chunked reads find", async () => {
    const closure = await computeClosure(ClosureQuerySchema.parse({ nodeId: "job:orders:stg_orders", units: "2026-08-17" }), NOW, t.db);
    const ids = closure.nodes.map((n) => n.nodeId);
    const byNode = (list: Awaited<ReturnType<typeof nodeOwnership>>) => [...list].sort((a, b) => a.nodeId.localeCompare(b.nodeId, "en"));
    const chunked = byNode(await nodeOwnership(t.db, ids));
    // Past the threshold with ids the catalog does not hold: they are left out, as in chunks.
    const padding = Array.from({ length: WHOLE_CATALOG_FROM }, (_, i) => `dataset:nowhere:t${i}`);
    const whole = byNode(await nodeOwnership(t.db, [...ids, ...padding]));
    expect(whole).toEqual(chunked);
    expect(whole).toHaveLength(14);
    expect(whole.find((o) => o.nodeId === "dataset:warehouse:revenue_daily")).toMatchObject({
      own: [],
      writers: [{ name: "orders-team", source: "declared" }],
    });
    const gone = new AbortController();
    gone.abort();
    await expect(nodeOwnership(t.db, [...ids, ...padding], gone.signal)).rejects.toThrow();
  });

  it("nothing asked, or nodes the catalog does not hold: nobody", async () => {
    expect(await recipientsOfNodes(t.db, [])).toEqual([]);
    expect(await recipientsOfNodes(t.db, ["dataset:nowhere:nothing", "not a node id"])).toEqual([]);
  });
});
