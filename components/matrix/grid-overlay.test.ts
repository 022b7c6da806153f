import { describe, expect, it } from "vitest";
import { lastColumnWithData } from "./grid-overlay";
import { rowName } from "./MatrixAxes";

describe("lastColumnWithData", () => {
  it("skips an open-ended feed's right end of expected units nobody wrote (missing) and columns with no unit", () => {
    // raw_orders runs on to today: published through column 2, then missing; stg_orders ends at column 2.
    expect(lastColumnWithData([{ shown: "pppmmmmm" }, { shown: "pfp-----" }])).toBe(2);
  });

  it("counts any unit with records — a failure, a mark — as data", () => {
    expect(lastColumnWithData([{ shown: "ppmmfmm" }, { shown: "------k" }])).toBe(6);
  });

  it("is -1 when nothing was ever written", () => {
    expect(lastColumnWithData([{ shown: "mmm" }, { shown: "---" }])).toBe(-1);
    expect(lastColumnWithData([])).toBe(-1);
  });
});

describe("rowName", () => {
  it("reads a row header's parts as separate words", () => {
    expect(rowName({ name: "stg_orders", pipeline: "orders", note: null })).toBe("stg_orders, pipeline orders");
    expect(rowName({ name: "customers", pipeline: null, note: "its definition was never declared" })).toBe("customers, units unknown");
  });
});
