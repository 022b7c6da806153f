// npm run db:check-migrations — proves each provider's committed migrations reproduce its schema
// (prisma/models.prisma, composed by prisma-schemas.mjs): Prisma replays
// prisma/<provider>/migrations into a shadow database and diffs the result against
// prisma/<provider>/schema.prisma. Exit 0 when both match; 1 printing the SQL a new migration needs
// (drift) or the error. Offline: the schema engine is the stand-in vendored beside this file.
// PostgreSQL's shadow database is a randomly named throw-away database on the server
// REPARO_TEST_PG_URL names (default: the local one), dropped afterwards.
// npm run db:new-migration -- <name> writes that SQL instead, as
// prisma/<provider>/migrations/<UTC timestamp>_<name>/migration.sql for each provider that needs it.
//   node scripts/prisma-check-migrations.mjs [--write <name>] [sqlite|postgresql]...
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "..");
const cli = path.join(root, "node_modules/prisma/build/index.js");
const engine = path.join(root, "scripts/prisma-schema-engine.mjs");
const pgBase = process.env.REPARO_TEST_PG_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const EMPTY = "-- This is an empty migration.";

function withDatabase(url, database) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

function redact(url) {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}

async function adminQuery(sql) {
  const client = new pg.Client({ connectionString: pgBase, connectionTimeoutMillis: 10_000 });
  await client.connect().catch((e) => {
    throw new Error(`postgresql: the shadow database's server (REPARO_TEST_PG_URL=${redact(pgBase)}) is unreachable: ${e.message}`);
  });
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Runs `prisma migrate diff` from the migrations to the schema; returns the SQL still missing, "" when none. */
function diff(provider, env) {
  const args = [
    cli,
    "migrate",
    "diff",
    "--from-migrations",
    `prisma/${provider}/migrations`,
    "--to-schema",
    `prisma/${provider}/schema.prisma`,
    "--script",
    "--exit-code",
  ];
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    encoding: "utf8",
    timeout: 300_000,
    env: { ...process.env, ...env, PRISMA_SCHEMA_ENGINE_BINARY: engine, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
  });
  const out = (r.stdout ?? "").trim();
  // --exit-code: 0 no difference, 2 a difference, anything else an error. A 0 must also say so
  // in its output, so an engine that died silently is never taken for "no drift".
  if (r.status === 0 && out === EMPTY) return "";
  if (r.status === 2 && out) return out;
  throw new Error(`prisma migrate diff (${provider}) failed, exit ${r.status ?? r.signal}:\n${(r.stderr || out).trim()}`);
}

const checks = {
  sqlite: async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reparo-migcheck-"));
    try {
      return diff("sqlite", { DATABASE_URL: `file:${path.join(dir, "scratch.db")}` });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
  postgresql: async () => {
    const shadow = `reparo_migcheck_${crypto.randomBytes(5).toString("hex")}`;
    await adminQuery(`CREATE DATABASE "${shadow}"`);
    try {
      return diff("postgresql", { DATABASE_URL: pgBase, REPARO_SHADOW_DATABASE_URL: withDatabase(pgBase, shadow) });
    } finally {
      await adminQuery(`DROP DATABASE IF EXISTS "${shadow}" WITH (FORCE)`);
    }
  },
};

const args = process.argv.slice(2);
const writeAt = args.indexOf("--write");
const newName = writeAt >= 0 ? args.splice(writeAt, 2)[1] : null;
if (writeAt >= 0 && !/^[a-z0-9_]+$/.test(newName ?? "")) {
  console.error("--write needs a migration name of lower-case letters, digits and _ (e.g. pipeline_owner_optional)");
  process.exit(2);
}
for (const p of args)
  if (!(p in checks)) {
    console.error(`unknown provider "${p}" (sqlite, postgresql)`);
    process.exit(2);
  }
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
let drift = false;
for (const provider of args.length ? args : Object.keys(checks)) {
  const started = Date.now();
  const missing = await checks[provider]().catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  if (!missing) {
    console.log(`${provider}: prisma/${provider}/migrations reproduce prisma/${provider}/schema.prisma (${took})`);
    continue;
  }
  if (newName) {
    const file = path.join("prisma", provider, "migrations", `${stamp}_${newName}`, "migration.sql");
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), missing + "\n");
    console.log(`${provider}: wrote ${file} — read it before you commit it (${took})`);
    continue;
  }
  drift = true;
  console.error(
    `${provider}: prisma/${provider}/migrations do NOT reproduce prisma/${provider}/schema.prisma. ` +
      `Add a migration (npm run db:new-migration -- <name>; docs/development.md) holding:\n${missing}\n`,
  );
}
if (drift) process.exit(1);
