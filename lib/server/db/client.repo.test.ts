import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inTransaction, providerOf } from "../repositories/database";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";

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
