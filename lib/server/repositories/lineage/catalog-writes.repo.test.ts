import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../../testing/test-database";
import { inOneTransaction } from "../../ingestion/in-one-transaction";
import { bulkInsert, type Column } from "../sql/bulk-sql";
import { ensureDatasets, ensureTasks } from "./catalog-writes";

// One OpenLineage request may hold 10,000 events, each naming several datasets. The catalog reads
// name them in IN lists, which must stay under the databases' bound-value limits (SQLite binds at
// most 32,766 per statement): one more than that. The lookups run in ingestion's own transaction
// (and its time limit): under a loaded CI machine they took 5.5 s, past Prisma's 5 s default.
const MANY = 32_767;
const refs = (kind: string) => Array.from({ length: MANY }, (_, i) => ({ nodeId: `${kind}:big:n_${i}`, namespace: "big", name: `n_${i}` }));
const COLUMNS: Column[] = [...["id", "nodeId", "namespace", "name"].map((name): Column => ({ name, type: "text" })), { name: "updatedAt", type: "timestamp" }];

describe.each(providersUnderTest())("%s: catalog lookups of a very large request", (provider) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(provider);
  });
  afterEach(async () => t.drop());

  it(`finds ${MANY.toLocaleString("en-US")} known datasets and tasks named in one request`, async () => {
    const now = new Date();
    await inOneTransaction(t.db, async (tx) => {
      await bulkInsert(
        tx,
        "Dataset",
        COLUMNS,
        refs("dataset").map((r, i) => ({ ...r, id: `d${i}`, updatedAt: now })),
      );
      await bulkInsert(
        tx,
        "Task",
        COLUMNS,
        refs("job").map((r, i) => ({ ...r, id: `t${i}`, updatedAt: now })),
      );
    });
    const [datasets, tasks] = await inOneTransaction(t.db, async (tx) => [await ensureDatasets(tx, refs("dataset")), await ensureTasks(tx, refs("job"))]);
    expect([datasets.size, tasks.size]).toEqual([MANY, MANY]);
    expect(datasets.get(`dataset:big:n_${MANY - 1}`)?.id).toBe(`d${MANY - 1}`);
    expect(tasks.get("job:big:n_0")?.id).toBe("t0");
    expect(await t.db.dataset.count()).toBe(MANY);
  }, 60_000);
});
