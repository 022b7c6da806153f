import { describe, expect, it } from "vitest";
import { UNIT_STATE_PRECEDENCE } from "@/lib/domain/unit-state";
import { STATE_CODES, UNIT_STATES } from "@/lib/contracts/units";
import { aggregateRow, bucketsOf } from "./aggregate";

const days = (from: string, n: number) =>
  Array.from({ length: n }, (_, i) => new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));

describe("matrix aggregation", () => {
  it("keeps the wire codes in the domain's precedence order", () => {
    expect([...UNIT_STATES]).toEqual([...UNIT_STATE_PRECEDENCE]);
    expect(new Set(STATE_CODES).size).toBe(14);
  });

  // stg_orders, 2026-08-10 … 2026-08-23: duplicate on the 10th, failed on the 17th and 23rd
  it("shows the worst state inside a week and a month", () => {
    const section = { grain: "day" as const, columns: days("2026-08-10", 14) };
    const cells = "dppppppfpppppf";
    const weeks = bucketsOf(section, "week");
    expect(weeks.map((b) => [b.label, b.from, b.to])).toEqual([
      ["2026-W33", 0, 6],
      ["2026-W34", 7, 13],
    ]);
    expect(aggregateRow(cells, weeks)).toBe("df");
    expect(aggregateRow(cells, bucketsOf(section, "month"))).toBe("f");
  });

  it("leaves a bucket with no unit of the dataset empty", () => {
    const section = { grain: "month" as const, columns: ["2026-01", "2026-02"] };
    expect(aggregateRow("-p", bucketsOf(section, "month"))).toBe("-p");
  });
});
