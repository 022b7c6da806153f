import { describe, expect, it } from "vitest";
import { nextCursor } from "./dagster-cursor";

describe("nextCursor: no run that changes while a poll reads is skipped", () => {
  const start = { after: null, page: null, high: null, since: null };
  const read = (updateTimes: number[], exhausted: boolean, lastRunId: string | null, startedAt: number, endedAt: number) => ({
    updateTimes,
    exhausted,
    lastRunId,
    startedAt,
    endedAt,
  });
  it.each([
    [
      "the first poll, read through in 2 s: after = newest − 2 s",
      start,
      read([5, 9, 7], true, "r1", 1_000, 3_000),
      { after: 7, page: null, high: null, since: null },
    ],
    ["nothing changed since: after kept", { ...start, after: 9 }, read([], true, null, 0, 10), { after: 9, page: null, high: null, since: null }],
    ["never backwards", { ...start, after: 9 }, read([9.5], true, "r1", 0, 5_000), { after: 9, page: null, high: null, since: null }],
    [
      "a backlog: the next poll reads on after the last run id",
      { ...start, after: 3 },
      read([50, 40], false, "r9", 1_000, 2_000),
      { after: 3, page: "r9", high: 50, since: 1_000 },
    ],
    [
      "the backlog read through 30 s after its first page: after = its newest − 30 s",
      { after: 3, page: "r9", high: 50, since: 1_000 },
      read([20, 10], true, "r12", 20_000, 31_000),
      { after: 20, page: null, high: null, since: null },
    ],
  ] as const)("%s", (_name, cursor, runs, next) => {
    expect(nextCursor(cursor, runs)).toEqual(next);
  });
});
