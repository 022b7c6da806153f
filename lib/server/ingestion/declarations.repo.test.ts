import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUT as putDeclarations } from "@/app/api/v1/declarations/route";
import { POST as postLineage } from "@/app/api/v1/lineage/route";
import { createToken } from "../access/manage-access";
import { listTasks } from "../repositories/lineage/catalog-reads";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { importDbtArtifacts } from "./import-dbt-artifacts";
import { DATASETS, providerStream, TASKS } from "./testing/provider-stream";
import { fixtureText } from "./testing/fixtures";
import { DbtImportBodySchema } from "@/lib/contracts/ingestion-dbt";

/**
 * The team's declaration file (PUT /api/v1/declarations, `npm run declare`): what OpenLineage does
 * not carry, applied in one transaction or shown as a difference first, with where each fact
 * came from before — and a declared fact is not overwritten by a lesser source afterwards.
 */
type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
let t: TestDatabase;
const saved = process.env.DATABASE_URL;

const FILE = `
version: 1
datasets:
  - namespace: postgres://127.0.0.1:5432
    name: warehouse.public.orders_raw
    partitions: { kind: time, grain: day, start: "2026-08-01", end: "2026-08-31", timezone: UTC }
  - namespace: postgres://127.0.0.1:5432
    name: warehouse.public.orders_clean
    partitions: { kind: time, grain: day, start: "2026-08-01", end: "2026-08-31", timezone: UTC }
tasks:
  - namespace: airflow-lab
    name: orders_etl.extract
    writeMode: replace
    sideEffect: none
  - namespace: airflow-lab
    name: orders_etl.transform
    writeMode: append
    sideEffect: none
    dependsOnOwnPast: false
`;

async function call(handler: Handler, body: unknown, headers: Record<string, string> = { "x-reparo-user": "ingest-bot" }) {
  const res = await handler(
    new Request("http://console.test/api/v1/declarations", {
      method: body === undefined ? "GET" : "PUT",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", ...headers },
    }),
    { params: Promise.resolve({}) },
  );
  return { status: res.status, json: (await res.json()) as Record<string, unknown> & { message?: string } };
}

describe("the declaration file", () => {
  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
    process.env.DATABASE_URL = t.target.url;
    await t.db.user.create({ data: { id: "ingest-bot", displayName: "Ingestion", role: "operator" } });
    const res = await postLineage(
      new Request("http://console.test/api/v1/lineage", {
        method: "POST",
        body: JSON.stringify(providerStream()),
        headers: { "content-type": "application/json", "x-reparo-user": "ingest-bot" },
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    process.env.DATABASE_URL = saved;
    await t.drop();
  });

  it("a dry run shows each change with what it was and where that came from, and writes nothing", async () => {
    const audit = await t.db.auditEntry.count();
    const r = await call(putDeclarations, { declarations: FILE, reason: "orders_etl's facts", dryRun: true });
    expect(r.status).toBe(200);
    expect(r.json.applied).toBe(false);
    const changes = r.json.changes as { nodeId: string; fact: string; before: unknown; beforeSource: string | null; after: unknown }[];
    expect(changes.map((c) => `${c.nodeId} ${c.fact}: ${JSON.stringify(c.before)} (${c.beforeSource}) → ${JSON.stringify(c.after)}`)).toEqual([
      `${DATASETS.raw} partitions: null (null) → {"kind":"time","grain":"day","start":"2026-08-01","end":"2026-08-31","timezone":"UTC"}`,
      `${DATASETS.clean} partitions: null (null) → {"kind":"time","grain":"day","start":"2026-08-01","end":"2026-08-31","timezone":"UTC"}`,
      `${TASKS.extract} writeMode: null (null) → "replace"`,
      `${TASKS.extract} sideEffect: null (null) → "none"`,
      `${TASKS.transform} writeMode: null (null) → "append"`,
      `${TASKS.transform} sideEffect: null (null) → "none"`,
      // Airflow's facet already said depends_on_past false: declared now, same value, better source.
      `${TASKS.transform} dependsOnOwnPast: false (airflow) → false`,
    ]);
    expect(await t.db.auditEntry.count()).toBe(audit);
    expect((await listTasks(t.db)).find((x) => x.nodeId === TASKS.extract)!.writeMode).toBeNull();
  });

  it("applied: one transaction, one audit entry; the stored runs fold again under the partitions; applying again changes nothing", async () => {
    const r = await call(putDeclarations, { declarations: FILE, reason: "orders_etl's facts" });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ applied: true, unchanged: 0, refolded: { runs: 126 } });
    const entry = await t.db.auditEntry.findFirstOrThrow({ where: { kind: "declarations.applied" } });
    expect(entry.actor).toBe("ingest-bot");
    const tasks = await listTasks(t.db);
    expect(tasks.find((x) => x.nodeId === TASKS.transform)).toMatchObject({ writeMode: "append", sideEffect: "none", dependsOnOwnPast: false });
    const again = await call(putDeclarations, { declarations: FILE, reason: "orders_etl's facts" });
    expect(again.json).toMatchObject({ applied: true, changes: [], unchanged: 7, auditSeq: null });
    expect(await t.db.auditEntry.count({ where: { kind: "declarations.applied" } })).toBe(1);
  });

  it("a declared fact outranks what dbt's manifest says later", async () => {
    const manifest = JSON.parse(fixtureText("dbt/ol_fixture_jaffle_postgres_run/manifest.json"));
    const id = "job:default:model.jaffle_shop.orders";
    await call(putDeclarations, {
      declarations: { version: 1, tasks: [{ namespace: "default", name: "model.jaffle_shop.orders", writeMode: "append" }] },
      reason: "it appends, whatever its config says",
    });
    await importDbtArtifacts(t.db, DbtImportBodySchema.parse({ manifest }));
    expect((await listTasks(t.db)).find((x) => x.nodeId === id)!.writeMode).toBe("append");
    const stored = await t.db.task.findUniqueOrThrow({ where: { nodeId: id }, select: { factSources: true } });
    expect(JSON.parse(stored.factSources)).toMatchObject({ writeMode: "declared" });
    // A model the file does not name takes the manifest's word, recorded as dbt's.
    const customers = await t.db.task.findUniqueOrThrow({
      where: { nodeId: "job:default:model.jaffle_shop.customers" },
      select: { writeMode: true, factSources: true },
    });
    expect([customers.writeMode, JSON.parse(customers.factSources).writeMode]).toEqual(["replace", "dbt"]);
  });

  it("bad files are a 400 naming the place in the file; nothing is written", async () => {
    const audit = await t.db.auditEntry.count();
    const cases: [unknown, string][] = [
      ["version: 1\ntasks: [ {", "body.declarations: not YAML"],
      ["version: 2", "body.declarations.version: "],
      [{ version: 1, tasks: [{ namespace: "a", name: "b", writeMode: "upsert" }] }, "body.declarations.tasks.0.writeMode: "],
      [{ version: 1, tasks: [{ namespace: "a", name: "b" }] }, "body.declarations.tasks.0: declare at least one of"],
      [
        {
          version: 1,
          datasets: [{ namespace: "a", name: "b", partitions: { kind: "time", grain: "day", start: "2026-08-31", end: "2026-08-01", timezone: "UTC" } }],
        },
        "body.declarations.datasets.0.partitions.end: is before start",
      ],
      [
        { version: 1, tasks: [{ namespace: "a", name: "b\u202e", owner: "x" }] },
        "body.declarations.tasks.0.name: must not contain bidirectional control characters",
      ],
    ];
    for (const [declarations, message] of cases) {
      const r = await call(putDeclarations, { declarations, reason: "a bad file" });
      expect(r.status, JSON.stringify(declarations)).toBe(400);
      expect(r.json.message!.startsWith(message), `${r.json.message} should start with ${message}`).toBe(true);
    }
    expect(await t.db.auditEntry.count()).toBe(audit);
  });

  it("tokens: a declare token may, an ingest token may not; a namespace-limited one declares only there", async () => {
    const declare = (await createToken(t.db, { name: "ci-declare", scope: "declare" }, { actor: "test", actorRole: "admin", reason: "the team's CI" })).secret;
    const ingest = (await createToken(t.db, { name: "ci-ingest", scope: "ingest" }, { actor: "test", actorRole: "admin", reason: "the producer" })).secret;
    const limited = (
      await createToken(t.db, { name: "ci-meters", scope: "declare", namespaces: ["meters"] }, { actor: "test", actorRole: "admin", reason: "meters only" })
    ).secret;
    const file = { version: 1, tasks: [{ namespace: "airflow-lab", name: "orders_etl.load", writeMode: "replace" }] };
    expect((await call(putDeclarations, { declarations: file, reason: "by CI" }, { authorization: `Bearer ${ingest}` })).status).toBe(403);
    const outside = await call(putDeclarations, { declarations: file, reason: "by CI" }, { authorization: `Bearer ${limited}` });
    expect([outside.status, outside.json.message]).toEqual([403, "token:ci-meters holds in meters only; this file declares airflow-lab"]);
    const ok = await call(putDeclarations, { declarations: file, reason: "by CI" }, { authorization: `Bearer ${declare}` });
    expect(ok.status).toBe(200);
    expect((await listTasks(t.db)).find((x) => x.nodeId === TASKS.load)!.writeMode).toBe("replace");
  });
});
