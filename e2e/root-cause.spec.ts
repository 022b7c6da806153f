import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { resetDemo } from "./reset-demo";

// Root cause first (issue 33), on the demo world: meter_readings_deduped 2026-07 is divergent from
// its source count because land_meter_readings 2026-07 wrote 120 of its 200 rows and failed. The
// alert on the symptom leads to an incident on the cause, and its repair validates.
test.describe.configure({ mode: "serial" });
test.beforeAll(() => resetDemo());
test.afterAll(() => resetDemo());

const LAND = "job:meters:land_meter_readings";
const SHOTS = path.resolve(__dirname, "..", process.env.E2E_OUTPUT_DIR ?? "test-results", "root-cause");
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

test("from the meters alert to an incident on land_meter_readings 2026-07, repaired and validated", async ({ page, request }) => {
  test.setTimeout(180_000);
  // The alerts come grouped by what caused them: the meters group names the landing, not the symptom.
  await page.goto("/alerts");
  const groups = page.getByTestId("alert-group");
  await expect(groups.filter({ hasText: "land_meter_readings 2026-07: half-written" })).toHaveCount(1);
  // The symptom's own row, as an analyst would meet it.
  const symptom = page.getByTestId("alert-row_count_out_of_band-meter_readings_deduped");
  await expect(symptom.getByTestId("alert-units")).toHaveText("2026-07");
  await symptom.getByRole("link", { name: "Open incident →" }).click();

  // The form asks for the symptom and proposes its cause.
  await expect(page).toHaveURL(/\/incidents\/new\?/);
  await expect(page.getByLabel("Failed task (node id)")).toHaveValue("job:meters:dedupe_readings");
  const cause = page.getByTestId("root-cause");
  await expect(cause.getByTestId("root-cause-roots")).toContainText("land_meter_readings");
  await expect(cause.getByTestId("root-cause-roots")).toContainText("2026-07: half-written");
  await expect(cause.getByRole("radio", { name: /Open on the root cause/ })).toBeChecked();
  await shot(page, "1-new-incident");
  await page.getByLabel(/Why you are opening it/).fill("meter_readings_deduped 2026-07 disagrees with its source count");
  await page.getByRole("button", { name: "Open the incident" }).click();
  await expect(page).toHaveURL(/\/incidents\/[a-z0-9]+$/);
  const id = page.url().split("/").pop()!;

  // The incident holds the cause; the symptom stays in its title.
  const incident = await (await request.get(`/api/v1/incidents/${id}`)).json();
  expect(incident.failedPairs).toEqual([{ nodeId: LAND, units: ["2026-07"] }]);
  expect(incident.title).toContain("meter_readings_deduped 2026-07");
  expect(incident.title).toContain("caused by land_meter_readings 2026-07");
  await expect(page.getByTestId("scope-land_meter_readings-task")).toBeVisible();
  await shot(page, "2-scope");
  await page.getByLabel(/Why this scope/).fill("the landing and everything built on it");
  await page.getByRole("button", { name: "Confirm scope →" }).click();

  await expect(page.getByRole("heading", { name: "2. Preconditions" })).toBeVisible();
  await page.getByLabel(/Review note/).fill("the landing appends; what it feeds replaces");
  await page.getByRole("button", { name: "Record review →" }).click();

  // 3. Response: the half-write's 120 rows are removed before the append runs again.
  await expect(page).toHaveURL(/\/incidents\/[^/]+\/response$/);
  const blocker = page.getByTestId("blocker-append_unresolved");
  await expect(blocker.getByTestId("append-unit-2026-07").getByTestId("rows-in-unit")).toHaveText("120 rows already in the unit");
  await page.getByTestId("clean-2026-07-open").click();
  await page.getByTestId("clean-2026-07").getByLabel(/Why/).fill("remove the 120 rows of the half-write");
  await page
    .getByTestId("clean-2026-07")
    .getByRole("button", { name: /^Confirm:/ })
    .click();
  await expect(page.getByTestId("no-blockers")).toBeVisible();
  await page.getByRole("button", { name: "Preview the plan →" }).click();

  // 4. Plan: the landing first, then what is built on it.
  await expect(page).toHaveURL(/\/incidents\/[^/]+\/plan$/);
  await expect(page.getByTestId("wave-0")).toContainText("land_meter_readings");
  await page.getByLabel(/Why this plan/).fill("re-land the month and rebuild what reads it");
  await page.getByRole("button", { name: "Confirm plan →" }).click();

  // 5. Execute, 6. Validate: the symptom converges because its cause was repaired.
  await expect(page).toHaveURL(/\/incidents\/[^/]+\/execute$/);
  await page.getByTestId("launch").click();
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 90_000 });
  await page.getByRole("button", { name: "Validate →" }).click();
  await expect(page.getByTestId("validation-verdict")).toContainText("Validation passes", { timeout: 20_000 });
  await expect(page.getByTestId("validation-meter_readings_raw-2026-07").getByTestId("rows")).toHaveText("200 / 200");
  await expect(page.getByTestId("validation-meter_readings_deduped-2026-07")).toBeVisible();
  await shot(page, "6-validate");

  const validation = await (await request.get(`/api/v1/incidents/${id}/validation`)).json();
  expect(validation.passed).toBe(true);
  expect(validation.units.filter((u: { passed: boolean }) => !u.passed)).toEqual([]);
  await page.getByTestId("resolve-open").click();
  await page.getByTestId("resolve").getByLabel(/Why/).fill("validated: the landing and its closure converged");
  await page
    .getByTestId("resolve")
    .getByRole("button", { name: /^Confirm:/ })
    .click();
  // Resolved, the wizard goes on to who is told of it (Communicate), then Close.
  await expect(page).toHaveURL(/\/incidents\/[^/]+\/communicate$/);
  await page.getByRole("button", { name: "Close →" }).click();
  await expect(page.getByTestId("close-status")).toContainText("resolved");

  // The alert that led here is gone with its cause.
  await page.goto("/alerts");
  await expect(page.getByTestId("alert-row_count_out_of_band-meter_readings_deduped")).toHaveCount(0);
  await expect(page.getByTestId("alert-group").filter({ hasText: "land_meter_readings" })).toHaveCount(0);
});
