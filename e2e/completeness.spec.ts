import { test, expect } from "./fixtures";
import { resetDemo } from "./reset-demo";

// The demo world: stg_orders 2026-08-17 and 2026-08-23 failed (nothing downstream was built), and
// 2026-08-10's retry appended a second copy that fct_orders and revenue_daily were built on.
test("revenue_daily for August 2026 is incomplete, naming 08-17 and 08-23 (never built) and 08-10 (duplicated upstream)", async ({ page }) => {
  await page.goto("/completeness");
  await page.getByLabel("Dataset", { exact: true }).selectOption("dataset:warehouse:revenue_daily");
  await page.getByLabel("Month").fill("2026-08");
  await expect(page.getByLabel("From key")).toHaveValue("2026-08-01");
  await expect(page.getByLabel("To key")).toHaveValue("2026-08-25"); // the definition ends on 08-25
  await page.getByRole("button", { name: "Check completeness" }).click();

  await expect(page).toHaveURL(/dataset=dataset%3Awarehouse%3Arevenue_daily&from=2026-08-01&to=2026-08-25/);
  await expect(page.getByTestId("verdict-word")).toHaveText("Incomplete");
  await expect(page.getByLabel("Month")).toHaveValue("2026-08"); // kept after the check

  // The analyst's answer leads: the dataset, the day, the effect on the number, who is on it.
  await expect(page.getByTestId("verdict-summary")).toHaveText("Do not quote this number as complete yet — 3 problems:");
  const aug10 = page.getByTestId("plain-2026-08-10");
  await expect(aug10.getByTestId("plain-sentence")).toHaveText(
    "revenue_daily for 2026-08-10 is probably overstated by about 50 %: it was built from stg_orders 2026-08-10, which holds 66 rows where the source has 44 (22 rows extra).",
  );
  await expect(aug10.getByTestId("on-it")).toHaveText("No one is on it yet: open an incident.");
  await expect(aug10.getByRole("link", { name: "open an incident" })).toHaveAttribute("href", "/incidents/new?node=job%3Aorders%3Astg_orders&units=2026-08-10");
  await expect(page.getByTestId("plain-2026-08-17").getByTestId("plain-sentence")).toHaveText(
    "revenue_daily has no figure for 2026-08-17: it was never built, because stg_orders 2026-08-17 failed. A total over the period leaves that day out.",
  );
  await expect(page.getByTestId("verdict")).not.toContainText("reasons across");

  // The engineer's details (headlines, states, run ids) are one click away.
  await expect(page.getByTestId("reasons-by-unit")).toBeHidden();
  await page.getByText("Engineer's details").click();
  const units = page.getByTestId("reasons-by-unit").locator("tbody tr");
  await expect(units).toHaveCount(3);
  await expect(page.getByTestId("reason-unit-2026-08-17").getByTestId("unit-headline")).toHaveText("never built: stg_orders failed");
  await expect(page.getByTestId("reason-unit-2026-08-23").getByTestId("unit-headline")).toHaveText("never built: stg_orders failed");
  await expect(page.getByTestId("reason-unit-2026-08-10").getByTestId("unit-headline")).toHaveText("built on duplicated upstream rows: stg_orders");
  await expect(page.getByTestId("reason-unit-2026-08-10")).toContainText("append attempts wrote 66 rows for 44 expected");
  await expect(page.getByTestId("reason-stg_orders-2026-08-17").getByRole("link", { name: "unit →" })).toHaveAttribute(
    "href",
    "/units/dataset%3Awarehouse%3Astg_orders?unit=2026-08-17",
  );
  await expect(page.getByTestId("freshness-unpublished")).toHaveText("Never published, so no age: 2026-08-17, 2026-08-23");
});

test("revenue_daily's status page says the certificate in one line, its badge shows it, and the certificate links to it", async ({ page, request }) => {
  await page.goto("/completeness?dataset=revenue_daily&from=2026-08-01&to=2026-08-25");
  await page.getByRole("link", { name: "its status line and badge, for a dashboard" }).click();
  await expect(page).toHaveURL(/\/status\/dataset%3Awarehouse%3Arevenue_daily$/);
  const line = "revenue_daily · complete through 2026-08-09 · 2026-08-10 overstated, 2026-08-17 missing, 2026-08-23 missing";
  await expect(page.getByTestId("status-headline")).toHaveText(line);
  await expect(page.getByTestId("status-word")).toHaveText("Not complete");
  await expect(page.getByTestId("status-problems").getByRole("listitem")).toHaveCount(3);
  const badge = page.getByTestId("status-badge");
  await expect(badge).toHaveAttribute("alt", line);
  await expect.poll(() => badge.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 100)).toBe(true);
  await expect(page.getByTestId("embed-badge")).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/datasets\/dataset%3Awarehouse%3Arevenue_daily\/badge\.svg$/);
  const svg = await request.get("/api/v1/datasets/dataset%3Awarehouse%3Arevenue_daily/badge.svg");
  expect(svg.headers()["content-type"]).toBe("image/svg+xml; charset=utf-8");
  expect(await svg.text()).toContain(`<title>${line}</title>`);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`status-${width}.png`), fullPage: true });
  }
  // Its pipeline's page holds the same line for it, among the others the pipeline writes.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole("link", { name: "the orders pipeline's status" }).click();
  await expect(page).toHaveURL(/\/status\/pipeline\/orders$/);
  await expect(page.getByTestId("status-headline")).toHaveText(/^orders · \d+ of \d+ datasets complete · \d+ not complete/);
  await expect(page.getByTestId("pipeline-datasets")).toContainText(line);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: test.info().outputPath(`pipeline-status-${width}.png`), fullPage: true });
  }
});

test("a deep link answers directly, and July 2026 is complete", async ({ page }) => {
  await page.goto("/completeness?dataset=revenue_daily&from=2026-07-01&to=2026-07-31");
  await expect(page.getByTestId("verdict-word")).toHaveText("Complete");
  await expect(page.getByTestId("verdict")).toContainText("31 expected units, checked with 4 upstream datasets");
  await expect(page.getByRole("heading", { name: "Reasons by unit" })).toHaveCount(0);
});

test("GET /api/v1/completeness returns the same certificate, 404 for an unknown dataset, 400 naming an invalid key", async ({ request }) => {
  const ok = await request.get("/api/v1/completeness?dataset=dataset:warehouse:revenue_daily&from=2026-08-01&to=2026-08-25");
  expect(ok.status()).toBe(200);
  const body = await ok.json();
  expect(body.verdict).toBe("incomplete");
  expect(body.byUnit.map((u: { unitKey: string }) => u.unitKey)).toEqual(["2026-08-10", "2026-08-17", "2026-08-23"]);
  // 2026-08-10 is published but built on the duplicated stg_orders day: suspect, not quotable.
  expect(body.reasons.filter((r: { role: string }) => r.role === "target").map((r: { unitKey: string; state: string }) => `${r.unitKey}:${r.state}`)).toEqual([
    "2026-08-10:suspect",
    "2026-08-17:blocked",
    "2026-08-23:blocked",
  ]);

  const unknown = await request.get("/api/v1/completeness?dataset=no_such_table");
  expect(unknown.status()).toBe(404);
  const invalid = await request.get("/api/v1/completeness?dataset=revenue_daily&from=2026-8-17");
  expect(invalid.status()).toBe(400);
  expect((await invalid.json()).message).toBe('query.from: "2026-8-17" is not a day key (expected yyyy-MM-dd)');
});

test.describe("with an incident on the duplicated day", () => {
  // It opens and abandons an incident: the demo is reloaded before and after, so the other
  // tests (and specs) see the demo as loaded, whatever order they run in.
  test.beforeAll(() => resetDemo());
  test.afterAll(() => resetDemo());

  test("the answer names the open incident on it; once abandoned, the audit log says so on its entries", async ({ page, request }) => {
    const opened = await request.post("/api/v1/incidents", {
      data: { taskNodeId: "job:orders:stg_orders", units: ["2026-08-10"], reason: "revenue_daily 2026-08-10 is overstated" },
    });
    expect(opened.status()).toBe(201);
    const { id, title } = await opened.json();
    expect(title).toBe("stg_orders 2026-08-10 duplicated");

    await page.goto("/completeness?dataset=revenue_daily&from=2026-08-01&to=2026-08-25");
    const onIt = page.getByTestId("plain-2026-08-10").getByTestId("on-it");
    await expect(onIt).toHaveText("Incident “stg_orders 2026-08-10 duplicated” is open on it.");
    await expect(onIt.getByRole("link", { name: "stg_orders 2026-08-10 duplicated" })).toHaveAttribute("href", `/incidents/${id}`);
    await expect(page.getByTestId("plain-2026-08-17").getByTestId("on-it")).toHaveText("No one is on it yet: open an incident.");

    expect((await request.post(`/api/v1/incidents/${id}/abandon`, { data: { reason: "checked in the e2e" } })).ok()).toBe(true);
    await page.goto(`/audit?incidentId=${id}`);
    const cells = page.getByTestId("audit-incident");
    await expect(cells).toHaveCount(2); // incident.opened, incident.abandoned
    for (const cell of await cells.all()) await expect(cell).toHaveText("stg_orders 2026-08-10 duplicated · abandoned");
  });
});
