import { STATE_CODES, UNIT_STATES } from "@/lib/contracts/units";

/** Colours per character code (the --state-* variables), read once per grid, not per cell. */
export interface Palette {
  colour: (string | null)[];
  hatch: CanvasPattern | null;
}

/** No publish at all (missing, failed, blocked): hatched, so "nothing there" never reads as a colour of data. */
const UNPUBLISHED = new Uint8Array(128);
for (const c of "mfb") UNPUBLISHED[c.charCodeAt(0)] = 1;
const HATCH = 6;

export function readPalette(from: Element): Palette {
  const css = getComputedStyle(from);
  const colour: (string | null)[] = new Array(128).fill(null);
  UNIT_STATES.forEach((s, i) => (colour[STATE_CODES.charCodeAt(i)] = css.getPropertyValue(`--state-${s}`).trim() || "#9ca3af"));
  // One tile of 45° stripes (the CSS version: repeating-linear-gradient(135deg, white 60% 0 2px, transparent 2px 5px)).
  const tile = document.createElement("canvas");
  tile.width = tile.height = HATCH;
  const t = tile.getContext("2d");
  let hatch: CanvasPattern | null = null;
  if (t) {
    t.strokeStyle = "rgba(255, 255, 255, 0.6)";
    t.lineWidth = 1.6;
    t.beginPath();
    for (const k of [0, HATCH, 2 * HATCH]) {
      t.moveTo(k - HATCH - 1, HATCH + 1);
      t.lineTo(k + 1, -1);
    }
    t.stroke();
    hatch = t.createPattern(tile, "repeat");
  }
  return { colour, hatch };
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

/** The visible window of cells: one fillRect per cell, colour switched only when it changes. */
export function paintCells(ctx: CanvasRenderingContext2D, palette: Palette, p: PaintInput): void {
  ctx.clearRect(0, 0, p.width, p.height);
  if (p.rows.length === 0) return;
  const c0 = Math.max(0, Math.floor(p.left / p.cw));
  const r0 = Math.max(0, Math.floor(p.top / p.rowH));
  const r1 = Math.min(p.rows.length - 1, Math.floor((p.top + p.height) / p.rowH));
  const w = p.cw - 1;
  const h = p.rowH - 2;
  const hatched: number[] = [];
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
      if (UNPUBLISHED[code]) hatched.push(x, y, a);
    }
  }
  if (palette.hatch && hatched.length) {
    // Stripes fixed to the content, so they scroll with their cells instead of swimming.
    palette.hatch.setTransform(new DOMMatrix().translate(-(p.left % HATCH), -(p.top % HATCH)));
    ctx.fillStyle = palette.hatch;
    for (let i = 0; i < hatched.length; i += 3) {
      ctx.globalAlpha = hatched[i + 2]!;
      ctx.fillRect(hatched[i]!, hatched[i + 1]!, w, h);
    }
  }
  ctx.globalAlpha = 1;
  frameSelection(ctx, p, c0, w, h);
  if (p.open) {
    ctx.strokeStyle = "#111827";
    ctx.lineWidth = 2;
    ctx.strokeRect(p.open.c * p.cw - p.left - 1, p.open.r * p.rowH - p.top, w + 2, h + 2);
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
