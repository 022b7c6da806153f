import { defineConfig } from "@playwright/test";
import path from "node:path";

/**
 * The closed loops against the REAL peers of the lab (docs/peers-lab.md): a production-mode
 * console of its own — its own build folder (.next-peers: the main e2e's .next may be in use),
 * port, fresh SQLite database and secret folder — beside the real Airflow that peers/lab.sh
 * runs. The specs (e2e/peers/) bring their peer up themselves; scripts/test-peers.sh builds the
 * console when needed, runs them and takes the peers down.
 */
export const PEERS_PORT = Number(process.env.REPARO_PEERS_PORT ?? 3300);
export const PEERS_URL = `http://127.0.0.1:${PEERS_PORT}`;
export const PEERS_DB = path.resolve(__dirname, "data/peers.db");
export const PEERS_DATABASE_URL = `file:${PEERS_DB}`;
/** The folder the console may read named secret files from (REPARO_SECRET_DIR). */
export const PEERS_SECRET_DIR = path.resolve(__dirname, "data/peers-secrets");
/** Where each spec writes its result (`<peer>.json`), merged by scripts/test-peers.sh. */
export const PEERS_RESULTS = path.resolve(__dirname, "test-results/peers");
/**
 * Traces, screenshots and command logs: NOT under test-results/, which the main e2e run (maybe
 * running on this machine meanwhile) empties when it starts.
 */
export const PEERS_ARTIFACTS = path.resolve(__dirname, "test-results-peers");
const DIST_DIR = ".next-peers";

export default defineConfig({
  testDir: "./e2e/peers",
  // A peer's journey runs its real orchestrator: minutes, not seconds (each spec sets its own).
  timeout: 600_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  // Playwright empties its output folder first: a folder of its own.
  outputDir: path.join(PEERS_ARTIFACTS, "playwright"),
  use: {
    baseURL: PEERS_URL,
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
  webServer: {
    // A fresh database for every run: the specs make its first admin with the CLI, as production does.
    command: `rm -f ${PEERS_DB} ${PEERS_DB}-wal ${PEERS_DB}-shm && mkdir -p ${PEERS_SECRET_DIR} && npx next start -H 127.0.0.1 -p ${PEERS_PORT}`,
    url: `${PEERS_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      DATABASE_URL: PEERS_DATABASE_URL,
      NEXT_DIST_DIR: DIST_DIR,
      NEXT_TELEMETRY_DISABLED: "1",
      // Production mode: anonymous reads, every change signed in or with a token.
      REPARO_DEMO: "0",
      REPARO_SECRET_DIR: PEERS_SECRET_DIR,
      REPARO_PUBLIC_URL: PEERS_URL,
      // The Dagster source's period (docs/dagster-source.md; default 15 s): the lab's runs take seconds.
      REPARO_DAGSTER_POLL_SECONDS: "3",
    },
  },
});
