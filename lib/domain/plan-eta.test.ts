import { describe, expect, it } from "vitest";
import { median, planEta } from "./plan-eta";

const S = 1000;
const from = new Date("2026-08-25T10:00:00Z");

describe("a plan's ETA from its tasks' recent attempts", () => {
  it("the worked example: waves in order, pairs on four lanes, a wave as long as its busiest lane", () => {
    const eta = planEta({
      waves: [
        [{ taskNodeId: "stg", unitCount: 3 }],
        [
          { taskNodeId: "fct", unitCount: 3 },
          { taskNodeId: "rev", unitCount: 1 },
        ],
      ],
      durationsMs: new Map([
        ["stg", [30 * S, 40 * S, 50 * S, 40 * S, 40 * S, 40 * S, 40 * S, 40 * S]],
        ["fct", [20 * S, 20 * S, 20 * S, 20 * S, 20 * S, 20 * S, 20 * S, 20 * S]],
        ["rev", [90 * S, 90 * S, 90 * S, 90 * S, 90 * S, 90 * S, 90 * S, 90 * S]],
      ]),
      concurrency: 4,
      from,
    });
    expect(eta).toEqual({ at: new Date("2026-08-25T10:02:10Z"), durationMs: 130 * S, basis: "from the median of 24 attempts of 3 tasks" });
  });

  it("more pairs than lanes queue: eight 10-s pairs on four lanes take 20 s", () => {
    const eta = planEta({ waves: [[{ taskNodeId: "t", unitCount: 8 }]], durationsMs: new Map([["t", [10 * S]]]), concurrency: 4, from });
    expect(eta.durationMs).toBe(20 * S);
  });

  it("a task that never ran is estimated from the others, and the basis says so", () => {
    const eta = planEta({
      waves: [[{ taskNodeId: "known", unitCount: 1 }], [{ taskNodeId: "new", unitCount: 1 }]],
      durationsMs: new Map([["known", [10 * S, 30 * S]]]),
      concurrency: 4,
      from,
    });
    expect(eta).toEqual({
      at: new Date(from.getTime() + 40 * S),
      durationMs: 40 * S,
      basis: "from the median of 2 attempts of 1 task; 1 task never ran: estimated from the others",
    });
  });

  it("no duration known anywhere: no ETA, never a guess", () => {
    expect(planEta({ waves: [[{ taskNodeId: "t", unitCount: 2 }]], durationsMs: new Map(), concurrency: 4, from })).toEqual({
      at: null,
      durationMs: null,
      basis: "no attempt of its tasks has a recorded duration",
    });
  });

  it("median of an even count is the mean of the middle two", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5])).toBe(5);
  });
});
