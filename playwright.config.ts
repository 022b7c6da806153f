import { defineConfig } from "@playwright/test";
import path from "node:path";
import { OIDC_PORT, SSO_ENV, SSO_PORT } from "./e2e/sso/sso-console";

// e2e runs against the real production build (`next start`) on its own SQLite database, loaded
// with the demo world by e2e/global-setup.ts. Chromium is Debian's package: nothing is downloaded.
const PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL ?? `file:${path.resolve(__dirname, "data/e2e.db")}`;
// The sign-in tests' console: production mode, its own fresh database, single sign-on.
const SSO_DB = path.resolve(__dirname, process.env.E2E_SSO_DB ?? "data/e2e-sso.db");
/** The folder the consoles may read named secret files from (REPARO_SECRET_DIR): specs write theirs here. */
export const E2E_SECRET_DIR = path.resolve(__dirname, "data/e2e-secrets");

export default defineConfig({
  testDir: "./e2e",
  // The closed loops against the real peers run on their own console (npm run test:peers).
  testIgnore: ["peers/**"],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  globalSetup: "./e2e/global-setup.ts",
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
      ],
    },
  },
  webServer: [
    {
      command: `npx next start -H 127.0.0.1 -p ${PORT}`,
      url: `http://127.0.0.1:${PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        DATABASE_URL: E2E_DATABASE_URL,
        NEXT_TELEMETRY_DISABLED: "1",
        REPARO_DEFAULT_USER: "demo-commander",
        REPARO_DEMO: "1",
        REPARO_SECRET_DIR: E2E_SECRET_DIR,
      },
    },
    {
      command: `node e2e/sso/oidc-provider.mjs`,
      url: `http://127.0.0.1:${OIDC_PORT}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: { OIDC_PORT: String(OIDC_PORT), CONSOLE_URL: `http://127.0.0.1:${SSO_PORT}` },
    },
    {
      command: `rm -f ${SSO_DB} ${SSO_DB}-wal ${SSO_DB}-shm && npx next start -H 127.0.0.1 -p ${SSO_PORT}`,
      url: `http://127.0.0.1:${SSO_PORT}/api/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { DATABASE_URL: `file:${SSO_DB}`, NEXT_TELEMETRY_DISABLED: "1", ...SSO_ENV },
    },
  ],
});
