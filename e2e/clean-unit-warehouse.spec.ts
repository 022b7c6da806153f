import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { expect, test } from "./fixtures";
import { ensureAdmin, resetDemo } from "./reset-demo";
import { E2E_SECRET_DIR } from "../playwright.config";

// Cleaning an appended unit for real, in the browser: the demo's stg_orders rows live in a
// PostgreSQL table of this machine. The blocker shows the rows PostgreSQL counts and the DELETE
// it will run; confirming deletes exactly that day's rows there and the audit entry records the
// measured counts before and after.

test.describe.configure({ mode: "serial" });

const PG = process.env.REPARO_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const STG = "job:orders:stg_orders";
const dbName = `reparo_e2e_wh_${crypto.randomBytes(4).toString("hex")}`;
let admin: pg.Client;
let warehouse: pg.Client;
let urlFile = "";

test.beforeAll(async () => {
  resetDemo();
  ensureAdmin("e2e-admin", "connects the warehouse");
  admin = new pg.Client({ connectionString: PG });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(PG);
  url.pathname = `/${dbName}`;
  warehouse = new pg.Client({ connectionString: url.toString() });
  await warehouse.connect();
  await warehouse.query("CREATE SCHEMA analytics; CREATE TABLE analytics.stg_orders (order_id int, order_day date)");
  await warehouse.query("INSERT INTO analytics.stg_orders SELECT g, date '2026-08-16' FROM generate_series(1, 40) g");
  await warehouse.query("INSERT INTO analytics.stg_orders SELECT g, date '2026-08-17' FROM generate_series(1, 23) g");
  // The connection string is a secret the console reads from a file; Reparo stores only its name.
  fs.mkdirSync(E2E_SECRET_DIR, { recursive: true });
  urlFile = path.join(fs.mkdtempSync(path.join(E2E_SECRET_DIR, "warehouse-")), "url");
  fs.writeFileSync(urlFile, `${url.toString()}\n`);
});
test.afterAll(async () => {
  await warehouse?.end();
  await admin?.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin?.end();
  resetDemo();
});

test("clean a unit in a real PostgreSQL table: the rows counted there, the delete shown, the counts on the record", async ({ page, request }) => {
  const put = await request.put("/api/v1/warehouses/warehouse", {
    headers: { "x-reparo-user": "e2e-admin" },
    data: {
      connection: { kind: "postgresql", url: { file: urlFile }, tables: { stg_orders: { table: "analytics.stg_orders", unitColumn: "order_day" } } },
      reason: "the warehouse namespace is our PostgreSQL",
    },
  });
  expect(put.status(), await put.text()).toBe(200);
  const incident = await (
    await request.post("/api/v1/incidents", { data: { taskNodeId: STG, units: ["2026-08-17"], reason: "stg_orders failed twice on 2026-08-17" } })
  ).json();
  expect((await request.post(`/api/v1/incidents/${incident.id}/scope`, { data: { reason: "closure reviewed", addPairs: [] } })).ok()).toBe(true);

  await page.goto(`/incidents/${incident.id}`);
  await page.getByLabel(/Review note/).fill("append task noted");
  await page.getByRole("button", { name: "Record review →" }).click();
  const blocker = page.getByTestId("blocker-append_unresolved");
  await expect(blocker.getByTestId("append-unit-2026-08-17").getByTestId("rows-in-unit")).toHaveText("23 rows already in the unit");
  await expect(blocker).toContainText(`DELETE FROM "analytics"."stg_orders" WHERE "order_day" >= $1::timestamptz AND "order_day" < $2::timestamptz`);
  await page.screenshot({ path: path.join(process.env.E2E_OUTPUT_DIR ?? "test-results", "warehouse-1-blocker.png"), fullPage: true });
  await page.getByTestId("clean-2026-08-17-open").click();
  await page.getByTestId("clean-2026-08-17").getByLabel(/Why/).fill("remove the 23 partial rows before re-running the append");
  await page
    .getByTestId("clean-2026-08-17")
    .getByRole("button", { name: /^Confirm:/ })
    .click();
  await expect(page.getByTestId("append-unit-2026-08-17")).toHaveCount(0);
  // The append blocker is lifted; what still blocks is the scope's own finding — running_balance
  // waits on stg_orders 2026-08-10 and 2026-08-23, which this repair leaves out (root cause first).
  await expect(page.getByTestId("blocker-append_unresolved")).toHaveCount(0);
  await expect(page.getByTestId("blocker-waits_on_upstream")).toBeVisible();

  // Exactly the unit's rows are gone, there.
  const left = await warehouse.query<{ day: string; n: number }>(
    "SELECT order_day::text AS day, count(*)::int AS n FROM analytics.stg_orders GROUP BY 1 ORDER BY 1",
  );
  expect(left.rows).toEqual([{ day: "2026-08-16", n: 40 }]);
  // The timeline shows the measured counts.
  const audit = await (await request.get(`/api/v1/audit?incidentId=${incident.id}&limit=20`)).json();
  const entry = audit.entries.find((e: { kind: string }) => e.kind === "unit.deduplicated");
  expect(entry).toMatchObject({ before: { rows: 23 }, after: { rows: 0, warehouse: "postgresql" } });
  expect(JSON.stringify(audit)).not.toContain(dbName);
});
