import type { StatusState } from "./dataset-status";

/**
 * A dataset's status as an SVG badge, for a BI dashboard's image tile: the dataset's name on the
 * left, the rest of its status line on the right, coloured by its state. Plain SVG with its text
 * (no script, no external font or image), so a dashboard can embed it with an <img>.
 *
 * The text is laid out at an estimated width per character and held to it with `textLength`, so
 * whatever font the viewer substitutes, the text fills its box and never spills out of it.
 *
 * Example: statusBadgeSvg("revenue_daily", "complete through 2026-08-16 · 2026-08-17 missing (being repaired)", "being_repaired")
 */

const COLOUR: Record<StatusState, string> = {
  complete: "#15803d",
  incomplete: "#b91c1c",
  being_repaired: "#b45309",
};
const LABEL_COLOUR = "#334155";
const FONT_PX = 11;
const PAD = 6;
const HEIGHT = 20;
/** Longest text the badge draws; a longer message is cut with an ellipsis (the status page has it whole). */
const MAX_CHARS = 120;

/** An estimated width of `text` at 11 px in a sans-serif face: narrow, wide and ordinary glyphs. */
export function estimatedTextWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[ilj.,:;'|!·()\s]/.test(ch) ? 3.4 : /[mwMW@%]/.test(ch) ? 9.6 : /[A-Z0-9]/.test(ch) ? 7.4 : 6.4;
  return Math.ceil(width);
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

function cut(text: string): string {
  const chars = [...text];
  return chars.length <= MAX_CHARS ? text : `${chars.slice(0, MAX_CHARS - 1).join("")}…`;
}

export function statusBadgeSvg(label: string, message: string, state: StatusState): string {
  const left = cut(label);
  const right = cut(message);
  const lw = estimatedTextWidth(left) + 2 * PAD;
  const rw = estimatedTextWidth(right) + 2 * PAD;
  const width = lw + rw;
  const title = escapeXml(`${label} · ${message}`);
  const text = (x: number, w: number, s: string) => `<text x="${x}" y="14" textLength="${w - 2 * PAD}" lengthAdjust="spacingAndGlyphs">${escapeXml(s)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    `<rect width="${lw}" height="${HEIGHT}" rx="3" fill="${LABEL_COLOUR}"/>`,
    `<rect x="${lw}" width="${rw}" height="${HEIGHT}" rx="3" fill="${COLOUR[state]}"/>`,
    `<rect x="${lw - 3}" width="6" height="${HEIGHT}" fill="${COLOUR[state]}"/>`,
    `<g fill="#fff" font-family="Verdana,DejaVu Sans,Geneva,sans-serif" font-size="${FONT_PX}">`,
    text(PAD, lw, left),
    text(lw + PAD, rw, right),
    `</g>`,
    `</svg>`,
  ].join("");
}
