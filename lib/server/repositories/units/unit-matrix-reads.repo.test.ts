import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prismaOf } from "../prisma-handle";
import { createTestDatabase, type TestDatabase } from "../../testing/test-database";
import { aggregatedSql, ATTEMPT_READ, LATEST_VERSION_READ, PUBLISH_READ } from "./unit-matrix-reads";

/**
 * A first computation reads every ledger row and attempt, a dataset or a task at a time. On
 * SQLite each read is one ordered walk of a covering index; through the table it was a page per
 * row, ~10× the time at a million units (docs/units.md). A field read and not indexed breaks that.
 */
describe("the first computation's reads on SQLite", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
  }, 120_000);
  afterAll(async () => t?.drop());

  it.each([
    ["publishes", PUBLISH_READ, "Publish"],
    ["latest input versions", LATEST_VERSION_READ, "Publish"],
    ["attempts", ATTEMPT_READ, "Attempt"],
  ] as const)("reads %s from a covering index, never the table", async (_, read, table) => {
    const plan = await prismaOf(t.db).$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${aggregatedSql("sqlite", read)}`, "x");
    expect(plan.map((p) => p.detail)).toEqual([expect.stringMatching(new RegExp(`^SEARCH ${table} USING COVERING INDEX \\S+ \\(${read.owner}=\\?\\)$`))]);
  });
});
