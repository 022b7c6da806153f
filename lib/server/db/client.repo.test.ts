import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction, providerOf } from "../repositories/database";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { prismaOf } from "../repositories/prisma-handle";
import { bulkInsert, insertNew } from "../repositories/sql/bulk-sql";
import { pgConnectionOf } from "./client";

/**
 * Another process writes between the start of a transaction and its first write, while a query
 * of another request runs on the console's one SQLite connection. With a deferred BEGIN that
 * query turned the transaction into a reader with a stale snapshot and its first write failed at
 * once with SQLITE_BUSY_SNAPSHOT (CI: `demo:load` beside a starting console). Transactions take
 * the write lock when they begin, so the other writer waits (here: fails fast) instead.
 */
describe("SQLite transactions beside another writer", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
  });
  afterAll(async () => t.drop());

  it("commits though another connection tries to write before the transaction's first write", async () => {
    if (t.target.provider !== "sqlite") throw new Error("sqlite only");
    const other = new Database(t.target.file, { timeout: 0 });
    let otherWrote = false;
    try {
      await t.db.$transaction(async (tx) => {
        await t.db.user.findMany(); // another request's read on the same connection
        try {
          other.prepare(`INSERT INTO "User" (id, displayName, role, createdAt) VALUES ('other', 'Other', 'viewer', 0)`).run();
          otherWrote = true;
        } catch (e) {
          expect((e as { code?: string }).code).toBe("SQLITE_BUSY");
        }
        await tx.user.create({ data: { id: "mine", displayName: "Mine", role: "viewer" } });
      });
    } finally {
      other.close();
    }
    expect(otherWrote).toBe(false);
    expect((await t.db.user.findMany({ select: { id: true } })).map((u) => u.id)).toEqual(["mine"]);
  });
});

describe.each(providersUnderTest())("the provider of a %s client", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
  });
  afterAll(async () => t.drop());

  it("is the one its configuration named, for the client and for its transactions", async () => {
    expect(providerOf(t.db)).toBe(provider);
    expect(await inTransaction(t.db, async (tx) => providerOf(tx))).toBe(provider);
  });
});

/**
 * The fold's bulk writes go on the connection a transaction holds (pgConnectionOf), beside
 * Prisma's statements: they must see what the transaction wrote, be seen by it, and roll back
 * with it — on the wrong connection they would commit on their own, or wait on the
 * transaction's row locks forever.
 */
describe.each(providersUnderTest())("bulk writes in a %s transaction", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
  });
  afterAll(async () => t.drop());

  const user = (id: string) => ({ id, displayName: id, role: "viewer", createdAt: new Date("2026-12-01T00:00:00Z") });
  const columns = [
    { name: "id", type: "text" as const },
    { name: "displayName", type: "text" as const },
    { name: "role", type: "text" as const },
    { name: "createdAt", type: "timestamp" as const },
  ];

  it("are the transaction's: seen inside it, committed with it, rolled back with it", async () => {
    const seen = await inTransaction(t.db, async (tx) => {
      await prismaOf(tx).user.create({ data: user("by-prisma") });
      // A unique violation here would mean the bulk write does not see the row above.
      expect(await insertNew(tx, "User", columns, [user("by-prisma"), user("bulk-1")], "id")).toEqual(["bulk-1"]);
      await bulkInsert(tx, "User", columns, [user("bulk-2")]);
      return (await prismaOf(tx).user.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((u) => u.id);
    });
    expect(seen).toEqual(["bulk-1", "bulk-2", "by-prisma"]);
    await expect(
      inTransaction(t.db, async (tx) => {
        await bulkInsert(tx, "User", columns, [user("bulk-3")]);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect((await prismaOf(t.db).user.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((u) => u.id)).toEqual(["bulk-1", "bulk-2", "by-prisma"]);
    if (provider === "postgresql") expect(await inTransaction(t.db, async (tx) => (await pgConnectionOf(prismaOf(tx))) !== null)).toBe(true);
  });
});
