import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createDb, type Db } from "../db/client";
import type { DatabaseTarget } from "../db/database-url";
import { migrate } from "../db/migrate";

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
  const name = `reparo_test_${crypto.randomBytes(5).toString("hex")}`;
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

/** A migrated database with a connected client. */
export async function createTestDatabase(provider: Provider): Promise<TestDatabase> {
  const { target, drop } = await emptyTarget(provider);
  await migrate(target, path.resolve(__dirname, "../../.."));
  const db = createDb(target);
  return {
    provider,
    target,
    db,
    drop: async () => {
      await db.$disconnect();
      await drop();
    },
  };
}
