import { describe, expect, it } from "vitest";
import { rovingTarget } from "./roving-focus";

describe("rovingTarget", () => {
  it("moves with the arrows, wrapping at the ends, and jumps with Home and End", () => {
    expect([rovingTarget("ArrowRight", 0, 3), rovingTarget("ArrowDown", 2, 3), rovingTarget("ArrowLeft", 0, 3), rovingTarget("ArrowUp", 1, 3)]).toEqual([
      1, 0, 2, 0,
    ]);
    expect([rovingTarget("Home", 2, 3), rovingTarget("End", 0, 3)]).toEqual([0, 2]);
  });

  it("leaves every other key alone", () => {
    expect([rovingTarget("Tab", 0, 3), rovingTarget("Enter", 0, 3), rovingTarget("ArrowRight", 0, 0)]).toEqual([null, null, null]);
  });
});
