import { describe, expect, it } from "vitest";
import { LINEAGE_NODE_SIZE } from "@/lib/contracts/lineage";
import { countOutside, fitAll, frameOn, LABEL_FONT_PX, LEGIBLE_ZOOM, MAX_ZOOM, MIN_LABEL_PX, placedOf, type Placed } from "./framing";

const { width: W, height: H } = LINEAGE_NODE_SIZE;
/** A chain of `n` nodes left to right, 60 px apart, as ELK lays out a pipeline. */
const chain = (n: number, y = 0): Placed[] =>
  Array.from({ length: n }, (_, i) => ({ id: `n${i}`, rect: { x: i * (W + 60), y, width: W, height: H }, count: 1 }));
/** Screen rectangle of a placed node at a viewport. */
const onScreen = (p: Placed, v: { x: number; y: number; zoom: number }) => ({
  x: p.rect.x * v.zoom + v.x,
  y: p.rect.y * v.zoom + v.y,
  width: p.rect.width * v.zoom,
  height: p.rect.height * v.zoom,
});
const inside = (r: { x: number; y: number; width: number; height: number }, width: number, height: number) =>
  r.x >= -0.5 && r.y >= -0.5 && r.x + r.width <= width + 0.5 && r.y + r.height <= height + 0.5;

describe("placedOf", () => {
  it("makes positions absolute (inside their pipeline's box) and counts a collapsed pipeline as its nodes", () => {
    const layout = {
      groups: [
        { pipeline: "orders", x: 100, y: 50, width: 500, height: 200, collapsed: false, nodeCount: 2 },
        { pipeline: "ml", x: 700, y: 50, width: 230, height: 64, collapsed: true, nodeCount: 5 },
      ],
      positions: { a: { x: 16, y: 50 }, b: { x: 260, y: 50 } },
    };
    const placed = placedOf(layout, (id) => (id === "a" || id === "b" ? "orders" : undefined));
    expect(placed).toEqual([
      { id: "pipeline:ml", rect: { x: 700, y: 50, width: 230, height: 64 }, count: 5 },
      { id: "a", rect: { x: 116, y: 100, width: W, height: H }, count: 1 },
      { id: "b", rect: { x: 360, y: 100, width: W, height: H }, count: 1 },
    ]);
  });
});

describe("frameOn", () => {
  it("frames a focus that fits legibly whole, at no more than the maximum zoom, with nothing outside", () => {
    const placed = chain(3);
    const frame = frameOn(placed, ["n0", "n1", "n2"], 1200, 600)!;
    expect(frame.framed).toEqual(["n0", "n1", "n2"]);
    expect(frame.viewport.zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
    expect(frame.viewport.zoom).toBeLessThanOrEqual(MAX_ZOOM);
    for (const p of placed) expect(inside(onScreen(p, frame.viewport), 1200, 600), p.id).toBe(true);
    expect(countOutside(placed, frame.viewport, 1200, 600)).toEqual({ outside: 0, total: 3 });
  });

  it("never goes below the legible zoom: a wide focus is framed from its first node, and the rest is counted outside", () => {
    const placed = chain(12);
    const frame = frameOn(
      placed,
      placed.map((p) => p.id),
      900,
      500,
    )!;
    expect(frame.viewport.zoom).toBe(LEGIBLE_ZOOM);
    expect(frame.framed[0]).toBe("n0");
    expect(frame.framed.length).toBeGreaterThan(1);
    expect(frame.framed.length).toBeLessThan(12);
    for (const id of frame.framed)
      expect(
        inside(
          onScreen(
            placed.find((p) => p.id === id)!,
            frame.viewport,
          ),
          900,
          500,
        ),
        id,
      ).toBe(true);
    expect(countOutside(placed, frame.viewport, 900, 500)).toEqual({ outside: 12 - frame.framed.length, total: 12 });
  });

  it("skips a far-off node and keeps taking the ones that still fit (a closure's branch in another pipeline)", () => {
    const placed = [
      ...chain(2),
      { id: "far", rect: { x: 5000, y: 0, width: W, height: H }, count: 1 },
      { id: "below", rect: { x: 0, y: H + 40, width: W, height: H }, count: 1 },
    ];
    expect(frameOn(placed, ["n0", "far", "n1", "below"], 1000, 600)!.framed).toEqual(["n0", "n1", "below"]);
  });

  it("ignores focus ids the layout does not draw; with no focus, shows the whole lineage if legible, else as much as fits from its top-left node", () => {
    const small = chain(2);
    const whole = frameOn(small, ["gone"], 1000, 600)!;
    expect(whole.framed).toEqual(["n0", "n1"]);
    expect(countOutside(small, whole.viewport, 1000, 600).outside).toBe(0);
    // Two pipelines' rows, the lower one starting further left: the view starts there, legible, and is full.
    const big = [...chain(40, 30), ...chain(40, 400).map((p) => ({ ...p, id: `low-${p.id}`, rect: { ...p.rect, x: p.rect.x - 100 } }))];
    const corner = frameOn(big, [], 1000, 600)!;
    expect(corner.viewport.zoom).toBe(LEGIBLE_ZOOM);
    expect(corner.framed[0]).toBe("low-n0");
    expect(corner.framed).toContain("n0");
    expect(countOutside(big, corner.viewport, 1000, 600).outside).toBe(80 - corner.framed.length);
    expect(frameOn([], [], 1000, 600)).toBeNull();
  });
});

// The demo's orders lineage as the server lays it out (absolute positions; the meters pipeline
// takes the row above it, the ml and finance pipelines sit to its right), in a 1440 px window's
// 900 × 612 canvas. stg_orders 2026-08-17's blast radius is 14 nodes over 8 waves:
//   land → raw ─┐                                      ┌ running_balance → running_balance    ml: build → order_features
//               stg_orders → stg_orders → fct → fct ───┤                                        finance: export → export
//   snapshot → dim_customers ┘                         └ revenue_daily → revenue_daily → refresh → dashboard
const DEMO: [string, number, number][] = [
  ["job:orders:land_raw_orders", 40, 324],
  ["job:orders:snapshot_customers", 40, 426],
  ["dataset:warehouse:raw_orders", 284, 324],
  ["dataset:warehouse:dim_customers", 284, 426],
  ["job:orders:stg_orders", 532, 370],
  ["dataset:warehouse:stg_orders", 776, 370],
  ["job:orders:fct_orders", 1023, 375],
  ["dataset:warehouse:fct_orders", 1267, 375],
  ["job:orders:revenue_daily", 1514, 426],
  ["job:orders:running_balance", 1514, 324],
  ["dataset:warehouse:revenue_daily", 1758, 426],
  ["dataset:warehouse:running_balance", 1758, 324],
  ["job:orders:refresh_executive_dashboard", 2007, 375],
  ["dataset:bi:executive_dashboard", 2251, 375],
  ["job:ml:build_order_features", 2600, 268],
  ["dataset:ml:order_features", 2844, 268],
  ["job:finance:weekly_revenue_export", 2600, 482],
  ["dataset:finance:weekly_revenue_export", 2844, 482],
];
const demo: Placed[] = DEMO.map(([id, x, y]) => ({ id, rect: { x, y, width: W, height: H }, count: 1 }));
/** The closure of stg_orders 2026-08-17, seed first, then wave by wave (as LineagePage orders it). */
const blastRadius = DEMO.slice(4).map(([id]) => id);

describe("frameOn, on the demo's blast radius at 1440 px", () => {
  it("keeps names at the 10 px floor, never under it", () => {
    expect(LEGIBLE_ZOOM * LABEL_FONT_PX).toBeGreaterThanOrEqual(MIN_LABEL_PX);
    expect(LEGIBLE_ZOOM * LABEL_FONT_PX).toBeLessThan(MIN_LABEL_PX + 0.2);
  });

  it("cannot show 14 nodes over 8 waves whole with names ≥ 10 px: it stays at the floor and frames from the failed node, 4 of them", () => {
    const frame = frameOn(demo, blastRadius, 900, 612)!;
    // Whole, the closure would need a zoom of 0.34: names in 4.4 px type (so it is laid out alone instead).
    expect(
      fitAll(
        demo.filter((p) => blastRadius.includes(p.id)).map((p) => p.rect),
        900,
        612,
        0.02,
      )!.zoom * LABEL_FONT_PX,
    ).toBeLessThan(5);
    expect(frame.viewport.zoom).toBe(LEGIBLE_ZOOM);
    expect(frame.framed).toEqual(["job:orders:stg_orders", "dataset:warehouse:stg_orders", "job:orders:fct_orders", "dataset:warehouse:fct_orders"]);
    const seed = demo.find((p) => p.id === "job:orders:stg_orders")!;
    expect(inside(onScreen(seed, frame.viewport), 900, 612)).toBe(true);
    // Only the closure is framed: the upstream nodes beside the seed are not pulled in.
    expect(frame.framed).not.toContain("dataset:warehouse:raw_orders");
    expect(
      countOutside(
        demo.filter((p) => blastRadius.includes(p.id)),
        frame.viewport,
        900,
        612,
      ),
    ).toEqual({ outside: 10, total: 14 });
  });

  it("frames a shorter closure whole, above the floor, and nothing of the pipelines around it", () => {
    const revenue = ["job:orders:revenue_daily", "dataset:warehouse:revenue_daily", "job:orders:refresh_executive_dashboard", "dataset:bi:executive_dashboard"];
    const frame = frameOn(demo, revenue, 900, 612)!;
    expect(frame.framed).toEqual(revenue);
    expect(frame.viewport.zoom * LABEL_FONT_PX).toBeGreaterThan(MIN_LABEL_PX);
    for (const p of demo.filter((d) => revenue.includes(d.id))) expect(inside(onScreen(p, frame.viewport), 900, 612), p.id).toBe(true);
    // Framed on these four, not on the lineage: most of it stays outside.
    expect(countOutside(demo, frame.viewport, 900, 612).outside).toBeGreaterThan(10);
  });
});

describe("countOutside", () => {
  it("counts a node cut by the canvas edge as outside, and a collapsed pipeline as its nodes", () => {
    const placed: Placed[] = [
      { id: "in", rect: { x: 10, y: 10, width: 100, height: 50 }, count: 1 },
      { id: "cut", rect: { x: 450, y: 10, width: 100, height: 50 }, count: 1 },
      { id: "pipeline:ml", rect: { x: 2000, y: 0, width: 230, height: 64 }, count: 7 },
    ];
    expect(countOutside(placed, { x: 0, y: 0, zoom: 1 }, 500, 300)).toEqual({ outside: 8, total: 9 });
    expect(countOutside(placed, { x: 0, y: 0, zoom: 0.2 }, 500, 300)).toEqual({ outside: 0, total: 9 });
  });
});

describe("fitAll", () => {
  it("shows every box whole, below the legible zoom if it must", () => {
    const boxes = [
      { x: 0, y: 0, width: 3000, height: 400 },
      { x: 0, y: 500, width: 1200, height: 900 },
    ];
    const v = fitAll(boxes, 900, 600, 0.02)!;
    expect(v.zoom).toBeLessThan(LEGIBLE_ZOOM);
    for (const b of boxes)
      expect(inside({ x: b.x * v.zoom + v.x, y: b.y * v.zoom + v.y, width: b.width * v.zoom, height: b.height * v.zoom }, 900, 600)).toBe(true);
    expect(fitAll([], 900, 600, 0.02)).toBeNull();
  });

  it("keeps every box clear of the minimap's corner, beside or above it, whichever is larger", () => {
    const corner = { width: 223, height: 173 };
    const clear = (v: { x: number; y: number; zoom: number }, b: { x: number; y: number; width: number; height: number }) => {
      const [right, bottom] = [b.x * v.zoom + v.x + b.width * v.zoom, b.y * v.zoom + v.y + b.height * v.zoom];
      return right <= 900 - corner.width + 0.5 || bottom <= 600 - corner.height + 0.5;
    };
    // wider than the canvas: it fits above the minimap at a larger zoom than beside it
    const wide = [{ x: 0, y: 0, width: 3000, height: 1000 }];
    // shaped like the canvas: beside it
    const tall = [{ x: 0, y: 0, width: 1500, height: 1000 }];
    for (const boxes of [wide, tall]) {
      const v = fitAll(boxes, 900, 600, 0.02, corner)!;
      const naive = fitAll(boxes, 900, 600, 0.02)!;
      expect(boxes.every((b) => clear(v, b))).toBe(true);
      expect(boxes.every((b) => clear(naive, b))).toBe(false);
      expect(inside({ x: v.x, y: v.y, width: boxes[0]!.width * v.zoom, height: boxes[0]!.height * v.zoom }, 900, 600)).toBe(true);
    }
    expect(fitAll(wide, 900, 600, 0.02, corner)!.y).toBeLessThan(fitAll(wide, 900, 600, 0.02)!.y);
    expect(fitAll(tall, 900, 600, 0.02, corner)!.x).toBeLessThan(fitAll(tall, 900, 600, 0.02)!.x);
  });
});
