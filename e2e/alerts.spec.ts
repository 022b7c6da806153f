import { test, expect } from "./fixtures";
import { resetDemo } from "./reset-demo";

// What the alerts shows is the demo world's: the spec loads it itself, so it passes alone or after any
// spec that changed the world.
test.beforeAll(() => resetDemo());

// Seed 003's half-written 2026-07 partition and seed 000's missing units, as alerts from the data.
test("alerts name their source, the units, and link to open an incident", async ({ page }) => {
  await page.goto("/alerts");
  await expect(page.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
  const halfWrite = page.getByTestId("alert-row_count_out_of_band-meter_readings_screened");
  await expect(halfWrite).toContainText("data alert");
  await expect(halfWrite.getByTestId("alert-units")).toHaveText("2026-07");
  await expect(halfWrite).toContainText("2026-07: 120 rows for a source count of 200 (−40%)");

  const task = page.getByTestId("alert-task_failed-stg_orders");
  await expect(task).toContainText("task alert");
  await expect(task.getByTestId("alert-units")).toHaveText("2026-08-17, 2026-08-23");
  await expect(task.getByRole("link", { name: "Open incident →" })).toHaveAttribute(
    "href",
    "/incidents/new?node=job%3Aorders%3Astg_orders&units=2026-08-17%2C2026-08-23",
  );

  await expect(page.getByTestId("alert-missing_past_deadline-revenue_daily").getByTestId("alert-units")).toHaveText("2026-08-17, 2026-08-23");
  await expect(page.getByTestId("alert-published_more_than_once-stg_orders").getByTestId("alert-units")).toHaveText("2026-08-10");
  await expect(page.getByRole("button", { name: /Send \d+ pending alerts/ })).toBeDisabled(); // no webhook configured
});
