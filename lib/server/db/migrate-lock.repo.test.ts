import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { emptyTarget, providersUnderTest } from "../testing/test-database";
import { migrate, migrationsDir, readMigrations } from "./migrate";
import { MIGRATION_LOCK_KEY, migrationLockWaitMs } from "./migrate-postgres";

const root = path.resolve(__dirname, "../../..");

describe("the migration lock's wait (REPARO_MIGRATION_LOCK_WAIT_SECONDS)", () => {
  it("is 120 s unless set, in seconds, and refuses what is not a positive number", () => {
    expect(migrationLockWaitMs(undefined)).toBe(120_000);
    expect(migrationLockWaitMs("")).toBe(120_000);
    expect(migrationLockWaitMs("7.5")).toBe(7_500);
    expect(() => migrationLockWaitMs("0")).toThrow('REPARO_MIGRATION_LOCK_WAIT_SECONDS: "0" is not a positive number of seconds');
    expect(() => migrationLockWaitMs("soon")).toThrow('REPARO_MIGRATION_LOCK_WAIT_SECONDS: "soon" is not a positive number of seconds');
  });
});

describe.skipIf(!providersUnderTest().includes("postgresql"))("PostgreSQL: a migration lock another session holds", () => {
  it("is waited for at most the bound, then the error names the holder; once let go, migrations apply", async () => {
    const { target, drop } = await emptyTarget("postgresql");
    const holder = new pg.Client({ connectionString: target.url, application_name: "stuck prisma migrate" });
    try {
      await holder.connect();
      await holder.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
      const holderPid = (await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid;

      const started = Date.now();
      const error = await migrate(target, root, { lockWaitMs: 1_500 }).then(
        () => null,
        (e: Error) => e,
      );
      const waited = Date.now() - started;
      expect(error?.message).toContain(
        "waited 1.5 s for the migration lock (PostgreSQL advisory lock 72707369, Prisma Migrate's): held by PostgreSQL backend pid ",
      );
      const user = decodeURIComponent(new URL(target.url).username);
      expect(error?.message).toMatch(
        new RegExp(`pid ${holderPid} \\(application "stuck prisma migrate", user ${user}, (from [0-9a-f.:]+|local socket), connected since 20\\d\\d-`),
      );
      expect(error?.message).toContain(
        `last query: "SELECT pg_backend_pid() AS pid") — let it finish, or end it with SELECT pg_terminate_backend(${holderPid})`,
      );
      expect(waited).toBeGreaterThanOrEqual(1_500);
      expect(waited).toBeLessThan(10_000);
      const tables = await holder.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'Pipeline'`);
      expect(tables.rowCount).toBe(0);

      await holder.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
      const result = await migrate(target, root, { lockWaitMs: 1_500 });
      expect(result.applied).toEqual(readMigrations(migrationsDir("postgresql", root)).map((m) => m.name));
      // The applier let go of the lock.
      const locks = await holder.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1`, [MIGRATION_LOCK_KEY]);
      expect(locks.rowCount).toBe(0);
    } finally {
      await holder.end().catch(() => undefined);
      await drop();
    }
  });
});
