// Generates one Prisma client per provider, offline. The Prisma CLI tries to download its native
// schema engine before any command unless PRISMA_SCHEMA_ENGINE_BINARY names an existing file;
// `generate` never runs that file, so this script names itself.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
execFileSync(process.execPath, [path.join(root, "scripts/prisma-schemas.mjs")], { stdio: "inherit" });
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? fileURLToPath(import.meta.url),
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
};
const cli = path.join(root, "node_modules/prisma/build/index.js");
for (const provider of ["sqlite", "postgresql"]) {
  execFileSync(process.execPath, [cli, "generate", "--schema", `prisma/${provider}/schema.prisma`], {
    cwd: root,
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
}
console.log("prisma clients generated: sqlite, postgresql");
