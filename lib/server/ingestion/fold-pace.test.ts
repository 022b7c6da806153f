import { describe, expect, it } from "vitest";
import { configuredFoldMaxWaitMs, FOLD_QUIET_MS, foldHoldMs } from "./fold-pace";

const NOW = Date.parse("2026-12-03T12:00:00Z");
const ago = (ms: number) => new Date(NOW - ms);

describe("folding's pace while a console accepts events", () => {
  const pace = (lastAcceptedAgoMs: number, maxWaitMs = 10_000) => ({ lastAcceptedAt: NOW - lastAcceptedAgoMs, maxWaitMs });

  it("folds at once when the console has been quiet, or nothing is queued", () => {
    expect(foldHoldMs(pace(FOLD_QUIET_MS), ago(100), NOW)).toBe(0);
    expect(foldHoldMs(pace(5_000), ago(100), NOW)).toBe(0);
    expect(foldHoldMs(pace(0), null, NOW)).toBe(0);
  });

  it("waits for a pause while events keep arriving, never past the oldest event's limit", () => {
    // Accepted 50 ms ago, the oldest queued 2 s ago: wait out the rest of the quiet period.
    expect(foldHoldMs(pace(50), ago(2_000), NOW)).toBe(FOLD_QUIET_MS - 50);
    // The oldest is 10 ms from its limit: wait only those.
    expect(foldHoldMs(pace(0), ago(9_990), NOW)).toBe(10);
    // At or past the limit: fold now, however busy.
    expect(foldHoldMs(pace(0), ago(10_000), NOW)).toBe(0);
    expect(foldHoldMs(pace(0), ago(60_000), NOW)).toBe(0);
  });

  it("never holds when the limit is 0", () => {
    expect(foldHoldMs(pace(0, 0), ago(0), NOW)).toBe(0);
  });

  it("REPARO_FOLD_MAX_WAIT_SECONDS: none by default (fold at once), seconds from 0 to 3600, anything else names the variable", () => {
    expect(configuredFoldMaxWaitMs({})).toBe(0);
    expect(configuredFoldMaxWaitMs({ REPARO_FOLD_MAX_WAIT_SECONDS: "10" })).toBe(10_000);
    expect(configuredFoldMaxWaitMs({ REPARO_FOLD_MAX_WAIT_SECONDS: " 2.5 " })).toBe(2_500);
    expect(configuredFoldMaxWaitMs({ REPARO_FOLD_MAX_WAIT_SECONDS: "0" })).toBe(0);
    for (const bad of ["-1", "soon", "3601", "Infinity"])
      expect(() => configuredFoldMaxWaitMs({ REPARO_FOLD_MAX_WAIT_SECONDS: bad })).toThrow(/REPARO_FOLD_MAX_WAIT_SECONDS/);
  });
});
