import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";

const statements = (provider: string) =>
  fs
    .readFileSync(path.resolve(__dirname, `../../../prisma/${provider}/migrations/20261201230000_demo_connections/migration.sql`), "utf8")
    .split(/;\s*\n/)
    .map((s) => s.replace(/^--.*$/gm, "").trim())
    .filter(Boolean);

/**
 * A demo world loaded before connections existed gets, from the migration, the connections a
 * fresh demo load gives its pipelines (so its repairs still run on the demo's executor) — and a
 * pipeline the demo's executor never ran, or one already connected elsewhere, is left alone.
 */
describe.each(providersUnderTest())("the demo-connections migration (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
  }, 180_000);
  afterAll(async () => t?.drop());

  it("restores what a demo load connects, and touches nothing else", async () => {
    const fresh = (await t.db.orchestratorConnection.findMany({ orderBy: { pipelineId: "asc" } })).map((c) => [c.pipelineId, c.kind]);
    expect(fresh.length).toBeGreaterThan(0);
    const freshWarehouses = (await t.db.warehouseConnection.findMany({ orderBy: { namespace: "asc" } })).map((w) => [w.namespace, w.kind]);
    const real = await t.db.pipeline.create({ data: { namespace: "airflow-prod", name: "airflow-prod" } });
    const connected = (await t.db.pipeline.findFirstOrThrow({ where: { namespace: "ml" } })).id;
    // As a database loaded before the change: no connections at all, but ml is pointed at Airflow since.
    await t.db.orchestratorConnection.deleteMany();
    await t.db.warehouseConnection.deleteMany();
    await t.db.orchestratorConnection.create({
      data: { pipelineId: connected, kind: "airflow", config: '{"kind":"airflow"}', updatedBy: "ada", updatedAt: new Date() },
    });
    for (const sql of statements(provider)) await t.db.$executeRawUnsafe(sql);
    const after = await t.db.orchestratorConnection.findMany({ orderBy: { pipelineId: "asc" } });
    expect(after.map((c) => [c.pipelineId, c.kind])).toEqual(fresh.map(([id, kind]) => [id, id === connected ? "airflow" : kind]));
    expect(after.find((c) => c.pipelineId === real.id)).toBeUndefined();
    expect(after.filter((c) => c.kind === "local").every((c) => c.config === '{"kind":"local"}' && c.updatedBy === "migration")).toBe(true);
    expect((await t.db.warehouseConnection.findMany({ orderBy: { namespace: "asc" } })).map((w) => [w.namespace, w.kind])).toEqual(freshWarehouses);
  });
});
