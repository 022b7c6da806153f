import { ConflictError } from "./errors";

/**
 * The incident's lifecycle as one table: its statuses, the actions (and the one event of the
 * repair run) that can happen to it, and for every (status, action) pair either the status it
 * moves to or a refusal.
 *
 * Why a table: the rule "which step may run now" used to be an allowed-from list inlined in
 * each use case and re-derived by each wizard step, and the copies drifted (marks were taken
 * while a repair ran, and their move to validation silently did nothing). Use cases ask
 * `requireTransition`, the API returns `allowedActions` and the UI renders from them.
 *
 *   open ──scope──► scoped ──confirm_plan──► planned ──launch──► repairing ──finish_repair──► validating ──resolve───────────► resolved
 *                     ▲                          │                                                │     ──override_validation──►
 *                     └───────── scope ──────────┴───────────────── scope ────────────────────────┘
 *   mark_units: open, scoped, planned ──► validating        abandon: open, scoped, planned, validating ──► abandoned
 *   While repairing: only cancel_repair, the interventions on units, notes, the severity and the commander.
 *   set_severity, assign (the commander): any open status, keeping it. Closed (resolved, abandoned): only notes.
 *
 * Example: requireTransition("repairing", "abandon", "inc-1") throws
 *   IncidentTransitionRefused("incident inc-1 is repairing: abandon needs it open, scoped, planned or validating").
 */

export const INCIDENT_STATUSES = ["open", "scoped", "planned", "repairing", "validating", "resolved", "abandoned"] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** What can happen to an incident: the operators' actions, and `finish_repair`, the repair run's own end. */
export const INCIDENT_ACTIONS = [
  "scope",
  "review_preconditions",
  "dry_run_plan",
  "confirm_plan",
  "dry_run",
  "launch",
  "cancel_repair",
  "finish_repair",
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
] as const;
export type IncidentAction = (typeof INCIDENT_ACTIONS)[number];

/** Events no person sends: the run that ends moves its incident on. Never offered as an allowed action. */
const SYSTEM_EVENTS: ReadonlySet<IncidentAction> = new Set(["finish_repair"]);

/** One answer per status, in INCIDENT_STATUSES order: the status the action moves to, or null (refused). */
type AnswerPer<T extends readonly unknown[]> = { readonly [K in keyof T]: IncidentStatus | null };
export type TransitionRow = AnswerPer<typeof INCIDENT_STATUSES>;

const _ = null;

/** The lifecycle, one column per status (kept aligned: prettier-ignore). A status the action keeps is written out: allowed, changing nothing. */
// prettier-ignore
export const INCIDENT_TRANSITIONS: { readonly [A in IncidentAction]: TransitionRow } = {
  //                       open          scoped        planned       repairing     validating    resolved      abandoned
  scope:                 ["scoped",     "scoped",     "scoped",     _,            "scoped",     _,            _],
  review_preconditions:  [_,            "scoped",     "planned",    _,            "validating", _,            _],
  dry_run_plan:          [_,            "scoped",     "planned",    _,            "validating", _,            _],
  confirm_plan:          [_,            "planned",    "planned",    _,            "planned",    _,            _],
  dry_run:               [_,            _,            "planned",    _,            _,            _,            _],
  launch:                [_,            _,            "repairing",  _,            _,            _,            _],
  cancel_repair:         [_,            _,            _,            "repairing",  _,            _,            _],
  finish_repair:         [_,            _,            _,            "validating", _,            _,            _],
  mark_units:            ["validating", "validating", "validating", _,            "validating", _,            _],
  clean_unit:            ["open",       "scoped",     "planned",    "repairing",  "validating", _,            _],
  declare_cleaned:       ["open",       "scoped",     "planned",    "repairing",  "validating", _,            _],
  declare_replace:       ["open",       "scoped",     "planned",    "repairing",  "validating", _,            _],
  resolve:               [_,            _,            _,            _,            "resolved",   _,            _],
  override_validation:   [_,            _,            _,            _,            "resolved",   _,            _],
  abandon:               ["abandoned",  "abandoned",  "abandoned",  _,            "abandoned",  _,            _],
  add_note:              ["open",       "scoped",     "planned",    "repairing",  "validating", "resolved",   "abandoned"],
  set_severity:          ["open",       "scoped",     "planned",    "repairing",  "validating", _,            _],
  assign:                ["open",       "scoped",     "planned",    "repairing",  "validating", _,            _],
};

/** The status `action` moves an incident in `status` to, or null when the lifecycle refuses it. */
export function nextStatus(status: IncidentStatus, action: IncidentAction): IncidentStatus | null {
  return INCIDENT_TRANSITIONS[action][INCIDENT_STATUSES.indexOf(status)] ?? null;
}

/** The statuses from which `action` is allowed, in lifecycle order. */
export function statusesAllowing(action: IncidentAction): IncidentStatus[] {
  return INCIDENT_STATUSES.filter((s) => nextStatus(s, action) !== null);
}

/** What a person may do to an incident in `status` (the repair run's own end is not theirs to do). */
export function allowedActions(status: IncidentStatus): IncidentAction[] {
  return INCIDENT_ACTIONS.filter((a) => !SYSTEM_EVENTS.has(a) && nextStatus(status, a) !== null);
}

/** Statuses an incident can still leave: the open incidents. The others (resolved, abandoned) are closed for good. */
export const ACTIVE_STATUSES: readonly IncidentStatus[] = INCIDENT_STATUSES.filter((s) =>
  INCIDENT_ACTIONS.some((a) => {
    const to = nextStatus(s, a);
    return to !== null && to !== s;
  }),
);
export const CLOSED_STATUSES: readonly IncidentStatus[] = INCIDENT_STATUSES.filter((s) => !ACTIVE_STATUSES.includes(s));

/** A refused transition: the incident is in `incidentStatus`, and `action` needs one of `allowedFrom`. The API answers 409. */
export class IncidentTransitionRefused extends ConflictError {
  readonly allowedFrom: readonly IncidentStatus[];
  constructor(
    readonly incidentId: string,
    readonly incidentStatus: IncidentStatus,
    readonly action: IncidentAction,
  ) {
    const allowedFrom = statusesAllowing(action);
    const needs = allowedFrom.length === 1 ? allowedFrom[0] : `${allowedFrom.slice(0, -1).join(", ")} or ${allowedFrom.at(-1)}`;
    super(`incident ${incidentId} is ${incidentStatus}: ${action.replace(/_/g, " ")} needs it ${needs}`, { incidentStatus, action, allowedFrom });
    this.allowedFrom = allowedFrom;
  }
}

/** The status `action` moves the incident to; throws IncidentTransitionRefused when the lifecycle refuses it. */
export function requireTransition(status: IncidentStatus, action: IncidentAction, incidentId: string): IncidentStatus {
  const to = nextStatus(status, action);
  if (to === null) throw new IncidentTransitionRefused(incidentId, status, action);
  return to;
}
