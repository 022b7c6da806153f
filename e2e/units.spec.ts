import { test, expect } from "./fixtures";
import { resetDemo } from "./reset-demo";

// The demo world (npm run demo:load) in the unit matrix: states from the ledger and attempts.
// The spec starts from a fresh demo (another spec may have repaired or marked units), so it
// passes alone or after any other; its one change to the catalog is undone after it.
test.use({ viewport: { width: 1600, height: 1000 } });
test.beforeAll(() => resetDemo());
test.afterAll(() => resetDemo());

type Page = import("@playwright/test").Page;

/**
 * A cell of the matrix. The cells are drawn on a canvas; the one under the pointer is an element
 * (its tooltip, state and accessible name), so the pointer is moved over the cell where the row
 * header of `name` and the column header of `key` cross, as a user finds it.
 */
async function cell(page: Page, name: string, key: string) {
  const target = page.getByTestId(`cell-${name}-${key}`);
  await expect(async () => {
    const row = page.getByRole("rowheader").filter({ has: page.getByRole("link", { name, exact: true }) });
    const column = row.locator("xpath=ancestor::*[@role='grid']").getByRole("columnheader", { name: key, exact: true });
    const [r, c] = [await row.boundingBox({ timeout: 5_000 }), await column.boundingBox({ timeout: 5_000 })];
    if (!r || !c) throw new Error(`no row ${name} or column ${key} on screen`);
    await page.mouse.move(c.x + c.width / 2 - 1, r.y + r.height / 2);
    await expect(target).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  return target;
}

test("the matrix shows the demo's failures, each in its state, with the legend's counts", async ({ page }) => {
  await page.goto("/units");
  await expect(page.getByRole("heading", { level: 1, name: "Units" })).toBeVisible();
  await expect(await cell(page, "fct_orders", "2026-08-17")).toHaveAttribute("data-state", "blocked");
  await expect(await cell(page, "fct_orders", "2026-08-17")).toHaveAttribute(
    "title",
    "fct_orders · 2026-08-17: blocked (upstream failed) — no publish: an upstream unit failed, so this never ran",
  );
  await expect(await cell(page, "fct_orders", "2026-08-23")).toHaveAttribute("data-state", "blocked");
  await expect(await cell(page, "fct_orders", "2026-08-10")).toHaveAttribute("data-state", "divergent");
  await expect(await cell(page, "stg_orders", "2026-08-10")).toHaveAttribute("data-state", "duplicate");
  await expect(await cell(page, "stg_orders", "2026-08-17")).toHaveAttribute("data-state", "failed");
  await expect(await cell(page, "stg_orders", "2026-08-16")).toHaveAttribute("data-state", "published");
  await expect(await cell(page, "meter_readings_raw", "2026-07")).toHaveAttribute("data-state", "failed");
  await expect(await cell(page, "meter_readings_screened", "2026-07")).toHaveAttribute("data-state", "divergent");
  await expect(await cell(page, "meter_readings_deduped", "2026-07")).toHaveAttribute("data-state", "divergent");
  await expect(await cell(page, "meter_readings_raw", "2026-06")).toHaveAttribute("data-state", "published");
  await expect(page.getByTestId("legend-failed")).toHaveText("failed 3");
  await expect(page.getByTestId("legend-blocked")).toHaveText("blocked (upstream failed) 18");
  await expect(page.getByTestId("legend-divergent")).toHaveText("divergent 3");
  await expect(page.getByTestId("legend-duplicate")).toHaveText("duplicate 1");
  // Seed 002: invalid keys apart from valid keys that failed, each with its reason.
  await expect(page.getByTestId("failed-keys").getByRole("row", { name: "stg_orders 2026-08-17", exact: true })).toBeVisible();
  await expect(page.getByTestId("failed-keys").getByRole("row", { name: "meter_readings_raw 2026-07", exact: true })).toBeVisible();
  const invalid = page.getByTestId("matrix-invalid-keys");
  await expect(invalid).toContainText('"2026-8-24" is not a day key (expected yyyy-MM-dd)');
  await expect(invalid).toContainText('"2026-08-31" is after the last unit 2026-08-25');
});

test("a cell opens its panel: publishes, attempts, source count and deviation, links", async ({ page }) => {
  await page.goto("/units");
  await (await cell(page, "fct_orders", "2026-08-10")).click();
  const panel = page.getByTestId("cell-panel");
  await expect(panel.getByRole("heading", { name: "fct_orders 2026-08-10" })).toBeVisible();
  await expect(panel.getByTestId("panel-state")).toHaveText("divergent");
  await expect(panel.getByTestId("panel-source")).toHaveText("44");
  await expect(panel.getByTestId("panel-rows")).toHaveText("66");
  await expect(panel.getByTestId("panel-deviation")).toHaveText("+50% (tolerance ±5%)");
  await expect(panel.getByTestId("panel-publishes").locator("tbody tr")).toHaveCount(1);
  await expect(page).toHaveURL(/cell=dataset%3Awarehouse%3Afct_orders&unit=2026-08-10/);
  // Who owns the dataset (and where that was found), and who reads it.
  await expect(panel.getByTestId("panel-people-owners")).toHaveText("orders-team — owner of the task writing it (declared)");
  await expect(panel.getByTestId("panel-people-consumers")).toHaveText("no consumer declared");

  await (await cell(page, "fct_orders", "2026-08-17")).click();
  await expect(panel.getByTestId("panel-state")).toHaveText("blocked (upstream failed)");
  await expect(panel.getByTestId("panel-no-publish")).toHaveText("No publish: this unit is not in the ledger — it never ran because an upstream unit failed.");
  await expect(panel.getByTestId("panel-attempts")).toContainText("upstream failed");
  await expect(panel.getByTestId("panel-lineage-link")).toHaveAttribute("href", "/lineage?node=job%3Aorders%3Afct_orders&units=2026-08-17");
  await page.goto("/units?cell=dataset%3Awarehouse%3Arevenue_daily&unit=2026-08-17");
  await expect(panel.getByTestId("panel-people-consumers")).toHaveText("Revenue dashboard — dashboard");

  // The URL holds the open cell: a pasted link opens the same panel.
  await page.goto("/units?cell=dataset%3Awarehouse%3Ameter_readings_raw&unit=2026-07");
  await expect(panel.getByTestId("panel-state")).toHaveText("failed");
  await expect(panel.getByTestId("panel-partial")).toHaveText("120");
  await expect(panel.getByTestId("panel-attempts")).toContainText("meter vendor feed closed the connection after row 120");
  await panel.getByRole("button", { name: "Close the unit panel" }).click();
  await expect(panel).toBeHidden();
});

test("arrow keys move through the matrix and Enter opens the focused unit", async ({ page }) => {
  await page.goto("/units?cell=dataset%3Awarehouse%3Astg_orders&unit=2026-08-16");
  const panel = page.getByTestId("cell-panel");
  await expect(panel.getByTestId("panel-state")).toHaveText("published");
  // No spec's repair touches stg_orders 2026-08-16 (the audit log outlives a demo reload).
  await expect(panel.getByTestId("panel-no-interventions")).toHaveText("No intervention has named this unit.");
  await page.getByRole("grid", { name: "Unit matrix: Daily (UTC)" }).focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Enter");
  await expect(panel.getByRole("heading", { name: "stg_orders 2026-08-17" })).toBeVisible();
  await expect(panel.getByTestId("panel-state")).toHaveText("failed");
  await expect(panel.getByTestId("panel-partial")).toHaveText("20");
  await expect(panel.getByTestId("panel-attempts").locator("tbody tr")).toHaveCount(2);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(panel.getByRole("heading", { name: "fct_orders 2026-08-17" })).toBeVisible();
});

test("zooming out shows the worst state of each week; a state filter keeps only rows holding it", async ({ page }) => {
  await page.goto("/units");
  await page.getByRole("radio", { name: "Weeks" }).click();
  await expect(page).toHaveURL(/zoom=week/);
  await expect(await cell(page, "stg_orders", "2026-W33")).toHaveAttribute("data-state", "duplicate");
  await expect(await cell(page, "stg_orders", "2026-W34")).toHaveAttribute("data-state", "failed");
  await expect(await cell(page, "fct_orders", "2026-W34")).toHaveAttribute("data-state", "blocked");
  await expect(await cell(page, "stg_orders", "2026-W32")).toHaveAttribute("data-state", "published");

  await page.getByTestId("legend-failed").click();
  await expect(page).toHaveURL(/states=failed/);
  // Each row header is named in separate words: its dataset, then its pipeline.
  const daily = page.getByRole("grid", { name: "Unit matrix: Daily (UTC)" });
  await expect(daily.getByRole("rowheader")).toHaveCount(1);
  await expect(daily.getByRole("rowheader")).toHaveAccessibleName("stg_orders, pipeline orders");
  const monthly = page.getByRole("grid", { name: "Unit matrix: Monthly (UTC)" });
  await expect(monthly.getByRole("rowheader")).toHaveCount(1);
  await expect(monthly.getByRole("rowheader")).toHaveAccessibleName("meter_readings_raw, pipeline meters");
});

test("selecting a range of one dataset offers to plan a repair for exactly those units, on screen", async ({ page }) => {
  // A laptop's screen: the sections below the daily one push the end of the page far below it.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("/units");
  await (await cell(page, "stg_orders", "2026-08-17")).click({ modifiers: ["ControlOrMeta"] });
  await (await cell(page, "stg_orders", "2026-08-23")).click({ modifiers: ["Shift"] });
  const bar = page.getByTestId("selection-bar");
  await expect(bar.getByTestId("selection-units")).toHaveText("2026-08-17 → 2026-08-23");
  // Stuck to the bottom of the viewport, not rendered below every section.
  await expect(bar.getByTestId("plan-repair")).toBeInViewport({ ratio: 1 });
  await expect(bar).toContainText("7 units of stg_orders");
  await expect(bar.getByTestId("plan-repair")).toHaveAttribute(
    "href",
    `/incidents/new?node=job%3Aorders%3Astg_orders&units=${encodeURIComponent("2026-08-17,2026-08-18,2026-08-19,2026-08-20,2026-08-21,2026-08-22,2026-08-23")}`,
  );
});

test("one dataset's page, and a bad filter answered in words", async ({ page }) => {
  await page.goto("/units/dataset%3Awarehouse%3Afct_orders");
  await expect(page.getByRole("heading", { level: 1, name: "fct_orders" })).toBeVisible();
  await expect(page.getByRole("grid", { name: "Unit matrix: Daily (UTC)" }).getByRole("rowheader")).toHaveAccessibleName("fct_orders, pipeline orders");
  await expect(page.getByTestId("legend-blocked")).toHaveText("blocked (upstream failed) 2");

  const res = await page.request.get("/api/v1/units/matrix?from=2026-09-01&to=2026-08-01");
  expect(res.status()).toBe(400);
  expect((await res.json()).message).toBe("query.from: from must not be after to");
  const form = await page.request.get("/api/v1/units/matrix?cells=lines");
  expect(form.status()).toBe(400);
  expect((await form.json()).message).toBe('query.cells: Invalid option: expected one of "string"|"runs"');
});

test("Esc closes the cell panel, drops the open cell from the URL and gives the focus back to the grid", async ({ page }) => {
  await page.goto("/units");
  await (await cell(page, "stg_orders", "2026-08-17")).click();
  const panel = page.getByTestId("cell-panel");
  await expect(panel.getByTestId("panel-state")).toHaveText("failed");
  await expect(page).toHaveURL(/[?&]cell=/);
  await page.keyboard.press("Escape");
  await expect(panel).toBeHidden();
  await expect(page).not.toHaveURL(/[?&]cell=/);
  const daily = page.getByRole("grid", { name: "Unit matrix: Daily (UTC)" });
  await expect(daily).toBeFocused();
  // The focus is back where it was: Enter opens the same unit again.
  await page.keyboard.press("Enter");
  await expect(panel.getByRole("heading", { name: "stg_orders 2026-08-17" })).toBeVisible();
});

test("the keyboard reaches the matrix in two Tabs, through the skip links", async ({ page }) => {
  await page.goto("/units");
  const daily = page.getByRole("grid", { name: "Unit matrix: Daily (UTC)" });
  await expect(daily).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to the page" })).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to the matrix" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(daily).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("cell-panel")).toBeVisible();
});

test("an open-ended feed opens its daily section on its latest data, not on the units nobody has written yet", async ({ page }) => {
  // raw_orders declared open-ended: every day up to the day before yesterday is due, so the daily
  // axis runs to then, and everything after 2026-08-25 is missing.
  const declared = await page.request.put(`/api/v1/datasets/${encodeURIComponent("dataset:warehouse:raw_orders")}/partitions`, {
    data: { partitionDef: { kind: "time", grain: "day", start: "2026-05-18", timezone: "UTC" }, reason: "e2e: the extract feed runs on with no end" },
  });
  expect(declared.status(), await declared.text()).toBe(200);
  const matrix = await (await page.request.get("/api/v1/units/matrix")).json();
  const columns: string[] = matrix.sections.find((s: { id: string }) => s.id === "day:UTC").columns;
  const lastDue = columns[columns.length - 1]!;
  expect(lastDue > "2026-09-30").toBe(true);

  await page.goto("/units");
  const daily = page.getByRole("grid", { name: "Unit matrix: Daily (UTC)" });
  await expect(daily.getByRole("columnheader", { name: "2026-08-25", exact: true })).toBeInViewport();
  await expect(daily.getByRole("columnheader", { name: lastDue, exact: true })).toHaveCount(0);
  await expect(await cell(page, "raw_orders", "2026-08-25")).toHaveAttribute("data-state", "published");
  const rawOrders = matrix.sections.find((s: { id: string }) => s.id === "day:UTC").rows.find((r: { name: string }) => r.name === "raw_orders");
  expect(rawOrders.cells[columns.indexOf("2026-08-26")]).toBe("m");
});
