import { describe, expect, it } from "vitest";
import { OKABE_ITO } from "@/components/shell/okabe-ito";
import { INTERVENTION_KINDS } from "@/lib/contracts/history";
import { CATEGORY_COLOURS, INTERVENTION_COLOURS } from "./chart-colours";

describe("history chart colours", () => {
  it("give every intervention kind its own Okabe–Ito colour, none reused", () => {
    const colours = Object.keys(INTERVENTION_KINDS).map((k) => INTERVENTION_COLOURS[k as keyof typeof INTERVENTION_KINDS]);
    expect(colours.every((c) => Object.values(OKABE_ITO).includes(c as never))).toBe(true);
    expect(new Set(colours).size).toBe(Object.keys(INTERVENTION_KINDS).length);
  });

  it("give every failure category its own colour", () => {
    const colours = Object.values(CATEGORY_COLOURS);
    expect(new Set(colours).size).toBe(colours.length);
  });
});
