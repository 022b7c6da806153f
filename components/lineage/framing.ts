import { LINEAGE_NODE_SIZE, type LineageLayoutResult } from "@/lib/contracts/lineage";

/**
 * Where the camera goes when the lineage opens or a selection changes. Pure geometry (no React
 * Flow): the page hands it the laid-out boxes and the canvas size and sets the viewport it answers.
 */

/** The React Flow id of a pipeline's box. */
export const groupId = (pipeline: string) => `pipeline:${pipeline}`;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

/** Node names are 13 px on a 16 px line (Lineage.module.css `.label`). */
export const LABEL_FONT_PX = 13;
/** The floor: a name is never framed smaller than this on screen (its font size times the zoom). */
export const MIN_LABEL_PX = 10;
/**
 * The zoom of that floor, rounded up so rounding never puts a name under it: 0.77, names in
 * 10.01 px type. Below it nothing on the graph is legible, and a big lineage mounts thousands of
 * nodes for nothing. A closure too long to be legible whole in the lineage's own layout is laid
 * out alone instead (closure-alone.ts), not framed smaller.
 */
export const LEGIBLE_ZOOM = Math.ceil((MIN_LABEL_PX / LABEL_FONT_PX) * 100) / 100;
export const MAX_ZOOM = 1.1;
/** Screen pixels kept free around what is framed. */
export const FRAME_PADDING = 28;
/** The minimap is drawn up to this many flow nodes (beyond, it costs more than it shows). */
export const MINIMAP_UP_TO = 3_000;
/** The corner it covers: React Flow's 200 × 150 minimap, its 15 px margin and a little air. */
export const MINIMAP_CORNER = { width: 200 + 15 + 8, height: 150 + 15 + 8 };

/** One thing drawn on the canvas: a node, or a collapsed pipeline standing for `count` nodes. */
export interface Placed {
  id: string;
  rect: Rect;
  count: number;
}

/**
 * What the layout draws, in absolute canvas coordinates: expanded nodes (the layout gives them
 * inside their pipeline's box, `pipelineOf` names it) and collapsed pipelines, which stand for
 * their node count.
 */
export function placedOf(layout: LineageLayoutResult, pipelineOf: (id: string) => string | undefined): Placed[] {
  const out: Placed[] = [];
  const box = new Map(layout.groups.map((g) => [g.pipeline, g]));
  for (const g of layout.groups) {
    if (g.collapsed) out.push({ id: groupId(g.pipeline), rect: { x: g.x, y: g.y, width: g.width, height: g.height }, count: g.nodeCount });
  }
  for (const [id, at] of Object.entries(layout.positions)) {
    const g = box.get(pipelineOf(id) ?? "");
    out.push({ id, rect: { x: at.x + (g?.x ?? 0), y: at.y + (g?.y ?? 0), ...LINEAGE_NODE_SIZE }, count: 1 });
  }
  return out;
}

export function boundsOf(rects: readonly Rect[]): Rect | null {
  if (rects.length === 0) return null;
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const r of rects) {
    x0 = Math.min(x0, r.x);
    y0 = Math.min(y0, r.y);
    x1 = Math.max(x1, r.x + r.width);
    y1 = Math.max(y1, r.y + r.height);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/** The zoom at which `bounds` fills the canvas (less the padding), capped at `maxZoom`. */
export function zoomToFit(bounds: Rect, width: number, height: number, maxZoom = MAX_ZOOM): number {
  const w = Math.max(1, width - 2 * FRAME_PADDING);
  const h = Math.max(1, height - 2 * FRAME_PADDING);
  return Math.min(maxZoom, w / Math.max(1, bounds.width), h / Math.max(1, bounds.height));
}

/** The viewport that shows `bounds` centred at `zoom`. */
export function centred(bounds: Rect, width: number, height: number, zoom: number): Viewport {
  return { x: width / 2 - (bounds.x + bounds.width / 2) * zoom, y: height / 2 - (bounds.y + bounds.height / 2) * zoom, zoom };
}

export interface Frame {
  viewport: Viewport;
  framed: string[];
}

/**
 * Frames what matters — `focus`, most important first (the selection's seed, then its closure by
 * depth; or the current failures) — and only that: not the pipelines around it, however wide. All
 * of it when it fits with names at least `MIN_LABEL_PX` tall (`LEGIBLE_ZOOM` or more); otherwise the
 * zoom stays at that floor and the frame is built from the seed out: as much as fits, taken in
 * order (a node that would not fit with those before it is left out and the next tried), centred,
 * so the failed node is always in view. With nothing to focus on, the same from the lineage's
 * top-left node: all of it when it is legible whole.
 */
export function frameOn(placed: readonly Placed[], focus: readonly string[], width: number, height: number): Frame | null {
  const rectOf = new Map(placed.map((p) => [p.id, p.rect]));
  const given = focus.filter((id) => rectOf.has(id));
  // Nothing to focus on: the lineage from its top-left node, in reading order (columns, then rows).
  const wanted = given.length > 0 ? given : [...placed].sort((a, b) => a.rect.x - b.rect.x || a.rect.y - b.rect.y).map((p) => p.id);
  if (wanted.length === 0) return null;
  const framed: string[] = [];
  let bounds: Rect | null = null;
  for (const id of wanted) {
    const next: Rect = boundsOf(bounds ? [bounds, rectOf.get(id)!] : [rectOf.get(id)!])!;
    if (bounds !== null && zoomToFit(next, width, height) < LEGIBLE_ZOOM) continue;
    bounds = next;
    framed.push(id);
  }
  // All of it: as close as fits. Only part: at the legible zoom, so the most of the rest is in view too.
  const zoom = framed.length === wanted.length ? zoomToFit(bounds!, width, height) : LEGIBLE_ZOOM;
  return { viewport: centred(bounds!, width, height, zoom), framed };
}

/** How many nodes (a collapsed pipeline counting as its nodes) are not wholly inside the canvas at `viewport`. */
export function countOutside(placed: readonly Placed[], viewport: Viewport, width: number, height: number): { outside: number; total: number } {
  const [x0, y0] = [-viewport.x / viewport.zoom, -viewport.y / viewport.zoom];
  const [x1, y1] = [x0 + width / viewport.zoom, y0 + height / viewport.zoom];
  let outside = 0;
  let total = 0;
  const slack = 0.5 / viewport.zoom; // half a screen pixel of rounding
  for (const { rect: r, count } of placed) {
    total += count;
    if (r.x < x0 - slack || r.y < y0 - slack || r.x + r.width > x1 + slack || r.y + r.height > y1 + slack) outside += count;
  }
  return { outside, total };
}

/**
 * "Fit all": every pipeline box whole in the canvas, at whatever zoom that takes (down to
 * `minZoom`). "Fit the closure" is the same over a selection's nodes, not the pipelines around them.
 */
export function fitAll(boxes: readonly Rect[], width: number, height: number, minZoom: number, corner?: { width: number; height: number }): Viewport | null {
  const all = boundsOf(boxes);
  if (!all) return null;
  const whole = centred(all, width, height, Math.max(minZoom, zoomToFit(all, width, height)));
  if (!corner) return whole;
  // A box in the bottom-right corner (the minimap) covers what lies under it: fit the lineage
  // beside it or above it, whichever leaves it larger.
  const beside = { width: Math.max(1, width - corner.width), height };
  const above = { width, height: Math.max(1, height - corner.height) };
  const [zBeside, zAbove] = [zoomToFit(all, beside.width, beside.height), zoomToFit(all, above.width, above.height)];
  const area = zBeside >= zAbove ? beside : above;
  return centred(all, area.width, area.height, Math.max(minZoom, Math.max(zBeside, zAbove)));
}
