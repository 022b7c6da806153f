import { test, expect } from "./fixtures";
import type { Locator, Page } from "@playwright/test";
import { importDbt, resetDemo } from "./reset-demo";

// The demo world as loaded (an earlier spec may have repaired or marked it), plus the imported
// jaffle_shop dbt project for a real graph's names: so this spec passes alone and in any order.
test.beforeAll(() => {
  test.setTimeout(180_000);
  resetDemo();
  importDbt("test/fixtures/dbt/ol_fixture_jaffle_postgres_run");
});
test.afterAll(() => resetDemo());

const STG_0817 = "/lineage?node=job%3Aorders%3Astg_orders&units=2026-08-17";

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

/** The demo's declared consumers the closure reaches: listed after it, drawn on the whole lineage. */
const CONSUMERS_0817: Record<string, string> = {
  "consumer:churn-model-team": "2026-08-17 of order_features",
  "consumer:finance-ledger": "2026-W34 of weekly_revenue_export",
  "consumer:revenue-dashboard": "2026-08-17 of revenue_daily",
};

/** `drawn`: how many closure nodes the canvas shows — 17 on the whole lineage (its consumers too), 14 alone. */
async function expectBlastRadiusOf0817(page: Page, drawn: 14 | 17) {
  const table = page.getByTestId("closure-table");
  await expect(table.locator("tbody tr")).toHaveCount(17);
  for (const [nodeId, units] of Object.entries(CONSUMERS_0817))
    await expect(page.getByTestId(`closure-row-${nodeId}`).getByTestId("closure-units")).toHaveText(units);
  for (const [nodeId, units] of Object.entries(EXPECTED)) {
    await expect(page.getByTestId(`closure-row-${nodeId}`).getByTestId("closure-units")).toHaveText(units);
    const node = page.getByTestId(`node-${nodeId}`);
    await expect(node).toHaveAttribute("data-closure", "in");
    await expect(node.getByTestId("node-units")).toHaveText(units);
  }
  await expect(page.locator('[data-testid^="node-"][data-closure="in"]')).toHaveCount(drawn);
  await expect(page.getByTestId("node-job:orders:stg_orders")).toHaveAttribute("data-seed", "true");
  await expect(page.getByTestId("closure-row-dataset:warehouse:running_balance")).toContainText("never ran");
}

test("selecting stg_orders 2026-08-17 from the current failures lights up exactly its blast radius", async ({ page }) => {
  await page.goto("/lineage");
  await expect(page.getByRole("heading", { name: "Lineage" })).toBeVisible();
  await expect(page.getByTestId("node-dataset:warehouse:raw_orders")).toHaveAttribute("data-closure", "out");
  await page
    .getByRole("list", { name: "Current failures" })
    .getByRole("button", { name: /stg_orders 2026-08-17/ })
    .click();
  await expect(page).toHaveURL(/node=job%3Aorders%3Astg_orders&units=2026-08-17/);
  await expectBlastRadiusOf0817(page, 17);
  await expect(page.getByTestId("closure-table")).toContainText("Downstream closure (blast radius): 14 nodes in 8 waves, read by 3 consumers");
  // The consumers are nodes of the whole lineage, lit with the closure that reaches them.
  await expect(page.getByTestId("node-consumer:finance-ledger")).toHaveAttribute("data-closure", "in");
  await expect(page.getByTestId("node-consumer:finance-ledger")).toContainText("export recipient");
});

test("who must know: stg_orders 2026-08-17 reaches the finance export's and the ML features' owners, and their consumers", async ({ page }) => {
  await page.goto(STG_0817);
  const card = page.getByTestId("closure-people");
  await expect(card.getByTestId("selected-people-owners")).toHaveText("orders-team — declared");
  const recipients = card.getByTestId("closure-recipients").locator("li");
  await expect(recipients).toHaveCount(6);
  await expect(card.getByTestId("recipient-owner:finance-team")).toContainText("owns weekly_revenue_export");
  await expect(card.getByTestId("recipient-owner:ml-team")).toContainText("owns build_order_features, order_features");
  await expect(card.getByTestId("recipient-consumer:finance-ledger")).toContainText("Finance ledger (export recipient)");
  await expect(card.getByTestId("recipient-consumer:finance-ledger")).toContainText("reads weekly_revenue_export");
  await expect(card.getByTestId("recipient-consumer:finance-ledger")).toContainText("Accounts payable · via the default webhook");
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await card.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await card.screenshot({ path: test.info().outputPath(`who-must-know-${width}.png`) });
  }
});

test("a pasted link opens the same picture; upstream on demand; a collapsed pipeline stays collapsed", async ({ page }) => {
  await page.goto("/lineage?node=job%3Aorders%3Astg_orders&units=2026-08-17&collapsed=meters");
  await expectBlastRadiusOf0817(page, 14);
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

/** getBoundingClientRect of an element, in CSS pixels of the page. */
const rectOf = (l: Locator) =>
  l.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
const within = (inner: { x: number; y: number; width: number; height: number }, outer: typeof inner) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

/** A node name's type size on screen: its font size times the canvas's zoom. */
const labelPx = (label: Locator) =>
  label.evaluate((e) => {
    const transform = (e.closest(".react-flow__viewport") as HTMLElement).style.transform;
    return parseFloat(getComputedStyle(e).fontSize) * Number(/scale\(([\d.]+)\)/.exec(transform)?.[1] ?? "1");
  });

/**
 * The lineage is framed on `seed` at a zoom where node names are at least 10 px on screen (font
 * size × zoom): the seed is wholly in the canvas, and so is every name counted in view. Returns
 * the names in view, and notes the smallest.
 */
async function expectLegiblyFramedOn(page: Page, seed: string): Promise<string[]> {
  const canvas = page.getByTestId("lineage-canvas");
  const label = page.getByTestId(`node-${seed}`).getByTestId("node-label");
  await expect
    .poll(async () => within(await rectOf(page.getByTestId(`node-${seed}`)), await rectOf(canvas)), { message: `${seed} is framed in the canvas` })
    .toBe(true);
  await expect.poll(() => labelPx(label), { message: `${seed}'s name is legible` }).toBeGreaterThanOrEqual(10);
  const box = await rectOf(canvas);
  const inView = await page.locator('[data-testid="node-label"]').evaluateAll(
    (els, c) =>
      els.flatMap((e) => {
        const r = e.getBoundingClientRect();
        return r.x >= c.x && r.y >= c.y && r.x + r.width <= c.x + c.width && r.y + r.height <= c.y + c.height ? [e.textContent ?? ""] : [];
      }),
    box,
  );
  expect(inView.length, "names in view").toBeGreaterThan(1);
  const px = await labelPx(label);
  expect(px).toBeGreaterThanOrEqual(10);
  test.info().annotations.push({ type: "names", description: `${seed}: ${inView.length} names in view, ${px.toFixed(1)} px` });
  return inView;
}

/**
 * Every node of the shown closure: whether its box lies wholly in the canvas and in the window,
 * and its name's size on screen.
 */
async function closureOnScreen(page: Page) {
  const canvas = await rectOf(page.getByTestId("lineage-canvas"));
  const window = { x: 0, y: 0, ...page.viewportSize()! };
  return Promise.all(
    (await page.locator('[data-testid^="node-"][data-closure="in"]').all()).map(async (node) => {
      const box = await rectOf(node);
      return {
        id: (await node.getAttribute("data-testid"))!,
        inCanvas: within(box, canvas),
        inView: within(box, canvas) && within(box, window),
        px: await labelPx(node.getByTestId("node-label")),
      };
    }),
  );
}

test("opened on stg_orders 2026-08-17 at 1440 px: its closure laid out alone, all 14 nodes in view, names ≥ 10 px, badges inside their nodes", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(STG_0817);
  await expectBlastRadiusOf0817(page, 14);
  await expect(page.getByTestId("lineage-outside")).toHaveText("The closure alone: all 14 nodes in view");
  // Only the closure is drawn: the lineage around it (raw_orders upstream, the meters pipeline) is not.
  await expect(page.locator(".react-flow__node")).toHaveCount(14);
  await expect(page.getByTestId("node-dataset:warehouse:raw_orders")).toHaveCount(0);
  await expect
    .poll(async () => (await closureOnScreen(page)).filter((n) => !n.inView || n.px < 10).map((n) => n.id), {
      message: "closure nodes out of view or illegible",
    })
    .toEqual([]);
  const shown = await closureOnScreen(page);
  expect(shown).toHaveLength(14);
  test.info().annotations.push({
    type: "1440",
    description: `${shown.filter((n) => n.inView).length} of 14 in view, names ${Math.min(...shown.map((n) => n.px)).toFixed(1)} px`,
  });
  await page.screenshot({ path: test.info().outputPath("closure-alone-1440.png") });
  // running_balance's badge (and every other) stays inside its node.
  await expect(page.getByTestId("node-dataset:warehouse:running_balance").getByTestId("node-holding")).toHaveText(["never ran"]);
  for (const node of await page.locator('[data-testid^="node-"][data-closure="in"]').all()) {
    const outer = await rectOf(node);
    for (const badge of await node.getByTestId("node-holding").all())
      expect(within(await rectOf(badge), outer), `${await node.getAttribute("data-testid")}: badge inside`).toBe(true);
    expect(within(await rectOf(node.getByTestId("node-units")), outer)).toBe(true);
  }

  // The way back: the whole lineage around it, framed legibly from the failed node, what is outside counted.
  await page.getByRole("button", { name: "Show the whole lineage" }).click();
  await expect(page).toHaveURL(/show=all/);
  await expect(page.getByTestId("node-dataset:warehouse:raw_orders")).toHaveAttribute("data-closure", "out");
  await expectLegiblyFramedOn(page, "job:orders:stg_orders");
  // On the whole lineage the closure's consumers are drawn too (in the consumers' box): 17.
  await expect(page.getByTestId("lineage-outside")).toHaveText(/^\d+ of \d+ nodes outside the view · \d+ of the closure's 17 \(listed below\)$/);
  const whole = await closureOnScreen(page);
  test.info().annotations.push({ type: "1440 whole", description: `${whole.filter((n) => n.inView).length} of ${whole.length} in view` });
  await page.getByRole("button", { name: "Show the closure alone" }).click();
  await expect(page).not.toHaveURL(/show=all/);
  await expect(page.getByTestId("lineage-outside")).toHaveText("The closure alone: all 14 nodes in view");
});

test("opened on stg_orders 2026-08-17 on a phone: the closure alone from the failed node, names ≥ 10 px, the rest a pan away, nothing sideways", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(STG_0817);
  await expect(page.getByTestId("closure-table").locator("tbody tr")).toHaveCount(17);
  await expect(page.locator(".react-flow__node")).toHaveCount(14);
  await page.getByTestId("lineage-canvas").scrollIntoViewIfNeeded();
  const inView = await expectLegiblyFramedOn(page, "job:orders:stg_orders");
  const shown = await closureOnScreen(page);
  for (const n of shown) expect(n.px, `${n.id}'s name`).toBeGreaterThanOrEqual(10);
  const outside = shown.filter((n) => !n.inCanvas).length;
  await expect(page.getByTestId("lineage-outside")).toHaveText(`${outside} of the closure's 14 nodes outside the view`);
  test.info().annotations.push({
    type: "390",
    description: `${14 - outside} of 14 in view (${inView.length} names), names ${Math.min(...shown.map((n) => n.px)).toFixed(1)} px`,
  });
  await page.getByTestId("lineage-canvas").screenshot({ path: test.info().outputPath("closure-alone-390.png") });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // Panning brings the rest: dragging the canvas to the left shows a node that was outside.
  const canvas = await rectOf(page.getByTestId("lineage-canvas"));
  const before = shown.filter((n) => n.inCanvas).map((n) => n.id);
  // From a point of the bare pane (a drag that starts on a node does not pan), to the left.
  const start = await page.evaluate((c) => {
    for (let x = c.x + c.width - 10; x > c.x + c.width / 2; x -= 10)
      for (let y = c.y + 10; y < c.y + c.height - 10; y += 10) if (document.elementFromPoint(x, y)?.classList.contains("react-flow__pane")) return { x, y };
    return null;
  }, canvas);
  expect(start, "a bare point of the pane").not.toBeNull();
  await page.mouse.move(start!.x, start!.y);
  await page.mouse.down();
  await page.mouse.move(start!.x - 250, start!.y, { steps: 10 });
  await page.mouse.up();
  await expect
    .poll(async () => (await closureOnScreen(page)).filter((n) => n.inCanvas && !before.includes(n.id)).length, { message: "a node brought into view" })
    .toBeGreaterThan(0);
});

test("an imported dbt project is one flow box; opened on one of its models, names are ≥ 10 px and long ones are cut with the whole name on hover and focus", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const graph = (await (await request.get("/api/v1/lineage-graph")).json()) as {
    nodes: { id: string; name: string; kind: string; pipeline: string; namespace: string }[];
  };
  const dbt = graph.nodes.filter((n) => n.name.includes("jaffle_shop") || n.namespace.startsWith("postgres://"));
  expect(dbt.length).toBe(36);
  expect([...new Set(dbt.map((n) => n.pipeline))]).toEqual(["dbt-run-jaffle_shop"]);
  const model = dbt.find((n) => n.kind === "task" && n.name === "model.jaffle_shop.stg_orders")!;
  await page.goto(`/lineage?node=${encodeURIComponent(model.id)}&show=all`);
  await expect(page.getByTestId("closure-table")).toContainText("Downstream closure (blast radius)");
  await expect(page.getByTestId("pipeline-dbt-run-jaffle_shop")).toBeVisible();
  await expect(page.getByTestId("pipeline-postgres://localhost:5432")).toHaveCount(0);
  await expectLegiblyFramedOn(page, model.id);

  // A dbt node shows its own name: not the project every node shares, not a test's hash. A test's
  // name is far longer than its node: cut at its end, whole in the tooltip and the accessible name.
  await expect(page.getByTestId(`node-${model.id}`).getByTestId("node-label")).toHaveText("stg_orders");
  const longest = dbt.filter((n) => n.kind === "task").sort((a, b) => b.name.length - a.name.length)[0]!;
  const label = page.getByTestId(`node-${longest.id}`).getByTestId("node-label");
  const own = /^test\.jaffle_shop\.(.+)\.[0-9a-f]{10}$/.exec(longest.name)![1]!;
  await expect(label).toHaveText(own);
  expect(await label.evaluate((e) => e.scrollWidth > e.clientWidth), "the long name is cut").toBe(true);
  await expect(label).toHaveAttribute("title", longest.name);
  const flowNode = page.locator(`.react-flow__node[data-id="${longest.id}"]`);
  await expect(flowNode).toHaveAccessibleName(`task ${longest.name} in dbt-run-jaffle_shop`);
  await flowNode.focus();
  await expect(flowNode.getByText(longest.name, { exact: true }).last()).toBeVisible();
});

test("Fit all shows every node of the lineage in the canvas", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${STG_0817}&show=all`);
  await expect(page.getByTestId("lineage-outside")).toHaveText(/nodes outside the view/);
  await page.getByRole("button", { name: "Fit all" }).click();
  const total = (await (await page.request.get("/api/v1/lineage-graph")).json()).nodes.length as number;
  await expect(page.getByTestId("lineage-outside")).toHaveText(`All ${total} nodes in view`);
  await expect(page.getByRole("button", { name: "Fit all" })).toHaveCount(0);
  const canvas = await rectOf(page.getByTestId("lineage-canvas"));
  const nodes = page.locator('[data-testid^="node-"][data-closure]');
  await expect(nodes).toHaveCount(total);
  const outside = await nodes.evaluateAll(
    (els, c) =>
      els
        .filter((e) => {
          const r = e.getBoundingClientRect();
          return r.x < c.x - 0.5 || r.y < c.y - 0.5 || r.x + r.width > c.x + c.width + 0.5 || r.y + r.height > c.y + c.height + 0.5;
        })
        .map((e) => e.getAttribute("data-testid")),
    canvas,
  );
  expect(outside).toEqual([]);
});

test("an incident opened from a selected failure lands on the incident for that task and its units", async ({ page }) => {
  await page.goto(STG_0817);
  await expectBlastRadiusOf0817(page, 14);
  await page.getByRole("link", { name: "Open an incident for these units" }).click();
  await expect(page).toHaveURL(/\/incidents\/new\?node=job%3Aorders%3Astg_orders&units=2026-08-17$/);
  await expect(page.getByLabel("Failed task (node id)")).toHaveValue("job:orders:stg_orders");
  await expect(page.getByLabel(/Failed units/)).toHaveValue("2026-08-17");
  await page.getByLabel(/Why you are opening it/).fill("stg_orders 2026-08-17 failed: opened from its blast radius on the lineage");
  await page.getByRole("button", { name: "Open the incident" }).click();
  await expect(page).toHaveURL(/\/incidents\/[a-z0-9]+(\/[a-z]+)?$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("stg_orders 2026-08-17");
  await expect(page.getByTestId("scope-stg_orders-task")).toContainText("2026-08-17");
});
