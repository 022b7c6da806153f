import { test, expect } from "./fixtures";
import type { Page } from "@playwright/test";

// Seed 001 on the demo world: stg_orders failed for 2026-08-17. Its blast radius is that day
// through the marts, the dashboard and the feature pipeline, ISO week 2026-W34 of the weekly
// finance export, and running_balance from that day to the end of the range (it reads its own past).
const EXPECTED: Record<string, string> = {
  "job:orders:stg_orders": "2026-08-17",
  "dataset:warehouse:stg_orders": "2026-08-17",
  "job:orders:fct_orders": "2026-08-17",
  "dataset:warehouse:fct_orders": "2026-08-17",
  "job:orders:revenue_daily": "2026-08-17",
  "dataset:warehouse:revenue_daily": "2026-08-17",
  "job:orders:refresh_executive_dashboard": "2026-08-17",
  "dataset:bi:executive_dashboard": "2026-08-17",
  "job:ml:build_order_features": "2026-08-17",
  "dataset:ml:order_features": "2026-08-17",
  "job:finance:weekly_revenue_export": "2026-W34",
  "dataset:finance:weekly_revenue_export": "2026-W34",
  "job:orders:running_balance": "2026-08-17 → 2026-08-25 (9 units)",
  "dataset:warehouse:running_balance": "2026-08-17 → 2026-08-25 (9 units)",
};

async function expectBlastRadiusOf0817(page: Page) {
  const table = page.getByTestId("closure-table");
  await expect(table.locator("tbody tr")).toHaveCount(14);
  for (const [nodeId, units] of Object.entries(EXPECTED)) {
    await expect(page.getByTestId(`closure-row-${nodeId}`).getByTestId("closure-units")).toHaveText(units);
    const node = page.getByTestId(`node-${nodeId}`);
    await expect(node).toHaveAttribute("data-closure", "in");
    await expect(node.getByTestId("node-units")).toHaveText(units);
  }
  await expect(page.locator('[data-testid^="node-"][data-closure="in"]')).toHaveCount(14);
  await expect(page.getByTestId("node-job:orders:stg_orders")).toHaveAttribute("data-seed", "true");
  await expect(page.getByTestId("closure-row-dataset:warehouse:running_balance")).toContainText("never ran");
}

test("selecting stg_orders 2026-08-17 from the current failures lights up exactly its blast radius", async ({ page }) => {
  await page.goto("/lineage");
  await expect(page.getByRole("heading", { name: "Lineage" })).toBeVisible();
  await expect(page.getByTestId("node-dataset:warehouse:raw_orders")).toHaveAttribute("data-closure", "out");
  await page.getByRole("list", { name: "Current failures" }).getByRole("button", { name: /stg_orders 2026-08-17/ }).click();
  await expect(page).toHaveURL(/node=job%3Aorders%3Astg_orders&units=2026-08-17/);
  await expectBlastRadiusOf0817(page);
  await expect(page.getByTestId("closure-table")).toContainText("Downstream closure (blast radius): 14 nodes in 8 waves");
});

test("a pasted link opens the same picture; upstream on demand; a collapsed pipeline stays collapsed", async ({ page }) => {
  await page.goto("/lineage?node=job%3Aorders%3Astg_orders&units=2026-08-17&collapsed=meters");
  await expectBlastRadiusOf0817(page);
  await expect(page.getByRole("checkbox", { name: /collapse meters/ })).toBeChecked();
  await page.getByRole("checkbox", { name: /collapse ml/ }).click();
  await expect(page).toHaveURL(/collapsed=meters%2Cml/);
  await expect(page.getByTestId("node-dataset:ml:order_features")).toHaveCount(0);
  await page.getByRole("checkbox", { name: /collapse ml/ }).click();
  await expect(page.getByTestId("node-dataset:ml:order_features").getByTestId("node-units")).toHaveText("2026-08-17");

  await page.getByRole("button", { name: "Upstream (built from)" }).click();
  await expect(page).toHaveURL(/direction=upstream/);
  await expect(page.getByTestId("closure-table")).toContainText("Upstream closure (built from): 3 nodes");
  await expect(page.getByTestId("closure-row-dataset:warehouse:raw_orders").getByTestId("closure-units")).toHaveText("2026-08-17");
  await expect(page.getByTestId("closure-row-job:orders:land_raw_orders").getByTestId("closure-units")).toHaveText("2026-08-17");
  await expect(page.locator('[data-testid^="node-"][data-closure="in"]')).toHaveCount(3);
});

test("keyboard: search a node, select it with Enter, and its closure is all of its units", async ({ page }) => {
  await page.goto("/lineage");
  const search = page.getByRole("searchbox", { name: "Search" });
  await search.fill("order_features");
  await expect(page.getByRole("list", { name: "Matching nodes" }).getByRole("button")).toHaveCount(2);
  await search.press("Enter");
  await expect(page.getByTestId("selected-node")).toHaveText("dataset:ml:order_features");
  await expect(page.getByTestId("closure-row-dataset:ml:order_features").getByTestId("closure-units")).toHaveText("2026-05-18 → 2026-08-25 (100 units)");
  await page.getByRole("button", { name: "Clear selection" }).click();
  await expect(page.getByText("Pick a failure, click a node")).toBeVisible();
});
