import { describe, expect, it } from "vitest";
import {
  ACTIVE_STATUSES,
  allowedActions,
  CLOSED_STATUSES,
  INCIDENT_ACTIONS,
  INCIDENT_STATUSES,
  INCIDENT_TRANSITIONS,
  IncidentTransitionRefused,
  nextStatus,
  requireTransition,
  statusesAllowing,
  type IncidentAction,
  type IncidentStatus,
} from "./incident-lifecycle";

// The lifecycle of docs/repair.md, drawn:
//
//   open ─scope─► scoped ─confirm_plan─► planned ─launch─► repairing ─finish_repair─► validating ─resolve─► resolved
//                   ▲                      │ (re-scope)                                   │ (re-scope)    ─override_validation─► resolved
//                   └──────── scope ───────┴────────────────── scope ─────────────────────┘
//   open, scoped, planned ─mark_units─► validating          open, scoped, planned, validating ─abandon─► abandoned
//
// Every edge that changes the status, read off the drawing:
const MOVES: [IncidentStatus, IncidentAction, IncidentStatus][] = [
  ["open", "scope", "scoped"],
  ["planned", "scope", "scoped"],
  ["validating", "scope", "scoped"],
  ["scoped", "confirm_plan", "planned"],
  ["validating", "confirm_plan", "planned"],
  ["planned", "launch", "repairing"],
  ["repairing", "finish_repair", "validating"],
  ["open", "mark_units", "validating"],
  ["scoped", "mark_units", "validating"],
  ["planned", "mark_units", "validating"],
  ["validating", "resolve", "resolved"],
  ["validating", "override_validation", "resolved"],
  ["open", "abandon", "abandoned"],
  ["scoped", "abandon", "abandoned"],
  ["planned", "abandon", "abandoned"],
  ["validating", "abandon", "abandoned"],
];
// …and every action allowed where it changes nothing (a review, an intervention on units, a note):
const ACTIVE: IncidentStatus[] = ["open", "scoped", "planned", "repairing", "validating"];
const STAYS: Partial<Record<IncidentAction, IncidentStatus[]>> = {
  scope: ["scoped"],
  review_preconditions: ["scoped", "planned", "validating"],
  dry_run_plan: ["scoped", "planned", "validating"],
  confirm_plan: ["planned"],
  dry_run: ["planned"],
  cancel_repair: ["repairing"],
  mark_units: ["validating"],
  clean_unit: ACTIVE,
  declare_cleaned: ACTIVE,
  declare_replace: ACTIVE,
  add_note: [...INCIDENT_STATUSES],
  set_severity: ACTIVE,
  assign: ACTIVE,
};

function expected(status: IncidentStatus, action: IncidentAction): IncidentStatus | null {
  const move = MOVES.find(([from, a]) => from === status && a === action);
  if (move) return move[2];
  return STAYS[action]?.includes(status) ? status : null;
}

/** Every (status, action) pair the table gives no answer for, or answers with something that is not a status or a refusal. */
function undefinedPairs(table: Record<string, readonly unknown[]>): string[] {
  const out: string[] = [];
  for (const action of INCIDENT_ACTIONS) {
    const row = table[action];
    INCIDENT_STATUSES.forEach((status, i) => {
      const answer = row?.[i];
      if (answer !== null && !(INCIDENT_STATUSES as readonly unknown[]).includes(answer)) out.push(`${status} × ${action}`);
    });
    if (row && row.length !== INCIDENT_STATUSES.length) out.push(`${action}: ${row.length} answers for ${INCIDENT_STATUSES.length} statuses`);
  }
  for (const key of Object.keys(table)) if (!(INCIDENT_ACTIONS as readonly string[]).includes(key)) out.push(`${key}: not an action`);
  return out;
}

describe("the incident lifecycle", () => {
  it("is total: every status × action pair has an answer — a status to move to, or a refusal", () => {
    expect(undefinedPairs(INCIDENT_TRANSITIONS)).toEqual([]);
    expect(INCIDENT_STATUSES.length * INCIDENT_ACTIONS.length).toBe(7 * 18);
  });

  it("the totality check fails on a table with a hole, a stray answer or an unknown action", () => {
    const holed = { ...INCIDENT_TRANSITIONS, abandon: INCIDENT_TRANSITIONS.abandon.slice(0, 6) };
    expect(undefinedPairs(holed)).toEqual(["abandoned × abandon", "abandon: 6 answers for 7 statuses"]);
    const stray = { ...INCIDENT_TRANSITIONS, launch: [null, null, "running", null, null, null, null] };
    expect(undefinedPairs(stray)).toEqual(["planned × launch"]);
    const { resolve: _gone, ...missing } = INCIDENT_TRANSITIONS;
    void _gone;
    expect(undefinedPairs({ ...missing, reopen: INCIDENT_TRANSITIONS.add_note })).toEqual(
      INCIDENT_STATUSES.map((s) => `${s} × resolve`).concat("reopen: not an action"),
    );
  });

  it.each(INCIDENT_STATUSES.flatMap((s) => INCIDENT_ACTIONS.map((a) => [s, a] as const)))("%s × %s: as drawn", (status, action) => {
    const to = expected(status, action);
    expect(nextStatus(status, action)).toBe(to);
    if (to === null) {
      expect(() => requireTransition(status, action, "inc-1")).toThrow(IncidentTransitionRefused);
    } else {
      expect(requireTransition(status, action, "inc-1")).toBe(to);
    }
  });

  it("counts: 16 moves, 43 allowed stays, the other 67 pairs refused", () => {
    const answers = INCIDENT_STATUSES.flatMap((s) => INCIDENT_ACTIONS.map((a) => [s, nextStatus(s, a)] as const));
    expect(answers.filter(([s, to]) => to !== null && to !== s)).toHaveLength(16);
    expect(answers.filter(([s, to]) => to === s)).toHaveLength(43);
    expect(answers.filter(([, to]) => to === null)).toHaveLength(67);
  });

  it("a refusal names the incident, its status, the action and where the action is allowed", () => {
    const refusal = (() => {
      try {
        requireTransition("repairing", "abandon", "inc-7");
      } catch (e) {
        return e;
      }
    })();
    expect(refusal).toBeInstanceOf(IncidentTransitionRefused);
    expect(refusal).toMatchObject({
      incidentId: "inc-7",
      incidentStatus: "repairing",
      action: "abandon",
      allowedFrom: ["open", "scoped", "planned", "validating"],
    });
    expect((refusal as Error).message).toBe("incident inc-7 is repairing: abandon needs it open, scoped, planned or validating");
    expect(() => requireTransition("scoped", "launch", "inc-7")).toThrow("incident inc-7 is scoped: launch needs it planned");
    expect(() => requireTransition("resolved", "mark_units", "inc-7")).toThrow(
      "incident inc-7 is resolved: mark units needs it open, scoped, planned or validating",
    );
  });

  it("no marks while a repair runs: the run holds those units, and its end moves the incident on", () => {
    expect(statusesAllowing("mark_units")).toEqual(["open", "scoped", "planned", "validating"]);
    expect(nextStatus("repairing", "mark_units")).toBeNull();
  });

  it("allowed actions per status: what a person may do, never the run's own end", () => {
    expect(allowedActions("open")).toEqual([
      "scope",
      "mark_units",
      "clean_unit",
      "declare_cleaned",
      "declare_replace",
      "abandon",
      "add_note",
      "set_severity",
      "assign",
    ]);
    expect(allowedActions("scoped")).toEqual([
      "scope",
      "review_preconditions",
      "dry_run_plan",
      "confirm_plan",
      "mark_units",
      "clean_unit",
      "declare_cleaned",
      "declare_replace",
      "abandon",
      "add_note",
      "set_severity",
      "assign",
    ]);
    expect(allowedActions("planned")).toEqual([
      "scope",
      "review_preconditions",
      "dry_run_plan",
      "confirm_plan",
      "dry_run",
      "launch",
      "mark_units",
      "clean_unit",
      "declare_cleaned",
      "declare_replace",
      "abandon",
      "add_note",
      "set_severity",
      "assign",
    ]);
    expect(allowedActions("repairing")).toEqual(["cancel_repair", "clean_unit", "declare_cleaned", "declare_replace", "add_note", "set_severity", "assign"]);
    expect(allowedActions("validating")).toEqual([
      "scope",
      "review_preconditions",
      "dry_run_plan",
      "confirm_plan",
      "mark_units",
      "clean_unit",
      "declare_cleaned",
      "declare_replace",
      "resolve",
      "override_validation",
      "abandon",
      "add_note",
      "set_severity",
      "assign",
    ]);
    expect(allowedActions("resolved")).toEqual(["add_note"]);
    expect(allowedActions("abandoned")).toEqual(["add_note"]);
  });

  it("open and closed statuses follow from the table: closed ones have no way out", () => {
    expect(ACTIVE_STATUSES).toEqual(["open", "scoped", "planned", "repairing", "validating"]);
    expect(CLOSED_STATUSES).toEqual(["resolved", "abandoned"]);
  });

  it("every status is reachable from open, and every open status can reach a closed one", () => {
    const reach = (from: IncidentStatus) => {
      const seen = new Set<IncidentStatus>([from]);
      for (let grew = true; grew;) {
        grew = false;
        for (const s of [...seen])
          for (const a of INCIDENT_ACTIONS) {
            const to = nextStatus(s, a);
            if (to && !seen.has(to)) {
              seen.add(to);
              grew = true;
            }
          }
      }
      return seen;
    };
    expect([...reach("open")].sort()).toEqual([...INCIDENT_STATUSES].sort());
    for (const s of ACTIVE_STATUSES)
      expect(
        [...reach(s)].some((x) => CLOSED_STATUSES.includes(x)),
        s,
      ).toBe(true);
  });
});
