import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { appendPublishes } from "../repositories/ledger/ingested-runs";
import { getUnitStateSnapshot } from "./state-service";
import { loadUnitStates } from "./load-unit-states";
import { toCodes } from "./state-codes";

// An update after writes recomputes only the units they touched (recompute-units.ts), reading
// their records by key; the first computation reads whole datasets. Both must give every unit
// the same state: a repair's republish (the run's kind, read apart, makes it repaired rather than
// a duplicate), a second scheduled publish of a unit, a unit published for the first time.
const NOW = new Date("2026-11-29T12:00:00Z");

describe.each(providersUnderTest())("the unit states' update after writes on %s", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
  }, 180_000);
  afterAll(async () => t.drop());

  it("gives every unit the state a whole computation gives", async () => {
    await getUnitStateSnapshot(t.db, NOW);
    const ds = await t.db.dataset.findFirstOrThrow({ where: { nodeId: "dataset:warehouse:fct_orders" } });
    const scheduled = await t.db.run.findFirstOrThrow({ where: { kind: "scheduled" } });
    const repair = await t.db.run.create({ data: { id: "run-repair-upd", kind: "repair", status: "succeeded", startedAt: new Date("2026-11-05T00:00:00Z") } });
    const publish = (id: string, unitKey: string, runId: string, at: string) => ({
      id,
      datasetId: ds.id,
      unitKey,
      runId,
      attemptId: null,
      publishedAt: new Date(at),
      inputVersion: "",
      codeVersion: "",
      rowCount: 40,
    });
    await t.db.$transaction((tx) =>
      appendPublishes(tx, [
        publish("upd-1", "2026-08-05", repair.id, "2026-11-05T00:00:00Z"),
        publish("upd-2", "2026-08-03", scheduled.id, "2026-11-05T00:00:00Z"),
        publish("upd-3", "2026-08-23", scheduled.id, "2026-11-05T00:00:00Z"),
      ]),
    );
    const later = new Date(NOW.getTime() + 60_000);
    const updated = await getUnitStateSnapshot(t.db, later);
    const whole = await loadUnitStates(t.db, later);
    const codes = (id: string) => Buffer.from(updated.datasets.find((d) => d.dataset.id === id)!.codes).toString("base64");
    let compared = 0;
    for (const d of whole) {
      expect([d.dataset.nodeId, codes(d.dataset.id)]).toEqual([d.dataset.nodeId, Buffer.from(toCodes(d).codes).toString("base64")]);
      compared++;
    }
    expect(compared).toBeGreaterThan(5);
    const fct = whole.find((d) => d.dataset.id === ds.id)!;
    const state = (key: string) => fct.units.find((u) => u.key === key)?.result.state;
    expect(state("2026-08-05")).toBe("repaired");
  });
});
