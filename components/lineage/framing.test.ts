import { describe, expect, it } from "vitest";
import { LINEAGE_NODE_SIZE } from "@/lib/contracts/lineage";
import { countOutside, fitAll, frameOn, LEGIBLE_ZOOM, MAX_ZOOM, placedOf, type Placed } from "./framing";

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
