import { test as base, expect, type Page } from "@playwright/test";
import { OIDC_PORT, sealedSession, SSO_URL } from "./sso/sso-console";

/**
 * Console errors fail a test as everywhere (fixtures.ts) — but only the console's own: the
 * provider's development login pages load fonts from the internet, which these machines block.
 */
const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        if (msg.type() === "error" && msg.location().url.startsWith(SSO_URL)) errors.push(`${msg.location().url}: ${msg.text()}`);
      });
      page.on("pageerror", (err) => {
        if (page.url().startsWith(SSO_URL)) errors.push(err.message);
      });
      await use(errors);
      expect(errors, "console errors in Chromium on the console's pages").toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Single sign-on against a real OpenID provider (oidc-provider, started by playwright.config.ts)
 * on a console in production mode: sign in, the role comes from the groups, act, sign out; an
 * expired session is refused; a role limited to a namespace holds only there.
 */
async function signIn(page: Page, login: string): Promise<void> {
  await page.goto(`${SSO_URL}/sign-in`);
  await page.getByTestId("sign-in-oidc").click();
  await page.locator("input[name=login]").fill(login);
  await page.locator("input[name=password]").fill("any");
  await page.locator("button[type=submit]").click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(`${SSO_URL}/`);
}

test("an admin signs in through the provider, sees the role its groups give, creates a token, signs out", async ({ page }) => {
  const home = await page.goto(`${SSO_URL}/`);
  const headers = home!.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["x-frame-options"]).toBe("DENY");
  await expect(page.getByTestId("whoami")).toContainText("Not signed in");
  expect((await page.request.post(`${SSO_URL}/api/v1/lineage`, { data: {} })).status()).toBe(401);

  await signIn(page, "ada");
  await expect(page.getByTestId("whoami-role")).toHaveText("admin");
  await page.goto(`${SSO_URL}/settings/access`);
  await expect(page.getByTestId("user-ada")).toContainText("Ada Admin");
  const form = page.getByRole("form", { name: "Create a token" });
  await form.getByLabel("Name", { exact: true }).fill("airflow-e2e");
  await form.getByLabel("Why").fill("the Airflow provider");
  await form.getByRole("button", { name: "Create" }).click();
  const secret = (await page.getByTestId("token-secret").locator("pre").first().innerText()).trim();
  expect(secret).toMatch(/^rpt_/);
  const event = {
    eventType: "COMPLETE",
    eventTime: "2026-11-30T02:10:00Z",
    producer: "https://example.com/e2e",
    schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
    run: { runId: "0190a8f3-1c2d-7e4f-8a9b-0c1d2e3f4a5b" },
    job: { namespace: "orders", name: "load" },
    inputs: [],
    outputs: [{ namespace: "warehouse", name: "orders" }],
  };
  const ingested = await page.request.post(`${SSO_URL}/api/v1/lineage`, { data: event, headers: { authorization: `Bearer ${secret}`, cookie: "" } });
  expect(ingested.status()).toBe(200);
  await page.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("token-airflow-e2e")).toContainText("active");
  await page.goto(`${SSO_URL}/audit`);
  await expect(page.getByTestId("audit-token.created").first()).toBeVisible();

  await page.getByTestId("whoami").getByRole("button", { name: "Sign out" }).click();
  // RP-initiated logout: the provider asks, then sends the browser back to the console.
  await page.waitForURL((u) => u.host === `127.0.0.1:${OIDC_PORT}` && u.pathname.startsWith("/session/end"));
  await page.getByRole("button", { name: /yes/i }).click();
  await page.waitForURL(`${SSO_URL}/sign-in?signed-out=1`);
  await expect(page.getByText("You are signed out of Reparo.")).toBeVisible();
  await expect(page.getByTestId("whoami")).toContainText("Not signed in");
});

test("an operator of orders: role and namespace from the groups; not an admin; refused on another namespace's repair", async ({ page }) => {
  await signIn(page, "ola");
  await expect(page.getByTestId("whoami-role")).toHaveText("operator in orders");
  await page.goto(`${SSO_URL}/settings/access`);
  await expect(page.getByTestId("access-not-admin")).toContainText("Only an admin manages access");
  const origin = { origin: SSO_URL };
  const meters = await page.request.post(`${SSO_URL}/api/v1/incidents`, {
    data: { taskNodeId: "job:meters:land", units: ["2026-07"], reason: "meters broke" },
    headers: origin,
  });
  expect(meters.status()).toBe(403);
  expect((await meters.json()).message).toContain("holds in orders only; this concerns meters");
  expect((await page.request.get(`${SSO_URL}/api/v1/access/tokens`)).status()).toBe(403);
});

test("a person in no mapped group is a viewer: reads, and every change is refused", async ({ page }) => {
  await signIn(page, "vic");
  await expect(page.getByTestId("whoami-role")).toHaveText("viewer");
  await page.goto(`${SSO_URL}/incidents`);
  await expect(page.getByRole("heading", { name: "Incidents", level: 1 })).toBeVisible();
  const res = await page.request.post(`${SSO_URL}/api/v1/incidents`, {
    data: { taskNodeId: "job:orders:stg_orders", units: ["2026-08-17"], reason: "viewer try" },
    headers: { origin: SSO_URL },
  });
  expect(res.status()).toBe(403);
  expect((await res.json()).message).toBe("vic is a viewer; this needs the operator role");
});

test("an expired session is refused: the browser is anonymous again and changes answer 401", async ({ page, context }) => {
  await context.addCookies([{ name: "reparo_session", value: await sealedSession("ada", new Date(Date.now() - 60_000)), url: SSO_URL }]);
  await page.goto(`${SSO_URL}/`);
  await expect(page.getByTestId("whoami")).toContainText("Not signed in");
  expect(
    (
      await page.request.post(`${SSO_URL}/api/v1/access/tokens`, { data: { name: "x", scope: "ingest", reason: "expired" }, headers: { origin: SSO_URL } })
    ).status(),
  ).toBe(401);
  // The same user's fresh session works: only the expiry was refused.
  await context.addCookies([{ name: "reparo_session", value: await sealedSession("ada", new Date(Date.now() + 3_600_000)), url: SSO_URL }]);
  await page.reload();
  await expect(page.getByTestId("whoami-role")).toHaveText("admin");
});
