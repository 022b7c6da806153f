import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { resetDemo } from "./reset-demo";

// The incident as people run it (issue 36 item 2), on the demo world: the incident opened on
// stg_orders 2026-08-17 shows its severity and why, the commander changes it with a reason and
// hands the incident over; the list shows both. Everything is read back from the served build.
test.describe.configure({ mode: "serial" });
test.beforeAll(() => resetDemo());
test.afterAll(() => resetDemo());

const SHOTS = path.resolve(__dirname, "..", process.env.E2E_OUTPUT_DIR ?? "test-results", "incident-people");
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
/** Nothing wider than the viewport: the page reads without a sideways scroll. */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test("the demo incident shows SEV2 and why; the commander sets SEV1 with a reason and hands over command; the list agrees", async ({ page, request }) => {
  test.setTimeout(90_000);
  const opened = await request.post("/api/v1/incidents", {
    data: { taskNodeId: "job:orders:stg_orders", units: ["2026-08-17"], reason: "stg_orders failed twice on 2026-08-17" },
  });
  expect(opened.status()).toBe(201);
  const incident = await opened.json();
  expect(incident.severity.level).toBe("SEV2");

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/incidents/${incident.id}`);
  const header = page.getByRole("region", { name: "Severity, commander and owners" });
  await expect(header.getByTestId("severity-badge")).toHaveText("SEV2");
  await expect(header.getByTestId("severity-source")).toHaveText("computed from the closure:");
  await expect(header.getByTestId("severity-reasons").getByRole("listitem").first()).toHaveText(
    "read outside the platform, not sent yet: weekly_revenue_export 2026-W34 → SEV2",
  );
  await expect(header.getByTestId("severity-reasons")).toContainText("3 consumers reached: Churn model team, Finance ledger (export recipient)");
  await expect(header.getByTestId("incident-commander")).toContainText("Dana Okafor (incident commander) (demo-commander)the opener, by default");
  await expect(header.getByTestId("incident-owners").getByRole("listitem")).toHaveCount(3);
  await expect(header.getByTestId("incident-owners")).toContainText("finance-team");
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  await shot(page, "1-computed-1440");

  // The commander weighs what the closure cannot see: finance already quoted the number.
  await header.getByRole("button", { name: "Change severity" }).click();
  const change = header.getByRole("group", { name: "Change severity" });
  await change.getByLabel("New severity").selectOption("SEV1");
  await change.getByLabel(/Why/).fill("finance quoted the August revenue to the board on Friday");
  await change.getByRole("button", { name: "Confirm: change severity" }).click();
  await expect(header.getByTestId("severity-badge")).toHaveText("SEV1");
  await expect(header.getByTestId("severity-source")).toHaveText("set by demo-commander: finance quoted the August revenue to the board on Friday");
  await expect(header.getByText("Computed from the closure:")).toContainText("SEV2");
  await expect(page.getByTestId("timeline-incident.severity_set")).toBeVisible();

  await header.getByRole("button", { name: "Assign" }).click();
  const assign = header.getByRole("form", { name: "Assign the commander" });
  await assign.getByLabel("User id (an operator or above)").fill("demo-operator");
  await assign.getByLabel(/Why/).fill("Lukas is on call tonight");
  await assign.getByRole("button", { name: "Confirm: assign" }).click();
  await expect(header.getByTestId("incident-commander")).toContainText("Lukas Brandt (data engineer on call) (demo-operator)assigned");
  await expect(page.getByTestId("timeline-incident.commander_set")).toBeVisible();

  // On the record, as the API answers.
  const detail = await (await request.get(`/api/v1/incidents/${incident.id}`)).json();
  expect(detail.severity).toMatchObject({ level: "SEV1", source: "set", setBy: "demo-commander", computed: { level: "SEV2" } });
  expect(detail.commander).toEqual({ userId: "demo-operator", name: "Lukas Brandt (data engineer on call)", assigned: true });

  // A phone: the header stacks, nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(header.getByTestId("severity-badge")).toBeVisible();
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  await shot(page, "2-set-390");

  await page.goto("/incidents");
  const row = page
    .getByTestId("incident-list")
    .getByRole("row")
    .filter({ has: page.getByRole("link", { name: incident.title }) });
  await expect(row.getByTestId("severity-badge")).toHaveText("SEV1");
  await expect(row).toContainText("Lukas Brandt (data engineer on call)");
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  await shot(page, "3-list-390");
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByRole("columnheader", { name: "Severity" })).toBeVisible();
  await shot(page, "4-list-1440");
});
