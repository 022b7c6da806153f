import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromRuns, toRuns } from "./cell-runs";
import { NO_UNIT, STATE_CODES } from "./units";

const CODES = [...STATE_CODES, NO_UNIT];

describe("cell runs", () => {
  it("writes each code once with its count when it repeats", () => {
    expect(toRuns("pppppfpp")).toBe("p5fp2");
    expect(toRuns("")).toBe("");
    expect(toRuns("-".repeat(12) + "mmp")).toBe("-12m2p");
    expect(fromRuns("p5fp2", 8)).toBe("pppppfpp");
  });

  it("reads back every row it writes, never longer than the row (seeded)", () => {
    // Rows of long runs (the usual) and of single cells (the worst case for runs) alike.
    const row = fc.array(fc.record({ code: fc.constantFrom(...CODES), n: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 400 })) }), { maxLength: 60 });
    fc.assert(
      fc.property(row, (runs) => {
        const cells = runs.map((r) => r.code.repeat(r.n)).join("");
        const written = toRuns(cells);
        expect(written.length).toBeLessThanOrEqual(cells.length);
        expect(fromRuns(written, cells.length)).toBe(cells);
      }),
      { seed: 20261204, numRuns: 300 },
    );
  });

  it("refuses what toRuns never writes, and a count other than the row's length, before allocating it", () => {
    expect(fromRuns("5p", 6)).toBeNull();
    expect(fromRuns("p1", 1)).toBeNull();
    expect(fromRuns("p0", 0)).toBeNull();
    expect(fromRuns("p07", 7)).toBeNull();
    expect(fromRuns("p3", 4)).toBeNull();
    expect(fromRuns("p3f", 3)).toBeNull();
    expect(fromRuns("p99999999999999999999", 10)).toBeNull();
    expect(fromRuns("p2é", 3)).toBeNull();
  });
});
