import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { appendPublishes } from "../repositories/ledger/ingested-runs";
import { getUnitStateSnapshot } from "./state-service";
import { loadUnitStates } from "./load-unit-states";
import { toCodes } from "./state-codes";
import { recordUnitChanges } from "../repositories/units/unit-changes";

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

  /** The updated states of every dataset against a whole computation's, and the whole computation. */
  async function compareWithWhole(at: Date) {
    const updated = await getUnitStateSnapshot(t.db, at);
    const whole = await loadUnitStates(t.db, at);
    const codes = (id: string) => Buffer.from(updated.datasets.find((d) => d.dataset.id === id)!.codes).toString("base64");
    for (const d of whole) expect([d.dataset.nodeId, codes(d.dataset.id)]).toEqual([d.dataset.nodeId, Buffer.from(toCodes(d).codes).toString("base64")]);
    return whole;
  }

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

  // One update, several datasets: their source counts, marks and cleanings are read for all of
  // them at once (recompute-units.ts, readUnitRecords), and an upstream publish makes the units
  // built on it stale. Each record must reach its own dataset's units, as in a whole computation.
  it("reads every dataset's counts, marks and cleanings, and an upstream's newer publish, as a whole computation does", async () => {
    const at = new Date(NOW.getTime() + 120_000);
    await getUnitStateSnapshot(t.db, at);
    const byNode = async (nodeId: string) => t.db.dataset.findFirstOrThrow({ where: { nodeId } });
    const [fct, stg, rev] = await Promise.all([
      byNode("dataset:warehouse:fct_orders"),
      byNode("dataset:warehouse:stg_orders"),
      byNode("dataset:warehouse:revenue_daily"),
    ]);
    const audit = { seq: 1 }; // the entry that would have recorded the marks (not read here)
    // Units that are published (healthy) now, so that each record below is what changes them.
    const before = await loadUnitStates(t.db, at);
    const published = (id: string) =>
      before
        .find((d) => d.dataset.id === id)!
        .units.filter((u) => u.result.state === "published")
        .map((u) => u.key);
    const [counted, republished] = published(fct.id).filter((k) => published(stg.id).includes(k));
    // stg_orders appends: a cleaning after its last publish leaves the unit empty.
    const cleaned = published(stg.id).find((k) => k !== counted && k !== republished);
    const [marked] = published(rev.id);
    expect([counted, cleaned, republished, marked].every(Boolean)).toBe(true);
    const when = new Date("2026-11-06T00:00:00Z");
    // A repair's republish with the same rows: news to what was built before it.
    const repair = await t.db.run.create({ data: { id: "run-repair-upd-2", kind: "repair", status: "succeeded", startedAt: when } });
    const last = await t.db.publish.findFirstOrThrow({ where: { datasetId: stg.id, unitKey: republished! }, orderBy: { publishedAt: "desc" } });
    await t.db.$transaction(async (tx) => {
      await tx.sourceCount.upsert({
        where: { datasetId_unitKey: { datasetId: fct.id, unitKey: counted! } },
        create: { datasetId: fct.id, unitKey: counted!, rowCount: 999_999, measuredAt: when },
        update: { rowCount: 999_999, measuredAt: when },
      });
      await tx.unitMark.create({ data: { datasetId: rev.id, unitKey: marked!, kind: "known_bad", reason: "test", auditEntryId: audit.seq, createdAt: when } });
      await tx.unitMark.create({ data: { datasetId: stg.id, unitKey: cleaned!, kind: "cleaned", reason: "test", auditEntryId: audit.seq, createdAt: when } });
      // stg_orders 2026-08-14 published again, after everything built on it.
      await appendPublishes(tx, [
        {
          id: "upd-stg",
          datasetId: stg.id,
          unitKey: republished!,
          runId: repair.id,
          attemptId: null,
          publishedAt: when,
          inputVersion: last.inputVersion,
          codeVersion: last.codeVersion,
          rowCount: last.rowCount,
        },
      ]);
      await recordUnitChanges(
        tx,
        [
          { datasetId: fct.id, unitKey: counted! },
          { datasetId: rev.id, unitKey: marked! },
          { datasetId: stg.id, unitKey: cleaned! },
        ],
        when,
      );
    });
    const whole = await compareWithWhole(new Date(at.getTime() + 60_000));
    const state = (id: string, key: string) => whole.find((d) => d.dataset.id === id)!.units.find((u) => u.key === key)?.result.state;
    expect(state(fct.id, counted!)).toBe("divergent");
    expect(state(rev.id, marked!)).toBe("known_bad");
    // stg_orders appends, so its second publish is a duplicate too: the unit built on it says both.
    const reasons = whole
      .find((d) => d.dataset.id === fct.id)!
      .units.find((u) => u.key === republished)!
      .result.reasons.join("\n");
    expect(reasons).toMatch(/was republished after this unit was built/);
    expect(state(stg.id, cleaned!)).toBe("empty");
  });
});
