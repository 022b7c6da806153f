import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { resetDemo } from "./reset-demo";

// Every page of the console, at a desktop and a phone width, on the demo world: axe-core finds no
// critical or serious violation, and at 390 px no page scrolls sideways. The wizard is walked on an
// incident opened, scoped and cleaned through the API (the browser walk is repair-journey.spec.ts),
// before its repair runs and after.
test.beforeAll(() => {
  resetDemo();
  fs.mkdirSync(OUT, { recursive: true });
});
test.afterAll(() => resetDemo());

const AXE = fs.readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
const STG = "job:orders:stg_orders";
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
const OUT = path.resolve(__dirname, "..", process.env.E2E_OUTPUT_DIR ?? "test-results", "a11y");

type Violation = { id: string; impact: string | null; nodes: { target: string[] }[] };

/** The page has drawn what it loads: no skeleton or busy region left, and the network quiet. */
async function settled(page: Page) {
  await page.waitForLoadState("networkidle");
  await expect(page.locator(".skeleton, [aria-busy='true'], [data-testid='lineage-loading']")).toHaveCount(0, { timeout: 30_000 });
}

/** axe-core's violations of impact critical or serious on the page as it is now, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ["violations"] })).violations;
  });
  return violations
    .filter((v) => v.impact === "critical" || v.impact === "serious")
    .map(
      (v) =>
        `${v.id} (${v.impact}) ×${v.nodes.length}: ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(", ")}`,
    );
}

/**
 * The disabled buttons on screen that do not say why: none described by text on screen. A graph's
 * zoom buttons are left out: disabled at the zoom's limit, which is their whole reason.
 */
async function silentDisabledButtons(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLButtonElement>("button:disabled")]
      .filter((b) => b.checkVisibility() && !b.closest(".react-flow__controls"))
      .filter((b) =>
        (b.getAttribute("aria-describedby") ?? "")
          .split(/\s+/)
          .map((id) => document.getElementById(id))
          .every((why) => !why || !why.checkVisibility() || !why.textContent?.trim()),
      )
      .map((b) => b.textContent?.trim() || b.getAttribute("aria-label") || b.outerHTML.slice(0, 80)),
  );
}

/**
 * axe on the page at each width, every disabled button saying why, and at 390 px the page as wide
 * as the viewport; a screenshot of each, and what axe found in a11y/{name}-{width}.json. Soft:
 * every page and width is measured.
 */
async function check(page: Page, name: string, url: string) {
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await page.goto(url);
    await settled(page);
    await page.screenshot({ path: path.join(OUT, `${name}-${viewport.width}.png`), fullPage: true });
    const violations = await seriousViolations(page);
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    fs.writeFileSync(path.join(OUT, `${name}-${viewport.width}.json`), JSON.stringify({ name, width: viewport.width, scrollWidth, violations }));
    expect.soft(violations, `${name} at ${viewport.width} px: critical or serious axe violations`).toEqual([]);
    expect.soft(await silentDisabledButtons(page), `${name} at ${viewport.width} px: disabled buttons that do not say why`).toEqual([]);
    if (viewport.width === 390) expect.soft(scrollWidth, `${name} at 390 px: the page's width`).toBeLessThanOrEqual(innerWidth);
  }
}

const PAGES: [string, string][] = [
  ["overview", "/"],
  ["incidents", "/incidents"],
  ["new-incident", `/incidents/new?node=${encodeURIComponent(STG)}&units=2026-08-17`],
  ["lineage", "/lineage"],
  ["lineage-closure", `/lineage?node=${encodeURIComponent(STG)}&units=2026-08-17`],
  ["units", "/units"],
  ["units-stg_orders", `/units/${encodeURIComponent("dataset:warehouse:stg_orders")}`],
  ["completeness", "/completeness"],
  // The answered certificate: its evidence table scrolls sideways in a focusable region.
  ["completeness-answer", "/completeness?dataset=revenue_daily&from=2026-08-01&to=2026-08-25"],
  ["status-revenue_daily", `/status/${encodeURIComponent("dataset:warehouse:revenue_daily")}`],
  ["status-pipeline-orders", "/status/pipeline/orders"],
  ["history", "/history"],
  ["alerts", "/alerts"],
  ["audit", "/audit"],
  ["settings-ingestion", "/settings/ingestion"],
  ["settings-access", "/settings/access"],
  ["sign-in", "/sign-in"],
];

for (const [name, url] of PAGES)
  test(`${name}: no critical or serious axe violation at 1440 and 390 px, no sideways scroll`, ({ page }) => check(page, name, url));

async function post(request: APIRequestContext, p: string, data: unknown) {
  const res = await request.post(p, { data });
  expect(res.ok(), `${p}: ${await res.text()}`).toBe(true);
  return res.json();
}

let incident = "";
const step = (slug: string) => `/incidents/${incident}/${slug}`;

test.describe("the repair wizard", () => {
  test.describe.configure({ mode: "serial" });
  test.beforeAll(async ({ request }) => {
    const { id } = await post(request, "/api/v1/incidents", { taskNodeId: STG, units: ["2026-08-17"], reason: "e2e a11y: stg_orders failed on 2026-08-17" });
    incident = id;
    // The issue's repair: 2026-08-17 and 2026-08-23 with their closure, 2026-08-10's duplicate left
    // alone — so validation has reasons to give (running_balance is built on it).
    await post(request, `/api/v1/incidents/${id}/scope`, {
      reason: "running_balance cannot be rebuilt soundly without 2026-08-23",
      addPairs: [{ taskNodeId: STG, units: ["2026-08-23"] }],
    });
  });

  test("scope and preconditions, before review: axe, width; a disabled action says why", async ({ page }) => {
    await check(page, "wizard-scope", step("scope"));
    await check(page, "wizard-preconditions", step("preconditions"));
    const record = page.getByRole("button", { name: "Record review →" });
    await expect(record).toBeDisabled();
    const why = await record.getAttribute("aria-describedby");
    expect(why, "the disabled button is described by its reason").toBeTruthy();
    await expect(page.locator(`[id="${why}"]`)).toBeVisible();
    await expect(page.locator(`[id="${why}"]`)).not.toBeEmpty();
  });

  test("focus moves to each step's heading when the step changes, at the top of the page", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(step("scope"));
    await settled(page);
    for (const [link, heading] of [
      ["2. Preconditions", "2. Preconditions"],
      ["3. Response", "3. Response"],
      ["1. Scope", "1. Scope"],
    ]) {
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.getByRole("navigation", { name: "Repair steps" }).getByRole("link", { name: link }).click();
      await expect(page.getByRole("heading", { level: 2, name: heading })).toBeFocused();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
    }
  });

  test("response, plan (its exports are tabs) and execute before the run", async ({ page, request }) => {
    await post(request, `/api/v1/incidents/${incident}/preconditions`, { reason: "append task and sequential balance noted" });
    await check(page, "wizard-response-blocked", step("response"));
    const preview = page.getByRole("button", { name: "Preview the plan →" });
    await expect(preview).toBeDisabled();
    const why = await preview.getAttribute("aria-describedby");
    expect(why, "the disabled button is described by its reason").toBeTruthy();
    await expect(page.locator(`[id="${why}"]`)).toBeVisible();

    await post(request, `/api/v1/incidents/${incident}/clean-unit`, { taskNodeId: STG, unitKey: "2026-08-17", reason: "remove the partial append" });
    await check(page, "wizard-response", step("response"));
    await check(page, "wizard-plan", step("plan"));

    // WAI-ARIA tabs: one tab in the Tab order, arrows move between them and show their panel.
    const tabs = page.getByRole("tablist", { name: "Orchestrator" });
    const airflow = tabs.getByRole("tab", { name: "Airflow clear" });
    await expect(airflow).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel", { name: "Airflow clear" })).toContainText("clearTaskInstances");
    await expect(page.getByTestId("export-airflow")).toContainText("clearTaskInstances");
    await airflow.focus();
    await page.keyboard.press("ArrowRight");
    const dagster = tabs.getByRole("tab", { name: "Dagster backfill" });
    await expect(dagster).toBeFocused();
    await expect(dagster).toHaveAttribute("aria-selected", "true");
    await expect(airflow).toHaveAttribute("tabindex", "-1");
    await expect(page.getByRole("tabpanel", { name: "Dagster backfill" })).toBeVisible();
    await page.keyboard.press("End");
    await expect(tabs.getByRole("tab", { name: "dbt command" })).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(airflow).toBeFocused();
    await expect(page.getByTestId("export-airflow")).toContainText("clearTaskInstances");

    await check(page, "wizard-execute", step("execute"));
  });

  test("execute, validate and close after the run", async ({ page, request }) => {
    test.setTimeout(180_000);
    await post(request, `/api/v1/incidents/${incident}/plan`, { strategy: "targeted_with_closure", reason: "repair the failed days and their closure" });
    await post(request, `/api/v1/incidents/${incident}/launch`, {});
    await expect
      .poll(async () => (await (await request.get(`/api/v1/incidents/${incident}/progress`)).json()).run?.status, { timeout: 120_000 })
      .toMatch(/^(succeeded|failed|partial)$/);
    await check(page, "wizard-execute-done", step("execute"));
    await check(page, "wizard-validate", step("validate"));
    // Nothing of the table hides in a sideways scroll, at either width; each failing unit says why under its row.
    const failing = (
      (await (await request.get(`/api/v1/incidents/${incident}/validation`)).json()).units as { name: string; unitKey: string; failures: string[] }[]
    ).filter((u) => u.failures.length > 0);
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      const region = page.getByRole("region", { name: "Validation of each unit" });
      await expect(region).toBeVisible();
      expect(await region.evaluate((e) => e.scrollWidth - e.clientWidth), `the table at ${viewport.width} px scrolls sideways by`).toBe(0);
      for (const u of failing.slice(0, 3)) await expect(page.getByTestId(`validation-${u.name}-${u.unitKey}`)).toContainText(u.failures[0]!);
    }
    await check(page, "wizard-close", step("close"));
  });
});
