import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { startFakeAirflow, type FakeAirflow } from "../test/peers/fake-airflow";
import { E2E_SECRET_DIR } from "../playwright.config";
import { expect, test } from "./fixtures";
import { ensureAdmin, resetDemo } from "./reset-demo";

// The faults a commander meets when a repair runs in Airflow, in the browser: a wrong password,
// a missing permission and a paused DAG at the dry run, before anything is sent; a permission
// withdrawn and Airflow down in the middle of a run. Each time the wizard names Airflow by its
// address and the cause in plain words, counts as done only what ran, and the repair goes on
// from the wizard once the cause is gone — resumed, or cancelled and resumed later. Each test
// seeds its own world (the demo, a fake Airflow checked against Airflow's published API).

const STG = "job:orders:stg_orders";
const days = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `2026-08-${String(from + i).padStart(2, "0")}T00:00:00.000Z`);
const ORDERS = ["land_raw_orders", "snapshot_customers", "stg_orders", "fct_orders", "revenue_daily", "running_balance", "refresh_executive_dashboard"];
const PASSWORD = "e2e-faults-password";

interface World {
  airflow: FakeAirflow;
  passwordFile: string;
  id: string;
  stop: () => Promise<void>;
}

/** The demo, a fake Airflow running every cleared task instance at once, both pipelines pointed at it, and the demo incident scoped, cleaned and planned. */
async function world(request: APIRequestContext, options: { password?: string; paused?: boolean } = {}): Promise<World> {
  resetDemo();
  ensureAdmin("e2e-admin", "sets the orchestrator connections");
  fs.mkdirSync(E2E_SECRET_DIR, { recursive: true });
  const passwordFile = path.join(fs.mkdtempSync(path.join(E2E_SECRET_DIR, "airflow-faults-")), "password");
  fs.writeFileSync(passwordFile, `${options.password ?? PASSWORD}\n`);
  const airflow = await startFakeAirflow({
    version: "3.2.1",
    users: { reparo: PASSWORD },
    advanceOnPoll: false,
    dags: {
      orders: { tasks: ORDERS.map((taskId) => ({ taskId })), runs: days(1, 25).map((logicalDate) => ({ logicalDate })), paused: options.paused },
      ml: { tasks: [{ taskId: "build_order_features" }], runs: days(1, 25).map((logicalDate) => ({ logicalDate })) },
    },
  });
  // Airflow's scheduler, quick: every cleared task instance moves on a step each 100 ms.
  const ticking = setInterval(() => void airflow.advance(), 100);
  for (const pipeline of ["orders", "ml"]) {
    const res = await request.put(`/api/v1/pipelines/${pipeline}/orchestrator`, {
      headers: { "x-reparo-user": "e2e-admin" },
      data: {
        connection: { kind: "airflow", baseUrl: airflow.url, username: "reparo", credentials: { file: passwordFile } },
        reason: "repairs run in our Airflow",
      },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
  const post = async (p: string, data: unknown) => {
    const res = await request.post(p, { data });
    expect(res.ok(), `${p}: ${await res.text()}`).toBe(true);
    return res.json();
  };
  // The demo incident as repair-airflow.spec.ts scopes and cleans it: a plan with nothing blocking it.
  const { id } = await post("/api/v1/incidents", { taskNodeId: STG, units: ["2026-08-17"], reason: "stg_orders failed twice on 2026-08-17" });
  await post(`/api/v1/incidents/${id}/scope`, {
    reason: "running_balance cannot be rebuilt soundly without 2026-08-10 and 2026-08-23",
    addPairs: [{ taskNodeId: STG, units: ["2026-08-10", "2026-08-23"] }],
  });
  await post(`/api/v1/incidents/${id}/preconditions`, { reason: "append task and sequential balance noted" });
  for (const unitKey of ["2026-08-10", "2026-08-17", "2026-08-23"])
    await post(`/api/v1/incidents/${id}/clean-unit`, { taskNodeId: STG, unitKey, reason: "remove the partial append" });
  return {
    airflow,
    passwordFile,
    id,
    stop: async () => {
      clearInterval(ticking);
      await airflow.close();
    },
  };
}

let current: World | null = null;
test.afterEach(async () => {
  await current?.stop();
  current = null;
});
test.afterAll(() => resetDemo());

/** The clears Airflow carried out (not the dry runs, not the ones it refused). */
const realClears = (a: FakeAirflow) =>
  a.requests.filter((r) => r.path.endsWith("/clearTaskInstances") && r.status === 200 && !(r.requestBody as { dry_run: boolean }).dry_run);

async function openPlan(page: Page, id: string): Promise<void> {
  await page.goto(`/incidents/${id}/plan`);
  await expect(page.getByTestId("wave-0")).toContainText("stg_orders");
}

async function confirmPlan(page: Page, reason: string): Promise<void> {
  await page.getByLabel(/Why this plan/).fill(reason);
  await page.getByRole("button", { name: "Confirm plan →" }).click();
  await expect(page.getByRole("heading", { name: "5. Execute" })).toBeVisible();
}

/** The plan's dry run reviewed, the plan confirmed, and the repair dispatched to Airflow. */
async function dispatchPlanned(page: Page, id: string): Promise<void> {
  await openPlan(page, id);
  await page.getByTestId("dry-run-button").click();
  await expect(page.getByTestId("dry-run-result")).toContainText("will be sent");
  await confirmPlan(page, "repair 08-17 in Airflow");
  await page.getByRole("button", { name: "Dispatch the reviewed repair" }).click();
}

/** The Execute step's own dry run of what is left, then the resume; the run goes to its end. */
async function resume(page: Page): Promise<void> {
  await page.getByTestId("dry-run-button").click();
  await expect(page.getByTestId("dry-run-result")).toContainText("will be sent");
  await expect(page.getByTestId("launch")).toHaveText("Resume: run the pairs not yet done");
  await page.getByTestId("launch").click();
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 60_000 });
}

test("a wrong password, a missing permission and a paused DAG, met at the dry run: named, nothing sent, then dispatched once fixed", async ({
  page,
  request,
  consoleErrors,
}) => {
  test.setTimeout(180_000);
  const w = (current = await world(request, { password: "not-the-password", paused: true }));
  const at = `Airflow at ${w.airflow.url}`.replace(/[.:/]/g, "\\$&");
  await openPlan(page, w.id);
  const error = page.getByRole("alert").filter({ hasText: "the dry run of pipeline" });

  // The password in the secret file is not the user's: Airflow's auth manager answers 401.
  await page.getByTestId("dry-run-button").click();
  await expect(error).toContainText(new RegExp(`the dry run of pipeline (orders|ml) failed: ${at} refused the password of user reparo \\(401\\)`));

  // The admin writes the right password; the user lacks the permission to clear task instances (403).
  fs.writeFileSync(w.passwordFile, `${PASSWORD}\n`);
  w.airflow.forbid(["post_clear_task_instances"]);
  await page.getByTestId("dry-run-button").click();
  await expect(error).toContainText(new RegExp(`${at}: the user reparo lacks the permission for a dry run of clearing \\w+ in DAG (orders|ml) \\(403\\)`));
  // The console answered both refused dry runs 502 (the peer failed it), as it should: the browser logs them.
  const refusedDryRuns = consoleErrors.filter((e) => e.includes("status of 502 (Bad Gateway)"));
  expect(refusedDryRuns).toHaveLength(2);
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !refusedDryRuns.includes(e)));

  // Permission granted: the dry run goes through, and says the DAG is paused — nothing could run.
  w.airflow.forbid(null);
  await page.getByTestId("dry-run-button").click();
  await expect(page.getByTestId("dry-run-unsupported")).toContainText(
    "stg_orders (orders): DAG orders is paused: cleared tasks will not run until it is unpaused",
  );
  await confirmPlan(page, "repair 08-17 in Airflow once the DAG runs again");
  await expect(page.getByTestId("launch")).toBeDisabled();
  await expect(page.getByText(/the dry run found tasks that cannot be dispatched \(above\)/i)).toBeVisible();
  expect(realClears(w.airflow)).toEqual([]);

  // Unpaused in Airflow: the dry run again is clean, and the reviewed repair runs to its end.
  w.airflow.setPaused("orders", false);
  await page.getByTestId("dry-run-button").click();
  await expect(page.getByTestId("dry-run-unsupported")).toHaveCount(0);
  await page.getByRole("button", { name: "Dispatch the reviewed repair" }).click();
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 60_000 });
  const progress = await (await request.get(`/api/v1/incidents/${w.id}/progress`)).json();
  expect(progress).toMatchObject({ done: progress.total, succeeded: progress.total, failed: 0, run: { fault: null } });
  expect(w.airflow.violations).toEqual([]);
});

test("a permission withdrawn mid-run: the run stops on the 403, counts only what ran, and is resumed from the wizard", async ({ page, request }) => {
  test.setTimeout(210_000);
  const w = (current = await world(request));
  await dispatchPlanned(page, w.id);
  // Once the first wave is cleared, Airflow's admin withdraws the user's permission to clear.
  await expect.poll(() => realClears(w.airflow).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
  w.airflow.forbid(["post_clear_task_instances"]);

  const fault = page.getByTestId("run-fault");
  await expect(page.getByTestId("run-status")).toHaveText("failed", { timeout: 60_000 });
  await expect(fault).toContainText(`Repair #1 stopped on: Airflow at ${w.airflow.url}: the user reparo lacks the permission for clearing `);
  await expect(fault).toContainText(/ in DAG (orders|ml) \(403\)/);
  await expect(fault).toContainText("confirm the plan again at the Plan step");
  // Only the first wave ran: stg_orders' three days are the pairs done; nothing else counts.
  await expect(page.getByTestId("progress-count")).toContainText("3 succeeded · 0 failed or blocked");
  await expect(page.getByTestId("pair-stg_orders-2026-08-17")).toContainText("succeeded");
  await expect(page.getByTestId("pair-fct_orders-2026-08-17")).toContainText("pending");
  const cleared = realClears(w.airflow).map((r) => (r.requestBody as { task_ids: string[] }).task_ids.join("+"));
  expect(cleared).toEqual(["stg_orders", "stg_orders", "stg_orders"]);

  // Permission back: the plan confirmed again, the resume runs only what is left.
  w.airflow.forbid(null);
  await openPlan(page, w.id);
  await confirmPlan(page, "the permission is back: resume the rest");
  await resume(page);
  await expect(page.getByTestId("pair-stg_orders-2026-08-17")).toHaveCount(0);
  expect(realClears(w.airflow).filter((r) => (r.requestBody as { task_ids: string[] }).task_ids.includes("stg_orders"))).toHaveLength(3);
  expect(w.airflow.violations).toEqual([]);
});

test("Airflow down mid-run: the run says it waits on it, the commander cancels, and resumes once Airflow is back", async ({ page, request }) => {
  test.setTimeout(210_000);
  const w = (current = await world(request));
  await dispatchPlanned(page, w.id);
  await expect.poll(() => realClears(w.airflow).length, { timeout: 30_000 }).toBeGreaterThan(0);
  await w.airflow.stop();

  // The run waits on Airflow, saying so; what Reparo has not seen run is not done.
  const fault = page.getByTestId("run-fault");
  await expect(fault).toContainText(`The repair is waiting: Airflow at ${w.airflow.url} is not reachable: connection refused.`, { timeout: 30_000 });
  await expect(fault).toContainText(/Reparo asks again in \d+ s \(attempt \d+ of 10\)/);
  await expect(page.getByTestId("run-status")).toHaveText("running");
  const during = await (await request.get(`/api/v1/incidents/${w.id}/progress`)).json();
  expect(during.done).toBeLessThan(during.total);

  // The commander cancels: Airflow cannot confirm the stop, and the wizard says so.
  await page.getByTestId("cancel-repair-open").click();
  await page.getByTestId("cancel-repair").getByLabel("Why").fill("Airflow is down; we resume once it is back");
  await page.getByRole("button", { name: "Confirm: cancel the repair" }).click();
  await expect(page.getByTestId("run-status")).toHaveText("cancelled", { timeout: 40_000 });
  await expect(page.getByTestId("cancel-unconfirmed")).toContainText(`${w.airflow.url}`);
  await expect(fault).toContainText(`Repair #1 was cancelled after: Airflow at ${w.airflow.url} is not reachable: connection refused.`);
  const incident = await (await request.get(`/api/v1/incidents/${w.id}`)).json();
  expect(incident.status).toBe("validating");
  const audit = await (await request.get(`/api/v1/audit?incidentId=${w.id}&limit=100`)).json();
  expect(audit.entries.map((e: { kind: string }) => e.kind)).toEqual(expect.arrayContaining(["repair.cancel_sent", "repair.finished"]));
  expect(JSON.stringify(audit)).toContain("cancelled by demo-commander: Airflow is down");

  // Airflow is back: the plan confirmed again, the resume runs what is left, to its end.
  await w.airflow.start();
  await openPlan(page, w.id);
  await confirmPlan(page, "Airflow is back: resume the rest");
  await resume(page);
  expect(w.airflow.violations).toEqual([]);
});
