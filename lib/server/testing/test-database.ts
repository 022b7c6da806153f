import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createDb, type Db } from "../db/client";
import type { DatabaseTarget } from "../db/database-url";
import { migrate, migrationsDir, readMigrations } from "../db/migrate";

/**
 * Fresh, migrated databases for repository tests: a temporary SQLite file, and — when
 * REPARO_TEST_PG_URL names a PostgreSQL server (CI sets it) — a database created for the test
 * and dropped afterwards. `providersUnderTest()` lets a suite run once per provider.
 */
export type Provider = DatabaseTarget["provider"];

export interface TestDatabase {
  provider: Provider;
  target: DatabaseTarget;
  db: Db;
  drop(): Promise<void>;
}

export const PG_BASE_URL = process.env.REPARO_TEST_PG_URL ?? "";
const ROOT = path.resolve(__dirname, "../../..");
/** Prefix of the databases of this run (the global setup names the run; a stray process, its pid). */
export const TEST_DATABASE_PREFIX = `reparo_test_${process.env.REPARO_TEST_RUN ?? `p${process.pid}`}_`;

export function providersUnderTest(): Provider[] {
  return PG_BASE_URL ? ["sqlite", "postgresql"] : ["sqlite"];
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(PG_BASE_URL, "postgres") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** An empty database of the given kind, with no migrations applied. */
export async function emptyTarget(provider: Provider): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  const name = `${TEST_DATABASE_PREFIX}${crypto.randomBytes(5).toString("hex")}`;
  if (provider === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reparo-test-"));
    const file = path.join(dir, `${name}.db`);
    return {
      target: { provider, file, url: `file:${file}` },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (!PG_BASE_URL) throw new Error("REPARO_TEST_PG_URL is not set");
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = withDatabase(PG_BASE_URL, name);
  return {
    target: { provider, url, database: name },
    drop: async () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/**
 * A migrated database with a connected client. It is a copy of a template migrated once per set of
 * migrations (PostgreSQL `CREATE DATABASE … TEMPLATE`, a file copy for SQLite): applying every
 * migration took ~750 ms per PostgreSQL database and a copy ~70 ms, and the suite makes hundreds.
 * Dropping one is not waited for (a PostgreSQL drop waits on a checkpoint, up to seconds): the
 * run's global teardown drops what a worker left (test/repo-global-setup.ts).
 */
export async function createTestDatabase(provider: Provider): Promise<TestDatabase> {
  const hash = migrationsHash(provider);
  const template = await templateDatabase(provider, `reparo_tpl_${hash}`, async () => undefined);
  return connected(provider, await copyOf(provider, template));
}

/**
 * A migrated database with `build` applied, copied from a template this run builds once:
 * `name` must be unique to what `build` writes and to the code that writes it (the run's prefix
 * does the latter; see demo-test-database.ts).
 */
export async function createTestDatabaseFrom(provider: Provider, name: string, build: (db: Db) => Promise<void>): Promise<TestDatabase> {
  return connected(provider, await copyOf(provider, await templateDatabase(provider, name, build)));
}

function connected(provider: Provider, { target, drop }: { target: DatabaseTarget; drop(): Promise<void> }): TestDatabase {
  const db = createDb(target);
  return {
    provider,
    target,
    db,
    drop: async () => {
      await db.$disconnect();
      if (provider === "sqlite") return drop();
      void drop().catch(() => undefined);
    },
  };
}

function migrationsHash(provider: Provider): string {
  const files = readMigrations(migrationsDir(provider, ROOT));
  return crypto
    .createHash("sha256")
    .update(files.map((f) => `${f.name} ${f.checksum}`).join("\n"))
    .digest("hex")
    .slice(0, 16);
}

/** A template: a SQLite file path or a PostgreSQL database name. Built once (migrate, then `build`). */
async function templateDatabase(provider: Provider, name: string, build: (db: Db) => Promise<void>): Promise<string> {
  const building = `${name}_b${process.pid}${crypto.randomBytes(4).toString("hex")}`;
  const fill = async (target: DatabaseTarget) => {
    await migrate(target, ROOT);
    const db = createDb(target);
    try {
      await build(db);
    } finally {
      await db.$disconnect();
    }
  };
  if (provider === "sqlite") {
    const template = path.join(os.tmpdir(), `${name}.db`);
    if (!fs.existsSync(template)) {
      // Built beside it and renamed into place: a concurrent run sees the whole file or none.
      const file = path.join(os.tmpdir(), `${building}.db`);
      await fill({ provider, file, url: `file:${file}` });
      // Closing the last connection folds the write-ahead log into the file; copy nothing else.
      if (fs.existsSync(`${file}-wal`)) throw new Error(`${file}-wal left after building a template`);
      fs.renameSync(file, template);
    }
    return template;
  }
  if (!PG_BASE_URL) throw new Error("REPARO_TEST_PG_URL is not set");
  const admin = new pg.Client({ connectionString: withDatabase(PG_BASE_URL, "postgres") });
  await admin.connect();
  try {
    // One builder at a time across this run's workers and any other run on the server.
    await admin.query("SELECT pg_advisory_lock(7216354189)");
    try {
      const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
      if (found.rowCount === 0) {
        await admin.query(`CREATE DATABASE "${building}"`);
        await fill({ provider, url: withDatabase(PG_BASE_URL, building), database: building });
        // Nobody may connect to a template: a copy is refused while anyone is.
        await admin.query(`ALTER DATABASE "${building}" WITH ALLOW_CONNECTIONS false`);
        await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      }
    } finally {
      await admin.query("SELECT pg_advisory_unlock(7216354189)");
    }
    return name;
  } finally {
    await admin.end();
  }
}

async function copyOf(provider: Provider, template: string): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  if (provider === "sqlite") {
    const empty = await emptyTarget(provider);
    if (empty.target.provider === "sqlite") fs.copyFileSync(template, empty.target.file);
    return empty;
  }
  const name = `${TEST_DATABASE_PREFIX}${crypto.randomBytes(5).toString("hex")}`;
  await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  return {
    target: { provider, url: withDatabase(PG_BASE_URL, name), database: name },
    drop: async () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** Drops the databases a run left (its drops are not waited for) and its SQLite templates. */
export async function dropRunDatabases(prefix = TEST_DATABASE_PREFIX): Promise<void> {
  for (const f of fs.readdirSync(os.tmpdir())) if (f.startsWith(prefix)) fs.rmSync(path.join(os.tmpdir(), f), { force: true });
  if (!PG_BASE_URL) return;
  const admin = new pg.Client({ connectionString: withDatabase(PG_BASE_URL, "postgres") });
  await admin.connect();
  try {
    const left = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE starts_with(datname, $1)", [prefix]);
    for (const { datname } of left.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
