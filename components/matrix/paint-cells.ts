import { STATE_CODES, UNIT_STATES } from "@/lib/contracts/units";
import { STATE_PALETTE, type StateMark } from "@/components/shell/state-palette";

/** Colour, mark and ink per character code, from the one state palette: looked up per cell, built once per grid. */
export interface Palette {
  colour: (string | null)[];
  mark: (StateMark | null)[];
  ink: (string | null)[];
  /** The no-publish hatch in each ink. */
  hatch: Map<string, CanvasPattern>;
}

const HATCH = 6;

function hatchTile(ink: string): CanvasPattern | null {
  const tile = document.createElement("canvas");
  tile.width = tile.height = HATCH;
  const t = tile.getContext("2d");
  if (!t) return null;
  // One tile of 45° stripes (the legend's CSS: repeating-linear-gradient(135deg, …)).
  t.strokeStyle = ink === "#000000" ? "rgba(0, 0, 0, 0.45)" : "rgba(255, 255, 255, 0.6)";
  t.lineWidth = 1.6;
  t.beginPath();
  for (const k of [0, HATCH, 2 * HATCH]) {
    t.moveTo(k - HATCH - 1, HATCH + 1);
    t.lineTo(k + 1, -1);
  }
  t.stroke();
  return t.createPattern(tile, "repeat");
}

export function buildPalette(): Palette {
  const colour: (string | null)[] = new Array(128).fill(null);
  const mark: (StateMark | null)[] = new Array(128).fill(null);
  const ink: (string | null)[] = new Array(128).fill(null);
  const hatch = new Map<string, CanvasPattern>();
  UNIT_STATES.forEach((s, i) => {
    const code = STATE_CODES.charCodeAt(i);
    const style = STATE_PALETTE[s];
    [colour[code], mark[code], ink[code]] = [style.colour, style.mark, style.ink];
    if (style.mark === "hatch" && !hatch.has(style.ink)) {
      const p = hatchTile(style.ink);
      if (p) hatch.set(style.ink, p);
    }
  });
  return { colour, mark, ink, hatch };
}

export interface PaintInput {
  rows: readonly { shown: string }[];
  cw: number;
  rowH: number;
  /** Scroll offsets of the cell area and its size on screen, CSS pixels. */
  left: number;
  top: number;
  width: number;
  height: number;
  /** Codes the state filter asks for; other cells are dimmed. Empty: none dimmed. */
  highlight: string;
  /** The open cell, outlined; the selected buckets of one row, framed. */
  open: { r: number; c: number } | null;
  selectedRow: number;
  selectedCols: Uint8Array | null;
}

interface Marked {
  x: number;
  y: number;
  alpha: number;
  code: number;
}

/** The visible window of cells: one fillRect per cell, colour switched only when it changes; then each cell's mark. */
export function paintCells(ctx: CanvasRenderingContext2D, palette: Palette, p: PaintInput): void {
  ctx.clearRect(0, 0, p.width, p.height);
  if (p.rows.length === 0) return;
  const c0 = Math.max(0, Math.floor(p.left / p.cw));
  const r0 = Math.max(0, Math.floor(p.top / p.rowH));
  const r1 = Math.min(p.rows.length - 1, Math.floor((p.top + p.height) / p.rowH));
  const w = p.cw - 1;
  const h = p.rowH - 2;
  const marked: Marked[] = [];
  let fill = "";
  let alpha = 1;
  for (let r = r0; r <= r1; r++) {
    const cells = p.rows[r]!.shown;
    const c1 = Math.min(cells.length - 1, Math.floor((p.left + p.width) / p.cw));
    const y = r * p.rowH - p.top + 1;
    for (let c = c0; c <= c1; c++) {
      const code = cells.charCodeAt(c);
      const colour = palette.colour[code];
      if (!colour) continue;
      const a = p.highlight && !p.highlight.includes(cells[c]!) ? 0.18 : 1;
      if (a !== alpha) ctx.globalAlpha = alpha = a;
      if (colour !== fill) ctx.fillStyle = fill = colour;
      const x = c * p.cw - p.left;
      ctx.fillRect(x, y, w, h);
      if (palette.mark[code] !== "none") marked.push({ x, y, alpha: a, code });
    }
  }
  drawMarks(ctx, palette, p, marked, w, h);
  ctx.globalAlpha = 1;
  frameSelection(ctx, p, c0, w, h);
  if (p.open) {
    ctx.strokeStyle = "#111827";
    ctx.lineWidth = 2;
    ctx.strokeRect(p.open.c * p.cw - p.left - 1, p.open.r * p.rowH - p.top, w + 2, h + 2);
  }
}

/** The second cue of each state: hatching, a dot, a bar or a corner, in the ink that reads on its colour. */
function drawMarks(ctx: CanvasRenderingContext2D, palette: Palette, p: PaintInput, marked: Marked[], w: number, h: number) {
  for (const pattern of palette.hatch.values()) {
    // Stripes fixed to the content, so they scroll with their cells instead of swimming.
    pattern.setTransform(new DOMMatrix().translate(-(p.left % HATCH), -(p.top % HATCH)));
  }
  for (const { x, y, alpha, code } of marked) {
    const ink = palette.ink[code]!;
    ctx.globalAlpha = alpha;
    switch (palette.mark[code]) {
      case "hatch": {
        const pattern = palette.hatch.get(ink);
        if (!pattern) break;
        ctx.fillStyle = pattern;
        ctx.fillRect(x, y, w, h);
        break;
      }
      case "dot":
        ctx.fillStyle = ink;
        ctx.beginPath();
        ctx.arc(x + w / 2, y + h / 2, Math.min(2.5, w / 4), 0, 2 * Math.PI);
        ctx.fill();
        break;
      case "bar":
        ctx.fillStyle = ink;
        ctx.fillRect(x + 1, y + h / 2 - 1, w - 2, 2);
        break;
      case "corner":
        ctx.fillStyle = ink;
        ctx.beginPath();
        ctx.moveTo(x + w, y);
        ctx.lineTo(x + w - Math.min(6, w / 2), y);
        ctx.lineTo(x + w, y + Math.min(6, w / 2));
        ctx.fill();
        break;
    }
  }
}

function frameSelection(ctx: CanvasRenderingContext2D, p: PaintInput, c0: number, w: number, h: number) {
  if (!p.selectedCols || p.selectedRow < 0) return;
  const y = p.selectedRow * p.rowH - p.top + 1;
  if (y + h < 0 || y > p.height) return;
  const c1 = Math.min(p.selectedCols.length - 1, Math.floor((p.left + p.width) / p.cw));
  for (let c = c0; c <= c1; c++) {
    if (!p.selectedCols[c]) continue;
    const x = c * p.cw - p.left;
    ctx.lineWidth = 2;
    ctx.strokeStyle = "#fff";
    ctx.strokeRect(x + 1, y + 1, w - 2, h - 2);
    ctx.strokeStyle = "#111827";
    ctx.strokeRect(x + 3, y + 3, w - 6, h - 6);
  }
}
