import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { writeUnit, type WriteUnitSpec } from "./write-unit";

const AT = new Date("2026-08-18T02:00:00Z");
const rows = (n: number, tag = "v1", from = 0) => Array.from({ length: n }, (_, i) => ({ rowKey: `k${from + i}`, payload: { n: from + i, tag } }));

describe.each(providersUnderTest())("writeUnit on %s", (provider) => {
  let t: TestDatabase;
  let datasetId = "";
  let unit = 0;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
    datasetId = (await t.db.dataset.create({ data: { nodeId: "dataset:test:target", namespace: "test", name: "target" } })).id;
  });
  afterAll(async () => t.drop());

  // Each case writes its own unit, so the cases stay independent.
  const spec = (over: Partial<WriteUnitSpec>): WriteUnitSpec => ({
    datasetId,
    unitKey: `u${unit}`,
    mode: "append",
    rows: rows(10),
    atomic: false,
    attemptId: null,
    writtenAt: AT,
    ...over,
  });
  const count = (unitKey: string) => t.db.warehouseRow.count({ where: { datasetId, unitKey } });

  it("append keeps a failed try's rows and the retry adds a full copy (one and a half copies)", async () => {
    const unitKey = `u${++unit}`;
    const first = await writeUnit(t.db, spec({ unitKey, failure: { failAfterRows: 5 } }));
    expect(first).toEqual({ rowsWritten: 5, unitRowCount: null, error: "failed after writing 5 of 10 rows" });
    expect(await count(unitKey)).toBe(5);
    const retry = await writeUnit(t.db, spec({ unitKey }));
    expect(retry).toEqual({ rowsWritten: 10, unitRowCount: 15, error: null });
    expect(await count(unitKey)).toBe(15);
  });

  it("replace swaps the unit: a retry after a success or a partial write leaves exactly one copy", async () => {
    const unitKey = `u${++unit}`;
    await writeUnit(t.db, spec({ unitKey, mode: "replace", atomic: false, failure: { failAfterRows: 4 } }));
    expect(await count(unitKey)).toBe(4);
    expect((await writeUnit(t.db, spec({ unitKey, mode: "replace", atomic: true }))).unitRowCount).toBe(10);
    expect((await writeUnit(t.db, spec({ unitKey, mode: "replace", atomic: true, rows: rows(10, "v2") }))).unitRowCount).toBe(10);
    const tags = await t.db.warehouseRow.findMany({ where: { datasetId, unitKey }, select: { payload: true } });
    expect(new Set(tags.map((r) => (JSON.parse(r.payload) as { tag: string }).tag))).toEqual(new Set(["v2"]));
  });

  it("an atomic write that fails after row N leaves nothing, and an atomic replace keeps the old rows", async () => {
    const unitKey = `u${++unit}`;
    const failed = await writeUnit(t.db, spec({ unitKey, atomic: true, failure: { failAfterRows: 7, error: "boom" } }));
    expect(failed.rowsWritten).toBe(0);
    expect(failed.error).toBe("boom (atomic write rolled back: nothing left behind)");
    expect(await count(unitKey)).toBe(0);
    await writeUnit(t.db, spec({ unitKey, mode: "replace", atomic: true, rows: rows(3) }));
    await writeUnit(t.db, spec({ unitKey, mode: "replace", atomic: true, failure: { failAfterRows: 7 } }));
    expect(await count(unitKey)).toBe(3);
  });

  it("a non-atomic write that fails after row N leaves exactly the first N rows readable", async () => {
    const unitKey = `u${++unit}`;
    const r = await writeUnit(t.db, spec({ unitKey, rows: rows(1200), failure: { failAfterRows: 620 } }));
    expect(r.rowsWritten).toBe(620);
    const kept = await t.db.warehouseRow.findMany({ where: { datasetId, unitKey }, orderBy: { id: "asc" }, select: { rowKey: true } });
    expect(kept.map((k) => k.rowKey)).toEqual(rows(620).map((k) => k.rowKey));
    const none = await writeUnit(t.db, spec({ unitKey: `u${++unit}`, failure: { failBeforeWrite: true } }));
    expect(none).toEqual({ rowsWritten: 0, unitRowCount: null, error: "failed before writing any row" });
  });

  it("merge upserts on rowKey: retries overwrite the same keys, new keys are added", async () => {
    const unitKey = `u${++unit}`;
    await writeUnit(t.db, spec({ unitKey, mode: "merge", failure: { failAfterRows: 6 } }));
    await writeUnit(t.db, spec({ unitKey, mode: "merge", failure: { failAfterRows: 6 } }));
    expect((await writeUnit(t.db, spec({ unitKey, mode: "merge" }))).unitRowCount).toBe(10);
    const r = await writeUnit(t.db, spec({ unitKey, mode: "merge", rows: rows(6, "v2", 5) }));
    expect(r.unitRowCount).toBe(11);
    const k7 = await t.db.warehouseRow.findMany({ where: { datasetId, unitKey, rowKey: "k7" } });
    expect(k7.map((k) => JSON.parse(k.payload))).toEqual([{ n: 7, tag: "v2" }]);
  });

  it("runs onCommit in the completing transaction with the unit's row count, and not on failure", async () => {
    const unitKey = `u${++unit}`;
    const seen: number[] = [];
    await writeUnit(t.db, spec({ unitKey, onCommit: async (_tx, n) => void seen.push(n), failure: { failAfterRows: 2 } }));
    await writeUnit(t.db, spec({ unitKey, onCommit: async (_tx, n) => void seen.push(n) }));
    expect(seen).toEqual([12]);
  });
});
