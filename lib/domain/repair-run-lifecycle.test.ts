import { describe, expect, it } from "vitest";
import {
  ACTIVE_RUN_STATUSES,
  ENDED_RUN_STATUSES,
  endEventOf,
  isActiveRun,
  nextRunStatus,
  REPAIR_RUN_EVENTS,
  REPAIR_RUN_STATUSES,
  requireRunTransition,
  runAllowedActions,
  runEndOf,
  RunTransitionRefused,
  type RepairRunEvent,
  type RepairRunStatus,
} from "./repair-run-lifecycle";

// The run's lifecycle, drawn:
//
//   queued ─start─► running ─succeed─► succeeded
//     │               │     ─end_partial─► partial
//     │               │     ─fail─► failed
//     └────cancel─────┴─────cancel─► cancelled        (queued ─fail─► failed: a first slice that fails before any pair)
//
// Every edge that changes the status, read off the drawing:
const MOVES: [RepairRunStatus, RepairRunEvent, RepairRunStatus][] = [
  ["queued", "start", "running"],
  ["running", "succeed", "succeeded"],
  ["running", "end_partial", "partial"],
  ["running", "fail", "failed"],
  ["queued", "fail", "failed"],
  ["queued", "cancel", "cancelled"],
  ["running", "cancel", "cancelled"],
];

describe("the repair run's lifecycle", () => {
  it("moves along the drawing's edges and nowhere else", () => {
    for (const [from, event, to] of MOVES) expect(nextRunStatus(from, event), `${from} --${event}-->`).toBe(to);
    const drawn = new Set(MOVES.map(([f, e]) => `${f} ${e}`));
    for (const s of REPAIR_RUN_STATUSES)
      for (const e of REPAIR_RUN_EVENTS) {
        const to = nextRunStatus(s, e);
        if (to !== null && to !== s) expect(drawn.has(`${s} ${e}`), `${s} --${e}--> ${to} is not drawn`).toBe(true);
      }
  });

  it("is active while queued or running, and an ended run moves no more", () => {
    expect(ACTIVE_RUN_STATUSES).toEqual(["queued", "running"]);
    expect(ENDED_RUN_STATUSES).toEqual(["succeeded", "partial", "failed", "cancelled", "interrupted"]);
    for (const s of ENDED_RUN_STATUSES) {
      expect(isActiveRun(s)).toBe(false);
      for (const e of REPAIR_RUN_EVENTS) {
        const to = nextRunStatus(s, e);
        expect(to === null || to === s, `${s} --${e}--> ${to}`).toBe(true);
      }
    }
    expect(isActiveRun("running")).toBe(true);
    expect(isActiveRun("whatever")).toBe(false);
  });

  it("ends from its pairs, and each end has its event", () => {
    expect(runEndOf(31, 31)).toBe("succeeded");
    expect(runEndOf(31, 28)).toBe("partial");
    expect(runEndOf(31, 0)).toBe("failed");
    expect(runEndOf(0, 0)).toBe("cancelled");
    for (const end of ["succeeded", "partial", "failed", "cancelled"] as const) expect(nextRunStatus("running", endEventOf(end))).toBe(end);
  });

  it("offers cancel while going (once), resume after a run that stopped short, validate once ended", () => {
    expect(runAllowedActions("queued")).toEqual(["cancel"]);
    expect(runAllowedActions("running")).toEqual(["cancel"]);
    expect(runAllowedActions("running", true)).toEqual([]);
    expect(runAllowedActions("succeeded")).toEqual(["validate"]);
    for (const s of ["partial", "failed", "cancelled", "interrupted"] as const) expect(runAllowedActions(s)).toEqual(["resume", "validate"]);
  });

  it("refuses with the statuses the event needs", () => {
    expect(requireRunTransition("running", "succeed", "run-1")).toBe("succeeded");
    expect(() => requireRunTransition("succeeded", "cancel", "run-1")).toThrow(new RunTransitionRefused("run-1", "succeeded", "cancel"));
    expect(() => requireRunTransition("succeeded", "cancel", "run-1")).toThrow("repair run run-1 is succeeded: cancel needs it queued or running");
  });
});
