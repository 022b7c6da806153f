import { describe, expect, it } from "vitest";
import { settlePair } from "./resume-pairs";

const t = (tryNumber: number, status: string, interrupted = false, rowsWritten: number | null = 0) => ({ tryNumber, status, interrupted, rowsWritten });

describe("settlePair: what a continued repair runs again", () => {
  it("runs a pair with no try from try 1, and never re-runs a succeeded or blocked one", () => {
    expect(settlePair([], "replace")).toEqual({ settled: null, nextTry: 1 });
    expect(settlePair([t(1, "failed", true), t(2, "succeeded")], "append")).toEqual({ settled: "succeeded", nextTry: 3 });
    expect(settlePair([t(1, "upstream_failed")], "replace")).toEqual({ settled: "upstream_failed", nextTry: 2 });
  });
  it("keeps a pair that failed on its own failed", () => {
    expect(settlePair([t(1, "failed")], "replace")).toEqual({ settled: "failed", nextTry: 2 });
  });
  it("tries an interrupted replace or merge again, and an interrupted append only if it wrote nothing", () => {
    expect(settlePair([t(1, "failed", true, 12)], "replace")).toEqual({ settled: null, nextTry: 2 });
    expect(settlePair([t(1, "failed", true, 12)], "merge")).toEqual({ settled: null, nextTry: 2 });
    expect(settlePair([t(1, "failed", true, 0)], "append")).toEqual({ settled: null, nextTry: 2 });
    expect(settlePair([t(1, "failed", true, 12)], "append")).toEqual({ settled: "failed", nextTry: 2 });
    expect(settlePair([t(1, "failed", true, 3)], null)).toEqual({ settled: "failed", nextTry: 2 });
  });
});
