import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../../testing/test-database";
import { forgetUnitStateSnapshot, readKeptDatasets, readUnitStateSnapshot, writeUnitStateSnapshot } from "./unit-state-snapshots";

const at = new Date("2026-12-04T00:00:00Z");
const ids = Array.from({ length: 7 }, (_, i) => `ds-${i}`);

async function allKept(t: TestDatabase, page: number): Promise<{ datasetId: string; body: string }[]> {
  const out: { datasetId: string; body: string }[] = [];
  for (let after: string | null = null; ;) {
    const rows = await readKeptDatasets(t.db, after, page);
    out.push(...rows);
    if (rows.length < page) return out;
    after = rows.at(-1)!.datasetId;
  }
}

describe.each(providersUnderTest())("kept unit states, a row per dataset (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(provider);
  }, 120_000);
  afterAll(async () => t?.drop());

  it("keeps the header and the changed datasets together, reads them back page by page, and forgets datasets no longer listed", async () => {
    await writeUnitStateSnapshot(
      t.db,
      '{"v":1}',
      at,
      ids.map((id) => ({ datasetId: id, body: `first ${id}` })),
      ids,
      null,
    );
    expect((await allKept(t, 3)).map((r) => r.body)).toEqual(ids.map((id) => `first ${id}`));

    // ds-2 changed, ds-5 is gone from the catalog: one row rewritten, one forgotten, the rest kept.
    const later = new Date(at.getTime() + 60_000);
    await writeUnitStateSnapshot(
      t.db,
      '{"v":2}',
      later,
      [{ datasetId: "ds-2", body: "second ds-2" }],
      ids.filter((id) => id !== "ds-5"),
      '{"v":1}',
    );
    expect(await readUnitStateSnapshot(t.db)).toEqual({ body: '{"v":2}', computedAt: later });
    // Written over a header another console replaced since: nothing is written.
    expect(await writeUnitStateSnapshot(t.db, '{"v":3}', later, [{ datasetId: "ds-0", body: "third ds-0" }], ids, '{"v":1}')).toBe(false);
    expect(await writeUnitStateSnapshot(t.db, '{"v":3}', later, [{ datasetId: "ds-0", body: "third ds-0" }], ids, null)).toBe(false);
    expect((await readUnitStateSnapshot(t.db))?.body).toBe('{"v":2}');
    expect((await allKept(t, 2)).map((r) => `${r.datasetId}=${r.body}`)).toEqual([
      "ds-0=first ds-0",
      "ds-1=first ds-1",
      "ds-2=second ds-2",
      "ds-3=first ds-3",
      "ds-4=first ds-4",
      "ds-6=first ds-6",
    ]);

    await forgetUnitStateSnapshot(t.db);
    expect(await readUnitStateSnapshot(t.db)).toBeNull();
    expect(await readKeptDatasets(t.db, null, 10)).toEqual([]);
  });

  it("two consoles keeping the first states at once: one keeps them, the other is told another did, and neither fails", async () => {
    await forgetUnitStateSnapshot(t.db);
    const other = createDb(t.target); // a second console's connections to the same database
    try {
      const who = ["a", "b", "c", "d"];
      const keeps = await Promise.all(
        who.map((w, i) => writeUnitStateSnapshot(i % 2 ? other : t.db, `{"by":"${w}"}`, at, [{ datasetId: `ds-${w}`, body: w }], [`ds-${w}`], null)),
      );
      expect(keeps.filter(Boolean)).toHaveLength(1);
      const winner = who[keeps.indexOf(true)];
      expect((await readUnitStateSnapshot(t.db))?.body).toBe(`{"by":"${winner}"}`);
      expect((await allKept(t, 10)).map((r) => r.datasetId)).toEqual([`ds-${winner}`]);
    } finally {
      await other.$disconnect();
    }
  });
});
