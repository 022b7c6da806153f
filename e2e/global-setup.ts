import { execFileSync } from "node:child_process";
import path from "node:path";
import { E2E_DATABASE_URL } from "../playwright.config";

/**
 * The e2e database with the demo world, loaded by the same command operators use.
 *
 * Playwright starts the webServer BEFORE globalSetup (plugins first), and the server opens its
 * SQLite file on its first health check. Deleting the file here would leave the server on the
 * old, unlinked inode — it would never see this load or any spec's resetDemo(). So the file is
 * kept and the demo world is replaced in place (demo:load clears the previous one).
 */
export default function globalSetup(): void {
  execFileSync("npx", ["tsx", "scripts/demo-load.ts"], {
    cwd: path.resolve(__dirname, ".."),
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    stdio: "inherit",
  });
}
