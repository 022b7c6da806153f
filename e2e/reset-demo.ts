import { execFileSync } from "node:child_process";
import path from "node:path";
import { E2E_DATABASE_URL } from "../playwright.config";

/**
 * Reloads the demo world into the e2e database (the server keeps running). Specs that change
 * state (incidents, repairs, marks) call it in beforeAll and afterAll so every spec starts from
 * the same demo.
 */
export function resetDemo(): void {
  execFileSync("npx", ["tsx", "scripts/demo-load.ts"], {
    cwd: path.resolve(__dirname, ".."),
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    stdio: "ignore",
  });
}
