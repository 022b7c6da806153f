import crypto from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/roles";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { getIncident } from "../incidents/get-incident";
import { openIncident } from "../incidents/open-incident";
import { type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { setWarehouseConnection } from "../warehouses/warehouse-connections";
import { cleanUnit } from "./clean-unit";
import { previewPlan } from "./preview-plan";
import { recordScope } from "./record-scope";
import { OPERATOR, STG } from "./testing/journey-steps";

const PG = process.env.REPARO_TEST_PG_URL;
const ADMIN: Actor = { id: "ada", role: "admin", source: "cli", namespaces: [] };
const noOptions = { replay: [], parameterOverrides: {} };

/**
 * Cleaning a unit for real: the demo's stg_orders rows live in a PostgreSQL table of this
 * machine; cleaning 2026-08-17 deletes exactly that day's rows there, in one transaction that
 * counts them before and after, and the audit entry records both. Without a warehouse
 * connection the console refuses to record a cleaning it cannot see.
 */
describe.skipIf(!PG)("cleaning a unit in a real PostgreSQL warehouse", () => {
  let t: TestDatabase;
  let admin: pg.Client;
  let warehouse: pg.Client;
  const dbName = `reparo_wh_${crypto.randomBytes(4).toString("hex")}`;
  let id = "";
  beforeAll(async () => {
    t = await createDemoTestDatabase("sqlite");
    admin = new pg.Client({ connectionString: PG });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const url = new URL(PG!);
    url.pathname = `/${dbName}`;
    process.env.REPARO_SECRET_TEST_WAREHOUSE_URL = url.toString();
    warehouse = new pg.Client({ connectionString: url.toString() });
    await warehouse.connect();
    await warehouse.query(`CREATE SCHEMA analytics; CREATE TABLE analytics.stg_orders (order_id int, order_day date)`);
    // 2026-08-16 is whole (40 rows); 2026-08-17 holds the 20 rows a failed append left.
    await warehouse.query(`INSERT INTO analytics.stg_orders SELECT g, date '2026-08-16' FROM generate_series(1, 40) g`);
    await warehouse.query(`INSERT INTO analytics.stg_orders SELECT g, date '2026-08-17' FROM generate_series(1, 20) g`);
    const incident = await openIncident(
      { taskNodeId: STG, units: ["2026-08-17"], reason: "stg_orders failed twice on 2026-08-17" },
      OPERATOR,
      new Date(),
      t.db,
    );
    id = incident.id;
    await recordScope(id, { reason: "closure reviewed", addPairs: [] }, OPERATOR, new Date(), t.db);
  }, 180_000);
  afterAll(async () => {
    delete process.env.REPARO_SECRET_TEST_WAREHOUSE_URL;
    await warehouse?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin?.end();
    await t?.drop();
  });

  it("without a warehouse connection: the rows are unknown, cleaning is refused and nothing is recorded", async () => {
    await setWarehouseConnection("warehouse", { connection: { kind: "none" }, reason: "the demo table is not where the rows are" }, ADMIN, new Date(), t.db);
    const blocker = (await previewPlan(id, noOptions, new Date(), t.db)).blockers.find((b) => b.code === "append_unresolved")!;
    expect(blocker.resolution).toMatchObject({
      rowsInUnits: [{ unitKey: "2026-08-17", rows: null }],
      cleanable: { possible: false, why: expect.stringContaining("no warehouse connection") },
    });
    const marks = await t.db.unitMark.count();
    await expect(cleanUnit(id, { taskNodeId: STG, unitKey: "2026-08-17", reason: "try" }, OPERATOR, new Date(), t.db)).rejects.toMatchObject({
      problem: "refused",
    });
    expect(await t.db.unitMark.count()).toBe(marks);
    expect((await warehouse.query("SELECT count(*)::int AS n FROM analytics.stg_orders")).rows[0].n).toBe(60);
  });

  it("connected: the blocker shows the rows PostgreSQL counts and the delete it will run", async () => {
    const view = await setWarehouseConnection(
      "warehouse",
      {
        connection: {
          kind: "postgresql",
          url: { env: "REPARO_SECRET_TEST_WAREHOUSE_URL" },
          tables: { stg_orders: { table: "analytics.stg_orders", unitColumn: "order_day" } },
        },
        reason: "the warehouse namespace is our PostgreSQL",
      },
      ADMIN,
      new Date(),
      t.db,
    );
    expect(view).toMatchObject({ connection: { kind: "postgresql" }, secret: { name: "env:REPARO_SECRET_TEST_WAREHOUSE_URL", readable: true } });
    expect(JSON.stringify(await t.db.warehouseConnection.findMany())).not.toContain(dbName);
    const blocker = (await previewPlan(id, noOptions, new Date(), t.db)).blockers.find((b) => b.code === "append_unresolved")!;
    expect(blocker.resolution).toMatchObject({
      rowsInUnits: [{ unitKey: "2026-08-17", rows: 20 }],
      cleanable: { possible: true, statement: `DELETE FROM "analytics"."stg_orders" WHERE "order_day" >= $1::timestamptz AND "order_day" < $2::timestamptz` },
    });
  });

  it("clean: exactly the unit's rows are deleted there, counted before and after, and the audit entry says so", async () => {
    const result = await cleanUnit(
      id,
      { taskNodeId: STG, unitKey: "2026-08-17", reason: "remove the 20 partial rows before re-running the append" },
      OPERATOR,
      new Date(),
      t.db,
    );
    expect(result).toMatchObject({ rowsRemoved: 20, rowsAfter: 0, warehouse: "postgresql" });
    const left = await warehouse.query<{ day: string; n: number }>(
      "SELECT order_day::text AS day, count(*)::int AS n FROM analytics.stg_orders GROUP BY 1 ORDER BY 1",
    );
    expect(left.rows).toEqual([{ day: "2026-08-16", n: 40 }]);
    const entry = (await getIncident(id, t.db)).timeline.at(-1)!;
    expect(entry).toMatchObject({
      kind: "unit.deduplicated",
      before: { rows: 20 },
      after: { rows: 0, warehouse: "postgresql", params: ["2026-08-17T00:00:00.000Z", "2026-08-18T00:00:00.000Z"] },
    });
    // The blocker is lifted by the measured cleaning; the demo's own table was not touched.
    const plan = await previewPlan(id, noOptions, new Date(), t.db);
    expect(plan.blockers.filter((b) => b.code === "append_unresolved")).toEqual([]);
    const stg = await t.db.dataset.findUnique({ where: { nodeId: "dataset:warehouse:stg_orders" } });
    expect(await t.db.warehouseRow.count({ where: { datasetId: stg!.id, unitKey: "2026-08-17" } })).toBe(20);
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true });
  });

  it("a warehouse that cannot be reached is an error, and nothing is recorded", async () => {
    process.env.REPARO_SECRET_TEST_WAREHOUSE_URL = "postgresql://postgres@127.0.0.1:1/nothing";
    const audits = await t.db.auditEntry.count();
    await expect(cleanUnit(id, { taskNodeId: STG, unitKey: "2026-08-16", reason: "try a whole day" }, OPERATOR, new Date(), t.db)).rejects.toThrow();
    expect(await t.db.auditEntry.count()).toBe(audits);
  });
});
