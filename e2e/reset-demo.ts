import { execFileSync } from "node:child_process";
import path from "node:path";
import { test } from "@playwright/test";
import { E2E_DATABASE_URL } from "../playwright.config";

/**
 * Loading the demo world or running a CLI takes seconds on a quiet machine and over a minute on a
 * loaded one: the hook or test that does it gets that much more time, so a busy CI machine does
 * not fail a spec in its beforeAll.
 */
function allowFor(ms: number): void {
  const info = test.info();
  info.setTimeout(info.timeout + ms);
}

/**
 * Reloads the demo world into the e2e database (the server keeps running). Specs that change
 * state (incidents, repairs, marks) call it in beforeAll and afterAll so every spec starts from
 * the same demo.
 */
export function resetDemo(): void {
  allowFor(120_000);
  execFileSync("npx", ["tsx", "scripts/demo-load.ts"], {
    cwd: path.resolve(__dirname, ".."),
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    stdio: "ignore",
  });
}

/** Imports a dbt project's target folder (manifest.json, run_results.json) as `npm run import:dbt` does. */
export function importDbt(targetDir: string): void {
  allowFor(60_000);
  execFileSync("npx", ["tsx", "scripts/import-dbt.ts", targetDir], {
    cwd: path.resolve(__dirname, ".."),
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    stdio: "ignore",
  });
}

/** The e2e admin, made with the CLI as production mode makes the first admin (again on a re-run, where it exists). */
export function ensureAdmin(id: string, reason: string): void {
  allowFor(60_000);
  const users = (...args: string[]) =>
    execFileSync("npx", ["tsx", "scripts/users.ts", ...args], {
      cwd: path.resolve(__dirname, ".."),
      env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
      stdio: "ignore",
    });
  try {
    users("add", id, "--role", "admin", "--name", "E2E admin", "--reason", reason);
  } catch {
    users("set-role", id, "--role", "admin", "--reason", reason);
  }
}
