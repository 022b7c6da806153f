import { test, expect } from "./fixtures";
import { resetDemo } from "./reset-demo";

// What the overview shows is the demo world's: the spec loads it itself, so it passes alone or after any
// spec that changed the world.
test.beforeAll(() => resetDemo());

// The demo world (npm run demo:load) as the overview shows it, read from the ledger and attempts.
test("the overview lists the demo's failures and ledger findings with their concrete units", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();

  const fctMissing = page.getByTestId("finding-fct_orders-missing");
  await expect(fctMissing.getByTestId("finding-units")).toHaveText("2026-08-17, 2026-08-23 (2)");

  const partial = page.getByTestId("failure-stg_orders-2026-08-17");
  await expect(partial.getByTestId("partial-write")).toHaveText("partial write: 20 rows still readable");
  await expect(partial.getByTestId("failure-tries")).toHaveText("2");
  await expect(page.getByTestId("failure-stg_orders-2026-08-23")).toContainText("nothing written");

  const duplicate = page.getByTestId("finding-stg_orders-duplicate");
  await expect(duplicate.getByTestId("finding-units")).toHaveText("2026-08-10 (1)");
  await expect(duplicate).toContainText("append attempts wrote 66 rows for 44 expected");

  await expect(page.getByTestId("finding-fct_orders-divergent").getByTestId("finding-units")).toHaveText("2026-08-10 (1)");
  await expect(page.getByTestId("finding-running_balance-missing").getByTestId("finding-units")).toHaveText("2026-08-17 → 2026-08-25 (9)");
  await expect(page.getByTestId("stat-openFailures").getByTestId("stat-value")).toHaveText("3");
  await expect(page.getByTestId("invalid-keys")).toContainText('"2026-8-24" is not a day key (expected yyyy-MM-dd)');
});

test("every section of the console is reachable from the navigation", async ({ page }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [label, heading] of [
    ["Incidents", "Incidents"],
    ["Lineage", "Lineage"],
    ["Units", "Units"],
    ["Completeness", "Completeness"],
    ["History", "Repair history"],
    ["Audit log", "Audit log"],
    ["Ingestion", "Ingestion"],
  ]) {
    await nav.getByRole("link", { name: label, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  }
});
