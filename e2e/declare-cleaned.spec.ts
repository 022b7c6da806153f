import { expect, test } from "./fixtures";
import { ensureAdmin, resetDemo } from "./reset-demo";

// A unit cleaned by hand in a warehouse Reparo is not connected to: the operator's declaration
// is recorded but believed only once a count of the unit's rows, sent like any producer's data
// (POST /api/v1/warehouse-counts), shows it empty — the page picks the count up by itself.

test.describe.configure({ mode: "serial" });

const STG = "job:orders:stg_orders";

test.beforeAll(() => {
  resetDemo();
  ensureAdmin("e2e-admin", "disconnects the warehouse");
});
test.afterAll(() => resetDemo());

test("declared cleaned by hand: not believed on a count that finds rows, believed on one that finds none", async ({ page, request }) => {
  test.setTimeout(90_000);
  const put = await request.put("/api/v1/warehouses/warehouse", {
    headers: { "x-reparo-user": "e2e-admin" },
    data: { connection: { kind: "none" }, reason: "our warehouse is not reachable from the console" },
  });
  expect(put.status(), await put.text()).toBe(200);
  const incident = await (
    await request.post("/api/v1/incidents", { data: { taskNodeId: STG, units: ["2026-08-17"], reason: "stg_orders failed twice on 2026-08-17" } })
  ).json();
  expect(
    (
      await request.post(`/api/v1/incidents/${incident.id}/scope`, {
        data: { reason: "running_balance also waits on 2026-08-23", addPairs: [{ taskNodeId: STG, units: ["2026-08-23"] }] },
      })
    ).ok(),
  ).toBe(true);

  await page.goto(`/incidents/${incident.id}`);
  await page.getByLabel(/Review note/).fill("append task noted");
  await page.getByRole("button", { name: "Record review →" }).click();
  const blocker = page.getByTestId("blocker-append_unresolved");
  await expect(blocker.getByTestId("not-cleanable")).toContainText("has no warehouse connection");
  await expect(blocker.getByTestId("append-unit-2026-08-17").getByTestId("rows-in-unit")).toHaveText("rows unknown (the warehouse is not connected)");

  // The operator deleted both days by hand in psql, and says so.
  await blocker.getByTestId("declare-cleaned-open").click();
  const form = page.getByTestId("declare-cleaned");
  await expect(form).toContainText("lifts the blocker only when a count of each unit's rows, taken after its latest attempt, shows 0");
  await form.getByTestId("declare-cleaned-statement").fill("delete from analytics.stg_orders where order_day in ('2026-08-17', '2026-08-23')");
  await form.getByLabel(/Why/).fill("deleted the partial appends by hand");
  await form.getByRole("button", { name: /^Confirm:/ }).click();
  await expect(blocker.getByTestId("declared-2026-08-17")).toContainText("not believed yet — no count of the unit's rows has arrived yet");
  await expect(blocker.getByTestId("count-evidence")).toContainText("/api/v1/warehouse-counts");
  await expect(page.getByRole("button", { name: "Preview the plan →" })).toBeDisabled();

  // A count that still finds rows keeps the blocker; the page shows it without a reload.
  const count = (unitKey: string, rowCount: number) => ({
    dataset: { nodeId: "dataset:warehouse:stg_orders" },
    unitKey,
    rowCount,
    measuredAt: new Date().toISOString(),
    source: "select count(*) from analytics.stg_orders where order_day = …",
  });
  expect((await request.post("/api/v1/warehouse-counts", { data: [count("2026-08-17", 20), count("2026-08-23", 0)] })).ok()).toBe(true);
  await expect(blocker.getByTestId("append-unit-2026-08-17").getByTestId("rows-in-unit")).toHaveText("20 rows at the team's last count", { timeout: 20_000 });
  await expect(blocker.getByTestId("declared-2026-08-17")).toContainText("the latest count found 20 rows still in the unit");
  await expect(blocker.getByTestId("append-unit-2026-08-23")).toHaveCount(0);

  // The rest is deleted too; the next count finds nothing and the blocker lifts.
  expect((await request.post("/api/v1/warehouse-counts", { data: count("2026-08-17", 0) })).ok()).toBe(true);
  await expect(page.getByTestId("no-blockers")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole("button", { name: "Preview the plan →" })).toBeEnabled();
  const audit = await (await request.get(`/api/v1/audit?incidentId=${incident.id}&limit=50`)).json();
  expect(audit.entries.find((e: { kind: string }) => e.kind === "unit.clean_declared")).toMatchObject({ reason: "deleted the partial appends by hand" });
});
