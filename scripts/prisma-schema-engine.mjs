#!/usr/bin/env node
// A stand-in for Prisma's native `schema-engine` binary, for DEVELOPMENT and CI only (the console
// applies its migrations itself: lib/server/db/migrate.ts). The Prisma CLI downloads that binary
// from binaries.prisma.sh before `migrate diff|dev|status`; these machines cannot reach it. This
// file speaks the binary's JSON-RPC-over-stdio protocol and runs Prisma's official WebAssembly
// build of the same engine (@prisma/schema-engine-wasm, pinned in package.json to the prisma
// CLI's engines hash) on a JS driver adapter chosen from the datasource URL:
//   PRISMA_SCHEMA_ENGINE_BINARY=scripts/prisma-schema-engine.mjs npx prisma migrate diff ...
//
// Provenance and licence: vendored on 2026-12-02 from the team's development tool
// ../shared/tools/prisma-wasm-schema-engine.mjs (written for this project; a user's clone and CI
// have no ../shared), with packages resolved from this repository instead of the working
// directory, PostgreSQL scripts sent whole (fault 6 below), a configurable shadow database, and a
// refusal to run without a datasource URL. It contains no Prisma source code; it loads, unmodified
// from npm, @prisma/schema-engine-wasm, @prisma/driver-adapter-utils, @prisma/adapter-pg and
// @prisma/adapter-better-sqlite3 — all Apache-2.0, © Prisma Data, Inc.
//
// It works around six upstream faults of the wasm path:
//  1. SQLite: P1014 on a database without `_prisma_migrations` (the wasm engine reports the table
//     missing instead of treating the database as fresh) → the table is created on connect.
//  2. SQLite: P3006 when the shadow replay sends a multi-statement migration.sql to executeRaw.
//  3. PostgreSQL: `Column type 'name' could not be deserialized` (prisma/orm#27403) → `name` and
//     `"char"` columns of pg_catalog are read as text.
//  4. PostgreSQL: adapter-pg's shadow database connects to the MAIN database when configured with
//     a connectionString, and drops the shadow database before closing its pool.
//  5. `migrate diff` printing nothing: the native engine prints through a "print" request.
//  6. PostgreSQL: adapter-pg's executeScript splits a script on every ";", which cuts a
//     dollar-quoted function body (our append-only triggers) → the script is sent as one simple
//     query, which PostgreSQL runs statement by statement itself.
// Still failing with it: `migrate dev` on a database with pending migrations (run `migrate deploy`
// first); SQLite `migrate reset` (delete the file instead).
//
// The shadow database: SQLite uses an in-memory one. PostgreSQL uses REPARO_SHADOW_DATABASE_URL
// when set (an existing, empty database the caller creates and drops: scripts/prisma-check-
// migrations.mjs does), else a randomly named database it creates next to DATABASE_URL and drops.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

// Packages come from this repository's node_modules, whatever the working directory.
const require = createRequire(import.meta.url);
const importPackage = (name) => import(pathToFileURL(require.resolve(name)).href);

const argv = process.argv.slice(2);
if (argv.includes("--version")) {
  console.log("schema-engine-cli wasm-stand-in");
  process.exit(0);
}
const datamodels = [];
let datasource = null;
let cliCmd = null;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--datamodels") {
    const f = argv[++i];
    datamodels.push([f, fs.readFileSync(f, "utf8")]);
  } else if (argv[i] === "--datasource") datasource = JSON.parse(argv[++i]);
  else if (argv[i] === "cli") cliCmd = argv[++i];
  else if (argv[i].startsWith("--")) i++; // --enabled-preview-features, --extension-types
}
const log = (level, message, extra = {}) =>
  process.stderr.write(JSON.stringify({ level, fields: { message, ...extra }, target: "schema_engine::logger" }) + "\n");

const isPostgres = (url) => /^postgres(ql)?:\/\//.test(url);

function pgConfig(url, database) {
  const u = new URL(url);
  return {
    host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password), database: database ?? decodeURIComponent(u.pathname.slice(1)),
  };
}

// The DDL the native schema engine uses for SQLite.
const MIGRATIONS_TABLE_DDL = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
);`;

function patchPgAdapter(adapter) {
  let proto = Object.getPrototypeOf(adapter);
  while (proto && !Object.hasOwn(proto, "performIO")) proto = Object.getPrototypeOf(proto);
  if (proto && !proto.__reparoPatched) { // fault 3, once per class
    proto.__reparoPatched = true;
    const io = proto.performIO;
    proto.performIO = async function (q) {
      const r = await io.call(this, q);
      for (const f of r.fields ?? []) if (f.dataTypeID === 19 || f.dataTypeID === 18) f.dataTypeID = 25;
      return r;
    };
  }
  adapter.executeScript = async function (script) { // fault 6
    try {
      await this.client.query(script);
    } catch (e) {
      this.onError(e);
    }
  };
  return adapter;
}

async function makeAdapter(url) {
  if (isPostgres(url)) {
    const { PrismaPg } = await importPackage("@prisma/adapter-pg");
    const shadowUrl = datasource?.shadowDatabaseUrl ?? process.env.REPARO_SHADOW_DATABASE_URL;
    class PgMigrate extends PrismaPg {
      constructor(cfg) {
        super(cfg);
        this.cfg = cfg;
      }
      async connect() {
        return patchPgAdapter(await super.connect());
      }
      async connectToShadowDb() { // fault 4
        if (shadowUrl) return new PgMigrate(pgConfig(shadowUrl)).connect();
        const admin = await this.connect();
        const name = `prisma_shadow_${randomUUID().replace(/-/g, "")}`;
        await admin.executeScript(`CREATE DATABASE "${name}"`);
        const shadow = await new PgMigrate({ ...this.cfg, database: name }).connect();
        const close = shadow.dispose.bind(shadow);
        shadow.dispose = async () => {
          await close();
          await admin.executeScript(`DROP DATABASE IF EXISTS "${name}"`);
          await admin.dispose();
        };
        return shadow;
      }
    }
    return new PgMigrate(pgConfig(url));
  }
  if (url.startsWith("file:")) {
    const { PrismaBetterSqlite3 } = await importPackage("@prisma/adapter-better-sqlite3");
    class SqliteMigrate extends PrismaBetterSqlite3 {
      async connect() { // fault 1
        const a = await super.connect();
        await a.executeScript(MIGRATIONS_TABLE_DDL);
        return a;
      }
      async connectToShadowDb() { // fault 2
        const s = await super.connectToShadowDb();
        const raw = s.executeRaw.bind(s);
        s.executeRaw = async (q) =>
          q.args.length === 0 && /;\s*\S/.test(q.sql.replace(/--.*$/gm, "")) ? (await s.executeScript(q.sql), 0) : raw(q);
        return s;
      }
    }
    // The native engine resolves a relative SQLite path against the schema file's folder.
    let file = url.slice(5);
    if (!file.startsWith("/") && file !== ":memory:" && datamodels[0]) {
      file = path.resolve(path.dirname(path.resolve(datamodels[0][0])), file);
    }
    return new SqliteMigrate({ url: "file:" + file });
  }
  throw new Error(`unsupported datasource URL scheme "${url.split(":")[0]}:" (file: or postgresql://)`);
}

async function loadEngine() {
  const bgPath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bg = await import(pathToFileURL(bgPath).href);
  const mod = new WebAssembly.Module(fs.readFileSync(path.join(path.dirname(bgPath), "schema_engine_bg.wasm")));
  const inst = new WebAssembly.Instance(mod, { "./schema_engine_bg.js": bg });
  bg.__wbg_set_wasm(inst.exports);
  inst.exports.__wbindgen_start?.();
  return bg.SchemaEngine;
}

const url = datasource?.url ?? process.env.DATABASE_URL;
if (!url) {
  // The CLI reports a silent engine exit as success, so say it loudly on stderr.
  const message = "prisma-schema-engine.mjs: no datasource URL — set DATABASE_URL (file:/abs/path.db or postgresql://…)";
  process.stderr.write(message + "\n");
  log("ERROR", message, { error_code: "P1012" });
  process.exit(1);
}

if (cliCmd) { // `schema-engine --datasource {...} cli can-connect-to-database|create-database|drop-database`
  try {
    if (cliCmd === "create-database" && isPostgres(url)) { // through the maintenance database
      const { PrismaPg } = await importPackage("@prisma/adapter-pg");
      const name = pgConfig(url).database;
      const admin = await new PrismaPg(pgConfig(url, "postgres")).connect();
      const found = await admin.queryRaw({ sql: `SELECT 1 FROM pg_database WHERE datname = '${name.replace(/'/g, "''")}'`, args: [], argTypes: [] });
      if (found.rows.length === 0) await admin.executeScript(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      await admin.dispose();
      process.exit(0);
    }
    const factory = await makeAdapter(url);
    if (cliCmd === "can-connect-to-database" || cliCmd === "create-database") {
      const a = await factory.connect();
      await a.queryRaw({ sql: "SELECT 1", args: [], argTypes: [] });
      await a.dispose();
    } else throw new Error(`cli ${cliCmd} is not supported by the wasm stand-in`);
    process.exit(0);
  } catch (e) {
    log("ERROR", String(e?.message ?? e), { error_code: "P1001" });
    process.exit(1);
  }
}

const { bindMigrationAwareSqlAdapterFactory } = await importPackage("@prisma/driver-adapter-utils");
const SchemaEngine = await loadEngine();
const adapter = bindMigrationAwareSqlAdapterFactory(await makeAdapter(url));
const engine = await SchemaEngine.new(
  { datamodels: datamodels.length ? datamodels : undefined },
  (line) => process.stderr.write(String(line).trimEnd() + "\n"),
  adapter,
);

const send = (o) => process.stdout.write(JSON.stringify(o) + "\n");
let queue = Promise.resolve();
readline
  .createInterface({ input: process.stdin, crlfDelay: Infinity })
  .on("line", (line) => {
    if (!line.trim()) return;
    const req = JSON.parse(line);
    if (!req.method) return; // the CLI's answer to our "print" request
    queue = queue.then(async () => {
      const method = req.method === "getDatabaseVersion" ? "version" : req.method;
      try {
        if (typeof engine[method] !== "function") throw new Error(`method not supported by the wasm stand-in: ${req.method}`);
        const result = await engine[method](req.params ?? {});
        if (method === "diff" && result?.stdout != null) { // fault 5
          send({ jsonrpc: "2.0", id: `print-${req.id}`, method: "print", params: { content: result.stdout.replace(/\n$/, "") } });
          delete result.stdout;
        }
        send({ jsonrpc: "2.0", id: req.id, result: result === undefined ? null : result });
      } catch (e) {
        const registryErr = e?.name === "SchemaConnectorError" ? adapter.errorRegistry?.consumeError?.(e.id) : undefined;
        const message = String(e?.message ?? e);
        send({
          jsonrpc: "2.0", id: req.id,
          error: {
            code: 4466, message,
            data: {
              is_panic: e instanceof WebAssembly.RuntimeError, message, error_code: e?.code ?? undefined, meta: e?.meta,
              ...(registryErr ? { cause: registryErr } : {}),
            },
          },
        });
      }
    });
  })
  .on("close", () => queue.then(() => process.exit(0)));
