import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as putDeclarations } from "@/app/api/v1/declarations/route";
import { POST as postLineage } from "@/app/api/v1/lineage/route";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { recipientsOfNodes } from "./recipients";

/**
 * The declaration file's people (issue "Who must know"): datasets' owners, teams with their
 * channel, consumers reading datasets — validated whole, stored and audited with the rest.
 */
type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
let t: TestDatabase;
const saved = process.env.DATABASE_URL;

const FILE = `
version: 1
datasets:
  - { namespace: finance, name: weekly_export, owner: finance-team }
tasks:
  - { namespace: finance, name: export_job, owner: finance-team }
teams:
  - name: finance-team
    people: [ana@example.com]
    channel: { kind: email, address: finance-ops@example.com }
  - name: ml-team
consumers:
  - id: finance-ledger
    name: Finance ledger
    kind: export_recipient
    reads: [{ namespace: finance, name: weekly_export }]
    people: [controller@example.com]
    channel: { kind: slack, url: "https://hooks.slack.com/services/T000/B000/XXXX" }
  - id: export-watcher
    kind: other
    reads: [{ namespace: finance, name: export_job, kind: task }]
`;

async function put(declarations: unknown, headers: Record<string, string> = { "x-reparo-user": "declarer" }) {
  const res = await (putDeclarations as Handler)(
    new Request("http://console.test/api/v1/declarations", {
      method: "PUT",
      body: JSON.stringify({ declarations, reason: "who must know" }),
      headers: { "content-type": "application/json", ...headers },
    }),
    { params: Promise.resolve({}) },
  );
  return { status: res.status, json: (await res.json()) as Record<string, unknown> & { message?: string } };
}

describe("owners, teams and consumers in the declaration file", () => {
  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
    process.env.DATABASE_URL = t.target.url;
    await t.db.user.create({ data: { id: "declarer", displayName: "Declarer", role: "operator" } });
  }, 120_000);
  afterAll(async () => {
    process.env.DATABASE_URL = saved;
    await t.drop();
  });

  it("bad input is refused whole, naming the field: nothing is written", async () => {
    const consumer = { id: "ledger", kind: "dashboard", reads: [{ namespace: "finance", name: "weekly_export" }] };
    const cases: [unknown, string][] = [
      [{ version: 1, consumers: [consumer, { ...consumer, kind: "other" }] }, "body.declarations.consumers.1.id: the consumer ledger is declared twice"],
      [{ version: 1, teams: [{ name: "a" }, { name: "a" }] }, "body.declarations.teams.1.name: the team a is declared twice"],
      [
        {
          version: 1,
          tasks: [{ namespace: "finance", name: "export_job", owner: "x" }],
          teams: [{ name: "a", channel: { kind: "slack", url: "https://u:p@hooks.example.com/x" } }],
        },
        "body.declarations.teams.0.channel.url: a Slack webhook's url must be an http(s) URL without credentials in it",
      ],
      [{ version: 1, consumers: [{ ...consumer, channel: { kind: "email", address: "not-an-address" } }] }, "body.declarations.consumers.0.channel.address: "],
      [{ version: 1, consumers: [{ ...consumer, kind: "spreadsheet" }] }, "body.declarations.consumers.0.kind: "],
      [{ version: 1, consumers: [{ ...consumer, id: "Finance Ledger" }] }, "body.declarations.consumers.0.id: a consumer's id"],
      [{ version: 1, consumers: [{ ...consumer, reads: [] }] }, "body.declarations.consumers.0.reads: a consumer reads at least one dataset or task"],
      [{ version: 1, datasets: [{ namespace: "finance", name: "weekly_export", owner: "" }] }, "body.declarations.datasets.0.owner: "],
    ];
    for (const [declarations, message] of cases) {
      const r = await put(declarations);
      expect(r.status, JSON.stringify(declarations)).toBe(400);
      expect(r.json.message!.startsWith(message), `${r.json.message} should start with ${message}`).toBe(true);
    }
    expect([await t.db.auditEntry.count(), await t.db.team.count(), await t.db.consumer.count(), await t.db.task.count()]).toEqual([0, 0, 0, 0]);
  });

  it("applied in one transaction with one audit entry; the recipients read it; applying again changes nothing", async () => {
    const r = await put(FILE);
    expect(r.status).toBe(200);
    const changes = r.json.changes as { nodeId: string; fact: string; after: unknown }[];
    expect(changes.map((c) => `${c.nodeId} ${c.fact}`)).toEqual([
      "job:finance:export_job owner",
      "dataset:finance:weekly_export owner",
      "team:finance-team team",
      "team:ml-team team",
      "consumer:finance-ledger consumer",
      "consumer:export-watcher consumer",
    ]);
    expect(changes.find((c) => c.fact === "consumer")!.after).toEqual({
      name: "Finance ledger",
      kind: "export_recipient",
      reads: ["dataset:finance:weekly_export"],
      people: ["controller@example.com"],
      // Described, never the hook's URL: the answer and the audit log are read by viewers.
      channel: "Slack https://hooks.slack.com/…",
    });
    const entries = await t.db.auditEntry.findMany({ where: { kind: "declarations.applied" } });
    expect(entries).toHaveLength(1);
    expect(entries[0]!.after).not.toContain("XXXX");
    expect(JSON.parse(entries[0]!.after).changes).toHaveLength(6);

    const dataset = await t.db.dataset.findUniqueOrThrow({ where: { nodeId: "dataset:finance:weekly_export" } });
    expect([dataset.owner, JSON.parse(dataset.factSources)]).toEqual(["finance-team", { owner: "declared" }]);
    const recipients = await recipientsOfNodes(t.db, ["dataset:finance:weekly_export", "job:finance:export_job"]);
    expect(recipients).toEqual([
      {
        key: "owner:finance-team",
        name: "finance-team",
        role: "owner",
        people: ["ana@example.com"],
        channel: { kind: "email", address: "finance-ops@example.com" },
        nodeIds: ["dataset:finance:weekly_export", "job:finance:export_job"],
      },
      {
        key: "consumer:export-watcher",
        name: "export-watcher",
        role: "consumer",
        consumerKind: "other",
        people: [],
        channel: null,
        nodeIds: ["job:finance:export_job"],
      },
      {
        key: "consumer:finance-ledger",
        name: "Finance ledger",
        role: "consumer",
        consumerKind: "export_recipient",
        people: ["controller@example.com"],
        channel: { kind: "slack", url: "https://hooks.slack.com/services/T000/B000/XXXX" },
        nodeIds: ["dataset:finance:weekly_export"],
      },
    ]);

    const again = await put(FILE);
    expect(again.json).toMatchObject({ applied: true, changes: [], unchanged: 6, auditSeq: null });
    const changed = await put({ version: 1, teams: [{ name: "ml-team", people: ["li"] }] });
    expect(changed.json.changes).toEqual([
      {
        nodeId: "team:ml-team",
        fact: "team",
        before: { name: "ml-team", people: [], channel: null },
        beforeSource: "declared",
        after: { name: "ml-team", people: ["li"], channel: null },
      },
    ]);
  });

  it("the OpenLineage ownership dataset facet gives a dataset its owner, under a declared one", async () => {
    const owned = (name: string) => ({ ownership: { owners: [{ name, type: "team" }] } });
    const res = await (postLineage as Handler)(
      new Request("http://console.test/api/v1/lineage", {
        method: "POST",
        body: JSON.stringify({
          eventType: "COMPLETE",
          eventTime: "2026-08-18T01:00:00Z",
          producer: "https://example.com/producer",
          schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
          run: { runId: "0190a3c2-0000-7000-8000-000000000001" },
          job: { namespace: "finance", name: "export_job" },
          inputs: [{ namespace: "finance", name: "ledger_in", facets: owned("ledger-team") }],
          outputs: [{ namespace: "finance", name: "weekly_export", facets: owned("someone-else") }],
        }),
        headers: { "content-type": "application/json", "x-reparo-user": "declarer" },
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(200);
    const owner = async (nodeId: string) => {
      const d = await t.db.dataset.findUniqueOrThrow({ where: { nodeId } });
      return [d.owner, JSON.parse(d.factSources).owner];
    };
    expect(await owner("dataset:finance:ledger_in")).toEqual(["ledger-team", "openlineage"]);
    expect(await owner("dataset:finance:weekly_export")).toEqual(["finance-team", "declared"]);
  });

  it("teams are declared by someone who holds in every namespace", async () => {
    await t.db.user.create({ data: { id: "finance-only", displayName: "Finance", role: "operator", namespaces: JSON.stringify(["finance"]) } });
    const teams = await put({ version: 1, teams: [{ name: "finance-team" }] }, { "x-reparo-user": "finance-only" });
    expect(teams.status).toBe(403);
    const outside = await put(
      { version: 1, consumers: [{ id: "x", kind: "other", reads: [{ namespace: "orders", name: "revenue" }] }] },
      { "x-reparo-user": "finance-only" },
    );
    expect([outside.status, outside.json.message]).toEqual([403, "finance-only holds in finance only; this file declares orders"]);
  });
});
