import { describe, expect, it } from "vitest";
import { dayField } from "./day";
import { HistoryQuerySchema } from "./history";
import { UnitMatrixQuerySchema } from "./units";

describe("one day check for every contract", () => {
  it("takes calendar days and refuses what only looks like one", () => {
    for (const ok of ["2026-08-01", "2028-02-29", "1999-12-31"]) expect(dayField.safeParse(ok).success, ok).toBe(true);
    for (const bad of ["2026-13-45", "2026-02-29", "2026-8-1", "2026-08-01T00", "20260801", ""]) expect(dayField.safeParse(bad).success, bad).toBe(false);
  });

  it("the matrix and the history answer the same field-named problem for 2026-13-45", () => {
    const units = UnitMatrixQuerySchema.safeParse({ from: "2026-13-45" });
    const history = HistoryQuerySchema.safeParse({ from: "2026-13-45" });
    expect(units.success || history.success).toBe(false);
    const first = (r: typeof units | typeof history) => (r.success ? null : { path: r.error.issues[0]!.path, message: r.error.issues[0]!.message });
    expect(first(units)).toEqual({ path: ["from"], message: "a calendar day like 2026-08-01 (yyyy-MM-dd)" });
    expect(first(history)).toEqual(first(units));
  });
});
