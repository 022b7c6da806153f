import { describe, expect, it } from "vitest";
import { UNIT_STATE_PRECEDENCE } from "@/lib/domain/unit-state";
import { colourDifference, deltaE2000, labOf, type Vision } from "./colour-difference";
import { OKABE_ITO } from "./okabe-ito";
import { contrast, inkOn, STATE_PALETTE, statePaletteCss, textColourOf } from "./state-palette";

const VISIONS: Vision[] = ["normal", "protanopia", "deuteranopia", "tritanopia"];
/** Two small patches this far apart (CIEDE2000) are told apart at a glance. */
const MIN_DELTA_E = 10;

describe("CIEDE2000", () => {
  // Sharma, Wu & Dalal (2005), "The CIEDE2000 color-difference formula", table 1.
  it.each([
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 0, 0], [50, -1, 2], 2.3669],
    [[50, 2.49, -0.001], [50, -2.49, 0.0009], 7.1792],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
    [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
  ] as const)("%j → %j is %d", (a, b, expected) => {
    expect(deltaE2000(a, b)).toBeCloseTo(expected, 4);
  });

  it("reads sRGB through CIELAB (D65): white is L 100, pure red L 53.24 a 80.09 b 67.20", () => {
    const round = (lab: readonly number[]) => lab.map((v) => Math.round(v * 100) / 100 + 0);
    expect(round(labOf("#ffffff"))).toEqual([100, 0, 0]);
    expect(round(labOf("#ff0000"))).toEqual([53.24, 80.09, 67.2]);
  });

  it("simulates colour-vision deficiencies: the palette before issue 16 fails the check below", () => {
    // Its repaired teal and published green (the pair issue 16 named) under tritanopia, and its
    // blocked and divergent oranges under deuteranopia.
    expect(colourDifference("#0d9488", "#16a34a", "tritanopia")).toBeCloseTo(4.25, 1);
    expect(colourDifference("#f97316", "#ea580c", "deuteranopia")).toBeCloseTo(5.67, 1);
    expect(colourDifference("#f97316", "#ea580c", "deuteranopia")).toBeLessThan(colourDifference("#f97316", "#ea580c"));
  });
});

describe("the unit-state palette", () => {
  const states = [...UNIT_STATE_PRECEDENCE];
  const pairs = states.flatMap((a, i) => states.slice(i + 1).map((b) => [a, b] as const));

  it.each(VISIONS)("keeps every pair of the 14 states at least ΔE2000 10 apart with %s vision", (vision) => {
    const closest = pairs
      .map(([a, b]) => ({ pair: `${a}/${b}`, dE: colourDifference(STATE_PALETTE[a].colour, STATE_PALETTE[b].colour, vision) }))
      .sort((x, y) => x.dE - y.dE)[0]!;
    expect(closest.dE, `closest pair: ${closest.pair}`).toBeGreaterThanOrEqual(MIN_DELTA_E);
  });

  it("tells repaired from published for everyone, and marks the repair besides", () => {
    for (const v of VISIONS) expect(colourDifference(STATE_PALETTE.repaired.colour, STATE_PALETTE.published.colour, v), v).toBeGreaterThanOrEqual(MIN_DELTA_E);
    expect(STATE_PALETTE.repaired.mark).not.toBe(STATE_PALETTE.published.mark);
  });

  it("draws the eight Okabe–Ito colours, and hatches every state with no publish", () => {
    const used = new Set(states.map((s) => STATE_PALETTE[s].colour));
    for (const c of Object.values(OKABE_ITO)) expect(used.has(c), c).toBe(true);
    expect(states.filter((s) => STATE_PALETTE[s].mark === "hatch")).toEqual(["failed", "blocked", "missing"]);
  });

  it("writes black ink on light colours and white on dark ones", () => {
    expect([inkOn(OKABE_ITO.yellow), inkOn(OKABE_ITO.black), inkOn("#d6d6d6"), inkOn("#003350")]).toEqual(["#000000", "#ffffff", "#000000", "#ffffff"]);
  });

  it("colours a word by its state only in a shade of it that reads on white (4.5:1)", () => {
    for (const s of states) expect(contrast(STATE_PALETTE[s].text, "#ffffff"), s).toBeGreaterThanOrEqual(4.5);
    // Orange as text is 2.3:1 on white; its darkened shade passes.
    expect(contrast(OKABE_ITO.orange, "#ffffff")).toBeLessThan(2.3);
    expect(textColourOf(OKABE_ITO.orange)).not.toBe("#000000");
    expect(textColourOf("#000000")).toBe("#000000");
  });

  it("gives the root one --state-* variable per state", () => {
    const css = statePaletteCss();
    for (const s of states) expect(css).toContain(`--state-${s}: ${STATE_PALETTE[s].colour};`);
    for (const s of states) expect(css).toContain(`--state-${s}-text: ${STATE_PALETTE[s].text};`);
  });
});
