import { UNIT_STATE_PRECEDENCE, type UnitState } from "@/lib/domain/unit-state";
import { parseHex } from "./colour-difference";
import { OKABE_ITO as O } from "./okabe-ito";

/**
 * The colours of the unit states — the one place they are chosen. Every screen that colours a
 * state (the matrix's canvas and legend, the cell panel's badge, the overview, the wizard's scope)
 * reads them from here, directly or through the `--state-*` variables `statePaletteCss()` writes
 * into the root layout.
 *
 * Built on Okabe & Ito's colour-blind-safe palette (2008): its eight colours, and five tints and
 * shades of them for the states beyond eight, chosen so that every pair stays at least ΔE2000 10
 * apart for normal vision and under protanopia, deuteranopia and tritanopia
 * (`state-palette.test.ts` measures it). Colour is never the only cue: each state also has a mark
 * drawn over its colour — hatching for "no publish", a dot for "published, but its figures are in
 * doubt", a bar for an operator's mark, a corner for a repair — and its name in every tooltip,
 * legend entry and badge.
 */

/** What is drawn over a state's colour, so that no state is told apart by colour alone. */
export type StateMark = "hatch" | "dot" | "bar" | "corner" | "none";

export interface StateStyle {
  colour: string;
  mark: StateMark;
  /** Black or white, whichever reads better on `colour`: the mark's colour and a badge's text. */
  ink: "#000000" | "#ffffff";
  /** `colour` darkened until text in it reads on white (WCAG AA, 4.5:1): a word coloured by its state. */
  text: string;
}

const STYLES: Record<UnitState, Omit<StateStyle, "ink" | "text">> = {
  known_bad: { colour: O.black, mark: "bar" },
  skipped: { colour: "#595959", mark: "bar" }, // black, 35 % lighter
  failed: { colour: O.vermillion, mark: "hatch" },
  blocked: { colour: O.orange, mark: "hatch" },
  missing: { colour: "#d6d6d6", mark: "hatch" }, // black, 84 % lighter
  empty: { colour: O.yellow, mark: "dot" },
  duplicate: { colour: O.reddishPurple, mark: "dot" },
  divergent: { colour: "#602a00", mark: "dot" }, // vermillion, 55 % darker
  suspect: { colour: "#eebf99", mark: "dot" }, // vermillion, 60 % lighter
  stale: { colour: O.blue, mark: "dot" },
  input_mismatch: { colour: "#003350", mark: "dot" }, // blue, 55 % darker
  rows_unknown: { colour: "#486840", mark: "dot" }, // olive: green (present) but not the published green — nothing counted; the farthest green from the others for every vision (ΔE2000 ≥ 12.7)
  repaired: { colour: O.skyBlue, mark: "corner" },
  published: { colour: O.bluishGreen, mark: "none" },
};

/** WCAG relative luminance of an sRGB colour. */
function luminance(hex: string): number {
  const lin = parseHex(hex).map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lin[0]! + 0.7152 * lin[1]! + 0.0722 * lin[2]!;
}

/** Black or white on `hex`, by the higher WCAG contrast ratio. */
export function inkOn(hex: string): "#000000" | "#ffffff" {
  const l = luminance(hex);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
}

/** WCAG contrast ratio of two sRGB colours. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `hex` darkened in 5 % steps towards black until it has 4.5:1 on white. */
export function textColourOf(hex: string): string {
  const rgb = parseHex(hex);
  for (let k = 0; k <= 20; k++) {
    const c = `#${rgb
      .map((v) =>
        Math.round(v * (1 - k / 20))
          .toString(16)
          .padStart(2, "0"),
      )
      .join("")}`;
    if (contrast(c, "#ffffff") >= 4.5) return c;
  }
  return "#000000";
}

export const STATE_PALETTE: Record<UnitState, StateStyle> = Object.fromEntries(
  UNIT_STATE_PRECEDENCE.map((s) => [s, { ...STYLES[s], ink: inkOn(STYLES[s].colour), text: textColourOf(STYLES[s].colour) }]),
) as Record<UnitState, StateStyle>;

/** The `--state-*` custom properties (and `--state-*-ink`, `--state-*-text`) for the root, from the palette. */
export function statePaletteCss(): string {
  const vars = UNIT_STATE_PRECEDENCE.flatMap((s) => {
    const { colour, ink, text } = STATE_PALETTE[s];
    return [`--state-${s}: ${colour};`, `--state-${s}-ink: ${ink};`, `--state-${s}-text: ${text};`];
  });
  return `:root { ${vars.join(" ")} }`;
}
