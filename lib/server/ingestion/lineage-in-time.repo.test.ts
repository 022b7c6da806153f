import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listEdgesAt } from "../repositories/lineage/catalog-reads";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { receiveLineageRequest } from "../http/ingestion-requests";
import { fixtureEvents, lineageRequest } from "./testing/fixtures";

// marquez/apples.ndjson: gather_apples reads laurents-orchard/red.delicious on 2020-08-30,
// then backyard/crab.apples from 2020-10-15 13:00 (+10:00); prepare_apple_filling adds
// cupboard/sugar from 2020-10-15 15:00. A closure for an August run must see August's lineage.
describe.each(providersUnderTest())("lineage versioned in time on %s", (provider) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(provider);
  });
  afterEach(async () => t.drop());

  async function readsAt(iso: string): Promise<string[]> {
    const [edges, tasks, datasets] = await Promise.all([listEdgesAt(t.db, new Date(iso)), t.db.task.findMany(), t.db.dataset.findMany()]);
    const name = (id: string, rows: { id: string; name: string }[]) => rows.find((r) => r.id === id)!.name;
    return edges.map((e) => `${name(e.taskId, tasks)} ${e.direction} ${name(e.datasetId, datasets)}`).sort();
  }

  async function snapshot() {
    return {
      september: await readsAt("2020-09-10T00:00:00Z"),
      november: await readsAt("2020-11-01T00:00:00Z"),
      before: await readsAt("2020-08-01T00:00:00Z"),
    };
  }

  it.each([
    ["file order", false],
    ["reverse order", true],
  ])("gives each past instant its own edges (%s)", async (_, reverse) => {
    const events = fixtureEvents("marquez/apples.ndjson");
    for (const e of reverse ? events.reverse() : events) await receiveLineageRequest(lineageRequest(JSON.stringify(e)), t.db);
    const s = await snapshot();
    expect(s.before).toEqual([]);
    expect(s.september).toContain("gather_apples read red.delicious");
    expect(s.september).not.toContain("gather_apples read crab.apples");
    expect(s.september).not.toContain("prepare_apple_filling read sugar");
    expect(s.november).toContain("gather_apples read crab.apples");
    expect(s.november).not.toContain("gather_apples read red.delicious");
    expect(s.november).toContain("prepare_apple_filling read sugar");
    expect(s.november).toHaveLength(14 - 1);
    expect(await t.db.lineageEdge.count()).toBe(14);
  });
});
