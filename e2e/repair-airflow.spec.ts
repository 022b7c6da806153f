import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startFakeAirflow, type FakeAirflow, type FakeTaskInstance } from "../test/peers/fake-airflow";
import { E2E_DATABASE_URL, E2E_SECRET_DIR } from "../playwright.config";
import { expect, test } from "./fixtures";
import { ensureAdmin, resetDemo } from "./reset-demo";

// The demo incident repaired through the Airflow adapter, in the browser: an admin points the
// orders and ml pipelines at an Airflow (a fake one whose every request and answer is checked
// against Airflow's published REST API v2 document); the commander reviews Airflow's own dry
// run against the plan, dispatches, and watches the waves cleared in order, live; Airflow's
// tasks report back as OpenLineage events, the way its OpenLineage provider does, and the
// repair validates from the ledger.

test.describe.configure({ mode: "serial" });

const STG = "job:orders:stg_orders";
const days = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `2026-08-${String(from + i).padStart(2, "0")}T00:00:00.000Z`);
const ORDERS = ["land_raw_orders", "snapshot_customers", "stg_orders", "fct_orders", "revenue_daily", "running_balance", "refresh_executive_dashboard"];
/** What each demo task writes (its OpenLineage output). */
const OUTPUT: Record<string, [string, string]> = {
  stg_orders: ["warehouse", "stg_orders"],
  fct_orders: ["warehouse", "fct_orders"],
  revenue_daily: ["warehouse", "revenue_daily"],
  running_balance: ["warehouse", "running_balance"],
  refresh_executive_dashboard: ["bi", "executive_dashboard"],
  build_order_features: ["ml", "order_features"],
};
const BASE = `http://127.0.0.1:${process.env.E2E_PORT ?? 3100}`;

let airflow: FakeAirflow;
/** Airflow's OpenLineage transport token (a producer token, as production mode issues one). */
let producerToken = "";
let passwordFile = "";
const sourceCounts = new Map<string, number>();
const reportErrors: string[] = [];

test.beforeAll(async () => {
  resetDemo();
  ensureAdmin("e2e-admin", "sets the orchestrator connections");
  producerToken = execFileSync(
    "npx",
    ["tsx", "scripts/tokens.ts", "create", `airflow-e2e-${Date.now()}`, "--scope", "ingest", "--reason", "Airflow's OpenLineage transport"],
    {
      cwd: path.resolve(__dirname, ".."),
      env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
      encoding: "utf8",
    },
  )
    .trim()
    .split("\n")
    .at(-1)!
    .trim();
  fs.mkdirSync(E2E_SECRET_DIR, { recursive: true });
  passwordFile = path.join(fs.mkdtempSync(path.join(E2E_SECRET_DIR, "airflow-")), "password");
  fs.writeFileSync(passwordFile, "e2e-airflow-password\n");
  airflow = await startFakeAirflow({
    version: "3.2.1",
    users: { reparo: "e2e-airflow-password" },
    dags: {
      orders: {
        tasks: ORDERS.map((taskId) => ({ taskId })),
        runs: [...days(1, 25).map((logicalDate) => ({ logicalDate })), { logicalDate: "2026-08-20T12:00:00.000Z", runId: "manual__2026-08-20T12:00:00" }],
      },
      ml: { tasks: [{ taskId: "build_order_features" }], runs: days(1, 25).map((logicalDate) => ({ logicalDate })) },
    },
    // Each task instance that succeeds reports its run as OpenLineage (Airflow's provider does).
    onFinished: (ti) =>
      reportLineage(ti).catch((e: unknown) => {
        reportErrors.push(String(e));
        throw e;
      }),
  });
});
test.afterAll(async () => {
  await airflow?.close();
  resetDemo();
});

/** What the task really wrote: the source count where there is one (fct_orders has a row per staged order), else a dozen aggregate rows. */
const rowsOf = (dataset: string, unit: string) =>
  sourceCounts.get(`${dataset} ${unit}`) ?? (dataset === "fct_orders" ? sourceCounts.get(`stg_orders ${unit}`) : undefined) ?? 12;

async function reportLineage(ti: FakeTaskInstance): Promise<void> {
  if (ti.state !== "success" || ti.runId.startsWith("manual__")) return;
  const [namespace, name] = OUTPUT[ti.taskId]!;
  const unit = ti.logicalDate.slice(0, 10);
  const at = new Date().toISOString();
  const base = {
    eventTime: at,
    producer: "https://github.com/apache/airflow/tree/providers-openlineage",
    schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
    run: { runId: crypto.randomUUID() },
    job: { namespace: ti.dagId, name: ti.taskId },
  };
  const output = {
    namespace,
    name,
    outputFacets: {
      outputStatistics: {
        _producer: "e2e",
        _schemaURL: "https://openlineage.io/spec/facets/1-0-2/OutputStatisticsOutputDatasetFacet.json",
        rowCount: rowsOf(name, unit),
      },
      subset: {
        _producer: "e2e",
        _schemaURL: "https://openlineage.io/spec/facets/1-0-0/BaseSubsetDatasetFacet.json",
        outputCondition: { type: "partition", partitions: [{ identifier: unit, dimensions: { day: unit } }] },
      },
    },
  };
  const res = await fetch(`${BASE}/api/v1/lineage`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${producerToken}` },
    body: JSON.stringify([
      { ...base, eventType: "START", eventTime: at },
      { ...base, eventType: "COMPLETE", outputs: [output] },
    ]),
  });
  const answer = await res.json();
  if (res.status !== 200 || answer.written.publishes !== 1) throw new Error(`lineage not taken as a publish: ${res.status} ${JSON.stringify(answer)}`);
}

test("the demo incident repaired in Airflow: dry-run difference, waves cleared in order, progress live, validated, every request audited", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  // An admin points the pipelines at Airflow; the password is a file the console reads, never stored.
  for (const pipeline of ["orders", "ml"]) {
    const res = await request.put(`/api/v1/pipelines/${pipeline}/orchestrator`, {
      headers: { "x-reparo-user": "e2e-admin" },
      data: {
        connection: { kind: "airflow", baseUrl: airflow.url, username: "reparo", credentials: { file: passwordFile } },
        reason: "repairs run in our Airflow",
      },
    });
    expect(res.status(), await res.text()).toBe(200);
    expect(await res.json()).toMatchObject({ connection: { kind: "airflow" }, secret: { name: `file:${passwordFile}`, readable: true } });
  }
  // The incident, scoped, cleaned and planned (the browser walk of these steps is repair-journey.spec.ts).
  const post = async (p: string, data: unknown) => {
    const res = await request.post(p, { data });
    expect(res.ok(), `${p}: ${await res.text()}`).toBe(true);
    return res.json();
  };
  const { id } = await post("/api/v1/incidents", { taskNodeId: STG, units: ["2026-08-17"], reason: "stg_orders failed twice on 2026-08-17" });
  await post(`/api/v1/incidents/${id}/scope`, {
    reason: "running_balance cannot be rebuilt soundly without 2026-08-10 and 2026-08-23",
    addPairs: [{ taskNodeId: STG, units: ["2026-08-10", "2026-08-23"] }],
  });
  await post(`/api/v1/incidents/${id}/preconditions`, { reason: "append task and sequential balance noted" });
  for (const unitKey of ["2026-08-10", "2026-08-17", "2026-08-23"])
    await post(`/api/v1/incidents/${id}/clean-unit`, { taskNodeId: STG, unitKey, reason: "remove the partial append" });

  // The Plan step: Airflow's own dry run against the plan, reviewed before the plan is confirmed.
  await page.goto(`/incidents/${id}`);
  await page.getByRole("link", { name: "4. Plan" }).click();
  await expect(page).toHaveURL(new RegExp(`/incidents/${id}/plan$`));
  await expect(page.getByTestId("wave-0")).toContainText("stg_orders");
  await page.getByTestId("dry-run-button").click();
  const dry = page.getByTestId("dry-run-result");
  await expect(dry).toContainText("16 requests will be sent, in 4 waves.");
  await expect(page.getByTestId("dry-run-extra")).toContainText("would also run, beyond the plan: orders.running_balance @ 2026-08-20T12:00");
  await expect(page.getByTestId("dry-run-side-effects")).toHaveCount(0);
  await expect(page.getByTestId("dry-run-missing")).toHaveCount(0);
  expect(airflow.requests.filter((r) => r.path.endsWith("/clearTaskInstances")).every((r) => (r.requestBody as { dry_run: boolean }).dry_run)).toBe(true);
  await page.screenshot({ path: path.join(process.env.E2E_OUTPUT_DIR ?? "test-results", "airflow-1-dry-run.png"), fullPage: true });
  await page.getByLabel(/Why this plan/).fill("repair the failed days and their closure in Airflow; the manual run of 08-20 re-runs too, accepted");
  await page.getByRole("button", { name: "Confirm plan →" }).click();
  for (const u of (await (await request.get(`/api/v1/incidents/${id}/validation`)).json()).units)
    if (u.sourceCount !== null) sourceCounts.set(`${u.name} ${u.unitKey}`, u.sourceCount);

  // The Execute step carries the review over: the launch dispatches what was reviewed (its digest re-checked).
  await expect(page.getByRole("heading", { name: "5. Execute" })).toBeVisible();
  await expect(page.getByTestId("dry-run-carried")).toContainText("Reviewed at the Plan step");
  await expect(page.getByTestId("dry-run-result")).toContainText("16 requests will be sent, in 4 waves.");

  // Dispatch the reviewed repair: progress streams in, wave by wave, to the end.
  await page.getByRole("button", { name: "Dispatch the reviewed repair" }).click();
  await expect(page.getByRole("progressbar", { name: "Repair progress" })).toBeVisible();
  await expect(page.getByTestId("run-status")).toHaveText("running", { timeout: 20_000 });
  await expect(page.getByTestId("pair-stg_orders-2026-08-17")).toContainText("orders · scheduled__2026-08-17", { timeout: 20_000 });
  await page.screenshot({ path: path.join(process.env.E2E_OUTPUT_DIR ?? "test-results", "airflow-2-running.png"), fullPage: true });
  // The run ends; the operator reads the last progress and moves on to Validate.
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 120_000 });
  await page.getByRole("button", { name: "Validate →" }).click();
  await expect(page.getByTestId("validation-verdict")).toContainText("Validation passes", { timeout: 20_000 });
  const progress = await (await request.get(`/api/v1/incidents/${id}/progress`)).json();
  expect(progress).toMatchObject({ total: 31, done: 31, succeeded: 31, failed: 0, run: { status: "succeeded" } });
  const cleared = airflow.requests
    .filter((r) => r.path.endsWith("/clearTaskInstances") && !(r.requestBody as { dry_run: boolean }).dry_run)
    .map((r) => (r.requestBody as { task_ids: string[] }).task_ids.join("+"));
  expect(cleared.slice(0, 6)).toEqual(["stg_orders", "stg_orders", "stg_orders", "fct_orders", "fct_orders", "fct_orders"]);
  expect(cleared.slice(-2)).toEqual(["refresh_executive_dashboard", "refresh_executive_dashboard"]);
  expect(airflow.violations).toEqual([]);
  expect(reportErrors).toEqual([]);

  // Validation from the ledger: Airflow's tasks reported their units.
  await expect(page.getByTestId("validation-stg_orders-2026-08-17").getByTestId("rows")).toHaveText("40 / 40");
  await page.screenshot({ path: path.join(process.env.E2E_OUTPUT_DIR ?? "test-results", "airflow-3-validated.png"), fullPage: true });

  // Every request to Airflow and its answer is in the audit log, without the password or a token.
  const audit = await (await request.get(`/api/v1/audit?incidentId=${id}&limit=100`)).json();
  const kinds = audit.entries.map((e: { kind: string }) => e.kind);
  expect(kinds).toEqual(expect.arrayContaining(["repair.previewed", "repair.dispatched", "repair.progress", "repair.finished"]));
  const text = JSON.stringify(audit);
  expect(text).not.toContain("e2e-airflow-password");
  expect(text).toContain(`${airflow.url}/api/v2/dags/orders/clearTaskInstances`);
});
