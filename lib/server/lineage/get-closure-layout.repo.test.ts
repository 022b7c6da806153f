import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LINEAGE_NODE_SIZE } from "@/lib/contracts/lineage";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { canvasAspect, getClosureLayout } from "./get-closure-layout";

const NOW = new Date("2026-11-29T12:00:00Z");
const STG_0817 = { nodeId: "job:orders:stg_orders", units: "2026-08-17", direction: "downstream" as const };
/** The zoom at which names (13 px) are 10 px on screen (components/lineage/framing.ts). */
const LEGIBLE_ZOOM = 0.77;

const overlap = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  a.x < b.x + LINEAGE_NODE_SIZE.width && b.x < a.x + LINEAGE_NODE_SIZE.width && a.y < b.y + LINEAGE_NODE_SIZE.height && b.y < a.y + LINEAGE_NODE_SIZE.height;

describe("canvasAspect", () => {
  it("rounds the canvas's shape to quarter steps between an upright phone and a wide screen", () => {
    expect(canvasAspect(1.47)).toBe(1.5);
    expect(canvasAspect(0.1)).toBe(0.5);
    expect(canvasAspect(9)).toBe(4);
    expect(canvasAspect(undefined)).toBe(1.5);
  });
});

describe.each(providersUnderTest())("a closure laid out alone (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
  }, 120_000);
  afterAll(async () => t.drop());

  it("places every node of stg_orders 2026-08-17's 14-node closure, none over another, legible whole on a 1440 px window's canvas", async () => {
    const layout = await getClosureLayout({ ...STG_0817, aspect: 900 / 612 }, NOW, t.db);
    const at = Object.entries(layout.positions);
    expect(at).toHaveLength(14);
    expect(at.map(([id]) => id)).toContain("dataset:finance:weekly_revenue_export");
    for (const [i, [a, p]] of at.entries()) for (const [b, q] of at.slice(i + 1)) expect(overlap(p, q), `${a} over ${b}`).toBe(false);
    // Eight waves in a row would need a zoom of 0.45 on that canvas: wrapped, the whole fits at the legible zoom.
    const zoom = Math.min((900 - 56) / layout.width, (612 - 56) / layout.height);
    expect(zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
  });

  it("is shaped for the canvas: narrower for a phone's than for a laptop's, and kept per shape", async () => {
    const wide = await getClosureLayout({ ...STG_0817, aspect: 1.5 }, NOW, t.db);
    const upright = await getClosureLayout({ ...STG_0817, aspect: 0.75 }, NOW, t.db);
    expect(upright.width / upright.height).toBeLessThan(wide.width / wide.height);
    expect(await getClosureLayout({ ...STG_0817, aspect: 1.52 }, NOW, t.db)).toBe(wide);
  });
});
