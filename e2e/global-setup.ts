import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { E2E_DATABASE_URL } from "../playwright.config";

/** A fresh e2e database with the demo world, loaded by the same command operators use. */
export default function globalSetup(): void {
  const file = E2E_DATABASE_URL.replace(/^file:/, "");
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  execFileSync("npx", ["tsx", "scripts/demo-load.ts"], {
    cwd: path.resolve(__dirname, ".."),
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL },
    stdio: "inherit",
  });
}
