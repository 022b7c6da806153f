import { describe, expect, it } from "vitest";
import { describeOwnerFact, ownersOfNode, recipientsOf, type ConsumerOf, type ContactOf, type OwnerFact } from "./recipients";

// The demo's cross-pipeline closure (seed 001):
//
//   stg_orders (orders) ─► fct_orders ─► revenue_daily ─day→week─► weekly_export (finance, external) ◄─reads─ finance ledger
//                                  │              └─► revenue dashboard (consumer)
//                                  └─► order_features (ml) ◄─reads─ churn model team
type Ch = { kind: "email"; address: string };

describe("ownersOfNode", () => {
  it("takes the node's own owner first, with its source", () => {
    expect(ownersOfNode({ nodeId: "job:orders:stg", own: [{ name: " orders-team ", source: "declared" }], writers: [], pipelineOwner: "platform" })).toEqual([
      { name: "orders-team", source: "declared", via: "node" },
    ]);
  });

  it("a dataset nobody owns is owned by who writes it, each writer once", () => {
    const writers = [
      { name: "ml-team", source: "airflow" as const },
      { name: "ml-team", source: "openlineage" as const },
    ];
    expect(ownersOfNode({ nodeId: "dataset:ml:features", own: [], writers, pipelineOwner: "platform" })).toEqual([
      { name: "ml-team", source: "airflow", via: "writer" },
    ]);
  });

  it("else its pipeline's owner; nobody said: no owner at all", () => {
    expect(ownersOfNode({ nodeId: "dataset:a:b", own: [{ name: "  ", source: null }], writers: [], pipelineOwner: "finance-team" })).toEqual([
      { name: "finance-team", source: null, via: "pipeline" },
    ]);
    expect(ownersOfNode({ nodeId: "dataset:a:b", own: [], writers: [], pipelineOwner: null })).toEqual([]);
    expect(ownersOfNode({ nodeId: "dataset:a:b", own: [], writers: [], pipelineOwner: "" })).toEqual([]);
  });
});

describe("recipientsOf", () => {
  const owner = (name: string): OwnerFact[] => [{ name, source: "declared", via: "node" }];
  const owners = new Map<string, OwnerFact[]>([
    ["job:orders:stg_orders", owner("orders-team")],
    ["dataset:warehouse:revenue_daily", owner("orders-team")],
    ["job:finance:weekly_export", owner("finance-team")],
    ["dataset:finance:weekly_export", owner("finance-team")],
    ["dataset:ml:order_features", owner("ml-team")],
  ]);
  const teams = new Map<string, ContactOf<Ch>>([
    ["finance-team", { name: "finance-team", people: ["ana"], channel: { kind: "email", address: "fin@example.com" } }],
    ["ml-team", { name: "ml-team", people: [], channel: null }],
  ]);
  const consumers: ConsumerOf<Ch>[] = [
    {
      nodeId: "consumer:finance-ledger",
      name: "Finance ledger",
      kind: "export_recipient",
      reads: ["dataset:finance:weekly_export"],
      people: ["bo"],
      channel: null,
    },
    {
      nodeId: "consumer:revenue-dashboard",
      name: "Revenue dashboard",
      kind: "dashboard",
      reads: ["dataset:warehouse:revenue_daily"],
      people: [],
      channel: null,
    },
    { nodeId: "consumer:churn", name: "Churn model team", kind: "model_team", reads: ["dataset:ml:order_features"], people: [], channel: null },
  ];

  it("the demo closure: each owner once with the nodes it owns, then the consumers reading them", () => {
    const closure = ["job:orders:stg_orders", "dataset:warehouse:revenue_daily", "job:finance:weekly_export", "dataset:finance:weekly_export"];
    expect(recipientsOf(closure, owners, teams, consumers)).toEqual([
      {
        key: "owner:finance-team",
        name: "finance-team",
        role: "owner",
        people: ["ana"],
        channel: { kind: "email", address: "fin@example.com" },
        nodeIds: ["job:finance:weekly_export", "dataset:finance:weekly_export"],
      },
      {
        key: "owner:orders-team",
        name: "orders-team",
        role: "owner",
        people: [],
        channel: null,
        nodeIds: ["job:orders:stg_orders", "dataset:warehouse:revenue_daily"],
      },
      {
        key: "consumer:finance-ledger",
        name: "Finance ledger",
        role: "consumer",
        consumerKind: "export_recipient",
        people: ["bo"],
        channel: null,
        nodeIds: ["dataset:finance:weekly_export"],
      },
      {
        key: "consumer:revenue-dashboard",
        name: "Revenue dashboard",
        role: "consumer",
        consumerKind: "dashboard",
        people: [],
        channel: null,
        nodeIds: ["dataset:warehouse:revenue_daily"],
      },
    ]);
  });

  it("a consumer given as a node is a recipient of its own node; one reading nothing given is not", () => {
    const got = recipientsOf(["consumer:churn", "job:orders:stg_orders", "job:orders:stg_orders"], owners, teams, consumers);
    expect(got.map((r) => [r.key, r.nodeIds])).toEqual([
      ["owner:orders-team", ["job:orders:stg_orders"]],
      ["consumer:churn", ["consumer:churn"]],
    ]);
  });

  it("nothing given, or nothing owned: nobody", () => {
    expect(recipientsOf([], owners, teams, consumers)).toEqual([]);
    expect(recipientsOf(["dataset:x:unknown"], owners, teams, consumers)).toEqual([]);
  });
});

describe("describeOwnerFact", () => {
  it("says where each owner was found", () => {
    expect(describeOwnerFact({ name: "a", source: "declared", via: "node" })).toBe("declared");
    expect(describeOwnerFact({ name: "a", source: "openlineage", via: "node" })).toBe("OpenLineage facet");
    expect(describeOwnerFact({ name: "a", source: "airflow", via: "writer" })).toBe("owner of the task writing it (Airflow (OpenLineage facet))");
    expect(describeOwnerFact({ name: "a", source: null, via: "writer" })).toBe("owner of the task writing it");
    expect(describeOwnerFact({ name: "a", source: null, via: "pipeline" })).toBe("owner of its pipeline");
    expect(describeOwnerFact({ name: "a", source: null, via: "node" })).toBe("recorded (source not kept)");
  });
});
