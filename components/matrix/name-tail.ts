/** A qualified name's parts end after these (`postgres.public.raw_orders`, `bigquery:proj`)… */
const QUALIFIERS = /(?<=[./:@])/;
/** …and its words after these (`raw_orders`): a name is cut after a qualifier before it is cut after a word. */
const WORDS = /(?<=_)/;

/**
 * A name cut to what `fits`, from its start and only at its separators, so the end that tells
 * names apart stays whole: `postgres.public.raw_customers` in a narrow header becomes
 * "…public.raw_customers" or "…raw_customers" (whole qualified parts first, so it is not taken
 * for `stg_customers`), and only then "…customers"; never "…ic.raw_customers". A last word too
 * long on its own is returned as "…word", and a name without a separator whole (the header's CSS
 * ellipsis then cuts their end).
 */
export function nameTail(name: string, fits: (text: string) => boolean): string {
  if (fits(name)) return name;
  const parts = name.split(QUALIFIERS);
  for (let i = 1; i < parts.length; i++) {
    const tail = `…${parts.slice(i).join("")}`;
    if (fits(tail)) return tail;
  }
  const words = parts[parts.length - 1]!.split(WORDS);
  if (parts.length === 1 && words.length === 1) return name;
  for (let i = 1; i < words.length; i++) {
    const tail = `…${words.slice(i).join("")}`;
    if (fits(tail)) return tail;
  }
  return `…${words[words.length - 1]}`;
}

let family: string | undefined;
/** A CSS font shorthand in the page's own family (read once from the body). */
export function pageFont(weight: number, px: number): string {
  family ??= typeof document === "undefined" ? "sans-serif" : getComputedStyle(document.body).fontFamily || "sans-serif";
  return `${weight} ${px}px ${family}`;
}

let context: CanvasRenderingContext2D | null | undefined;
const widths = new Map<string, number>();
const KEPT_WIDTHS = 5_000;

/**
 * The width of `text` in `font` (a CSS font shorthand), measured once on a canvas and kept. Where
 * no canvas can measure, an average glyph of 0.6 em.
 */
export function textWidth(text: string, font: string): number {
  const key = JSON.stringify([font, text]);
  const known = widths.get(key);
  if (known !== undefined) return known;
  if (context === undefined) context = typeof document === "undefined" ? null : document.createElement("canvas").getContext("2d");
  let width: number;
  if (context) {
    context.font = font;
    width = context.measureText(text).width;
  } else {
    width = text.length * 0.6 * (Number.parseFloat(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? "12") || 12);
  }
  if (widths.size >= KEPT_WIDTHS) widths.clear();
  widths.set(key, width);
  return width;
}
