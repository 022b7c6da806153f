import type { Page, TestInfo } from "@playwright/test";
import { test, expect } from "./fixtures";
import { importDbt, resetDemo } from "./reset-demo";

// Every page of the console at a desktop, a laptop and a phone width, on the demo world plus an
// imported dbt project (jaffle_shop: long model and dataset names): no page scrolls sideways, and
// each is kept as a screenshot in the test output to look at.
const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
] as const;
const STG = "job:orders:stg_orders";

test.describe.configure({ mode: "serial" });

let incidentId = "";
let dbtDataset = "";

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  resetDemo();
  importDbt("test/fixtures/dbt/ol_fixture_jaffle_postgres_run");
  const created = await request.post("/api/v1/incidents", {
    data: { taskNodeId: STG, units: ["2026-08-17"], reason: "stg_orders failed twice on 2026-08-17" },
  });
  expect(created.status()).toBe(201);
  incidentId = (await created.json()).id;
  const graph = await (await request.get("/api/v1/lineage-graph")).json();
  const customers = graph.nodes.find((n: { id: string; kind: string; name: string }) => n.kind === "dataset" && n.name.endsWith(".customers"));
  expect(customers, "the imported jaffle_shop project has a customers dataset").toBeTruthy();
  dbtDataset = customers.id;
});

test.afterAll(() => resetDemo());

function pages(): [string, string][] {
  const wizard = ["scope", "preconditions", "response", "plan", "execute", "validate", "communicate", "close"].map((s): [string, string] => [
    `wizard-${s}`,
    `/incidents/${incidentId}/${s}`,
  ]);
  return [
    ["overview", "/"],
    ["incidents", "/incidents"],
    ["new-incident", `/incidents/new?node=${encodeURIComponent(STG)}&units=2026-08-17`],
    ...wizard,
    ["lineage", "/lineage"],
    ["lineage-closure", `/lineage?node=${encodeURIComponent(STG)}&units=2026-08-17`],
    ["units", "/units"],
    ["units-stg_orders", `/units/${encodeURIComponent("dataset:warehouse:stg_orders")}`],
    ["units-dbt", `/units/${encodeURIComponent(dbtDataset)}`],
    ["completeness", "/completeness"],
    ["completeness-answer", "/completeness?dataset=revenue_daily&from=2026-08-01&to=2026-08-25"],
    ["history", "/history"],
    ["alerts", "/alerts"],
    ["audit", "/audit"],
    ["ingestion", "/settings/ingestion"],
    ["access", "/settings/access"],
    ["sign-in", "/sign-in"],
  ];
}

/** The page has drawn what it loads: no skeleton or busy region left, and the network quiet. */
async function settled(page: Page, name: string) {
  await page.waitForLoadState("networkidle");
  await expect(page.locator(".skeleton, [aria-busy='true'], [data-testid='lineage-loading']"), `${name} still loading`).toHaveCount(0, { timeout: 30_000 });
}

async function sweep(page: Page, testInfo: TestInfo, width: number) {
  const wide: string[] = [];
  for (const [name, url] of pages()) {
    await page.goto(url);
    await settled(page, name);
    const { scrollWidth, innerWidth, culprits } = await page.evaluate(() => {
      // The innermost elements reaching past the viewport's right edge name what widens the page.
      const past = [...document.querySelectorAll("body *")].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1);
      const innermost = past.filter((el) => !past.some((other) => other !== el && el.contains(other)));
      const describe = (el: Element) =>
        `${el.tagName.toLowerCase()}${el.className && typeof el.className === "string" ? "." + el.className.split(/\s+/).join(".") : ""} "${(el.textContent ?? "").trim().slice(0, 60)}" → ${Math.round(el.getBoundingClientRect().right)} px`;
      return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, culprits: innermost.slice(0, 3).map(describe) };
    });
    if (scrollWidth > innerWidth) wide.push(`${name} (${url}): ${scrollWidth} px; widest: ${culprits.join("; ")}`);
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: true });
  }
  expect(wide, `pages wider than the ${width} px viewport`).toEqual([]);
}

for (const viewport of VIEWPORTS) {
  test(`every page fits ${viewport.width} px without sideways scroll`, async ({ page }, testInfo) => {
    test.setTimeout(480_000);
    await page.setViewportSize(viewport);
    await sweep(page, testInfo, viewport.width);
  });
}

test("on a phone the navigation is a menu that opens, goes where it is told and closes", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  const menu = nav.getByRole("button", { name: /Overview/ });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(nav.getByRole("link", { name: "Alerts", exact: true })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Escape");
  await expect(nav.getByRole("link", { name: "Alerts", exact: true })).toBeHidden();
  await menu.click();
  await nav.getByRole("link", { name: "Alerts", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Alerts" })).toBeVisible();
  await expect(nav.getByRole("button", { name: /Alerts/ })).toHaveAttribute("aria-expanded", "false");
  await expect(nav.getByRole("link", { name: "Overview", exact: true })).toBeHidden();
});
