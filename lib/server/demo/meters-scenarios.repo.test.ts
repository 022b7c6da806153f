import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { periodAwareCompleteness, reconcile } from "@/lib/domain/validation";
import { loadExecutorLineage } from "../executor/load-executor-lineage";
import { METER_DATASETS as D } from "../executor/task-code/node-ids";
import { METER_PERIODS, METER_REGIONS } from "../executor/task-code/meters/meter-source";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { metersCatalog } from "./meters-catalog";
import { registerCatalog } from "./register-catalog";
import { runMetersHistory, type MetersScenario } from "./run-meters-history";

const BASELINE = { central: 1321.45, north: 1212.55, east: 881.36, west: 833.09, south: 1065.55 };

interface Figures {
  written: number;
  raw: number;
  consumption: number;
  serving: Record<string, number>;
  rowCheckFires: boolean;
  completenessFires: boolean;
}

/** Seed 003's measurements, read from the warehouse tables the executor wrote. */
async function figures(t: TestDatabase): Promise<Figures> {
  const raw = await t.db.warehouseRow.findMany({ where: { dataset: { nodeId: D.raw } }, select: { unitKey: true, payload: true } });
  const serving = await t.db.warehouseRow.findMany({ where: { dataset: { nodeId: D.serving } }, select: { payload: true } });
  const observed = raw.map((r) => ({ group: (JSON.parse(r.payload) as { region: string }).region, period: r.unitKey }));
  return {
    written: raw.filter((r) => r.unitKey === "2026-07").length,
    raw: raw.length,
    consumption: await t.db.warehouseRow.count({ where: { dataset: { nodeId: D.consumption } } }),
    serving: Object.fromEntries(serving.map((s) => JSON.parse(s.payload) as { region: string; average_m3: number }).map((s) => [s.region, s.average_m3])),
    rowCheckFires: reconcile(raw.length, 2400, 0.05).verdict === "divergent",
    completenessFires: !periodAwareCompleteness(observed, METER_REGIONS, METER_PERIODS).complete,
  };
}

const SCENARIOS: [string, "append" | "merge", MetersScenario][] = [
  ["baseline", "append", { cutoffs: [null], atomic: false }],
  ["not atomic", "append", { cutoffs: [120], atomic: false }],
  ["atomic", "append", { cutoffs: [120], atomic: true }],
  ["three tries appending", "append", { cutoffs: [120, 120, null], atomic: false }],
  ["three tries keyed", "merge", { cutoffs: [120, 120, null], atomic: false }],
];

describe.each(providersUnderTest())("seed 003's figures from the real tables on %s", (provider) => {
  const results = new Map<string, Figures>();
  beforeAll(async () => {
    // Each scenario runs through the executor in its own fresh database.
    for (const [name, mode, scenario] of SCENARIOS) {
      const t = await createTestDatabase(provider);
      try {
        const catalog = await registerCatalog(t.db, metersCatalog(mode), new Date("2026-05-01T00:00:00Z"));
        const lineage = await loadExecutorLineage(t.db, new Date("2026-08-20T00:00:00Z"));
        await runMetersHistory(t.db, lineage, catalog.pipelines.get("meters")!, scenario);
        results.set(name, await figures(t));
      } finally {
        await t.drop();
      }
    }
  }, 300_000);
  afterAll(() => results.clear());

  const deviation = (f: Figures, region: keyof typeof BASELINE) => Math.round((f.serving[region]! - BASELINE[region]) * 100) / 100;

  it("baseline: the seed's serving and 2,200 consumption rows", () => {
    expect(results.get("baseline")).toMatchObject({ written: 200, raw: 2400, consumption: 2200, serving: BASELINE });
  });

  it("not atomic: 120 rows in 2026-07, 2,320 raw, both checks green while north is off by −121.82", () => {
    const f = results.get("not atomic")!;
    expect(f).toMatchObject({ written: 120, raw: 2320, consumption: 2040, rowCheckFires: false, completenessFires: false });
    expect(deviation(f, "north")).toBe(-121.82);
    expect(deviation(f, "central")).toBe(-92.63);
  });

  it("atomic: nothing in 2026-07, 2,200 raw, 1,800 consumption rows, both checks fire", () => {
    const f = results.get("atomic")!;
    expect(f).toMatchObject({ written: 0, raw: 2200, consumption: 1800, rowCheckFires: true, completenessFires: true });
    expect(deviation(f, "north")).toBe(6.12);
  });

  it("three tries appending: 440 rows in 2026-07 (2,640 raw), the dedupe stage keeps serving right", () => {
    const f = results.get("three tries appending")!;
    expect(f).toMatchObject({ written: 440, raw: 2640, consumption: 2200, rowCheckFires: true, completenessFires: false, serving: BASELINE });
  });

  it("three tries keyed (merge on subscriber+period): 200 rows in 2026-07, 2,400 raw", () => {
    const f = results.get("three tries keyed")!;
    expect(f).toMatchObject({ written: 200, raw: 2400, consumption: 2200, rowCheckFires: false, completenessFires: false, serving: BASELINE });
  });
});
