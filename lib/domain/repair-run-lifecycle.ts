import { ConflictError } from "./errors";

/**
 * The repair run's lifecycle as one table, as the incident's (incident-lifecycle.ts): its
 * statuses, the events that can happen to it, and for every (status, event) pair the status it
 * moves to or a refusal.
 *
 * Why a table: "queued or running" was spelled out at a dozen sites (the lease, the cancel, the
 * progress stream, the launch refusal) and the Execute step re-derived which runs may be resumed
 * from its own list of statuses. The rules now live here; the API answers `allowedActions`.
 *
 *   queued ──start──► running ──succeed──► succeeded
 *     │                 │    ──end_partial──► partial ─┐
 *     │                 │    ──fail──► failed ─────────┤ resume (a new run of the pairs not done)
 *     └─────cancel──────┴────cancel──► cancelled ──────┤
 *                                      interrupted ────┘ (a run stopped before takeover existed)
 *   While queued or running: request_cancel and save_progress keep the status; take_over keeps it running.
 *   A run fails from queued too: its first slice can fail before it starts a pair.
 *
 * Example: nextRunStatus("running", "succeed") → "succeeded"; nextRunStatus("succeeded", "cancel") → null;
 * runAllowedActions("partial") → ["resume", "validate"].
 */

export const REPAIR_RUN_STATUSES = ["queued", "running", "succeeded", "partial", "failed", "cancelled", "interrupted"] as const;
export type RepairRunStatus = (typeof REPAIR_RUN_STATUSES)[number];

/** What can happen to a run: its slices' events (start, progress, takeover, its end) and the operators' (cancel, resume). */
export const REPAIR_RUN_EVENTS = ["start", "save_progress", "take_over", "request_cancel", "cancel", "succeed", "end_partial", "fail", "resume"] as const;
export type RepairRunEvent = (typeof REPAIR_RUN_EVENTS)[number];

type AnswerPer<T extends readonly unknown[]> = { readonly [K in keyof T]: RepairRunStatus | null };
type Row = AnswerPer<typeof REPAIR_RUN_STATUSES>;
const _ = null;

/**
 * One column per status (prettier-ignore keeps them aligned). `resume` does not move the ended run
 * (a resume is a new run of the same incident): the answer is the run's own status, kept.
 */
// prettier-ignore
export const REPAIR_RUN_TRANSITIONS: { readonly [E in RepairRunEvent]: Row } = {
  //                 queued       running      succeeded  partial    failed     cancelled    interrupted
  start:           ["running",   _,           _,         _,         _,         _,           _],
  save_progress:   ["queued",    "running",   _,         _,         _,         _,           _],
  take_over:       [_,           "running",   _,         _,         _,         _,           _],
  request_cancel:  ["queued",    "running",   _,         _,         _,         _,           _],
  cancel:          ["cancelled", "cancelled", _,         _,         _,         _,           _],
  succeed:         [_,           "succeeded", _,         _,         _,         _,           _],
  end_partial:     [_,           "partial",   _,         _,         _,         _,           _],
  fail:            ["failed",    "failed",    _,         _,         _,         _,           _],
  resume:          [_,           _,           _,         "partial", "failed",  "cancelled", "interrupted"],
};

export function isRepairRunStatus(v: unknown): v is RepairRunStatus {
  return typeof v === "string" && (REPAIR_RUN_STATUSES as readonly string[]).includes(v);
}

/** The status `event` moves a run in `status` to, or null when the lifecycle refuses it. */
export function nextRunStatus(status: RepairRunStatus, event: RepairRunEvent): RepairRunStatus | null {
  return REPAIR_RUN_TRANSITIONS[event][REPAIR_RUN_STATUSES.indexOf(status)] ?? null;
}

/** The statuses from which `event` is allowed, in lifecycle order. */
export function runStatusesAllowing(event: RepairRunEvent): RepairRunStatus[] {
  return REPAIR_RUN_STATUSES.filter((s) => nextRunStatus(s, event) !== null);
}

/** A run still going: a slice may own it, its pairs are claimed, it can be cancelled. */
export const ACTIVE_RUN_STATUSES: readonly RepairRunStatus[] = runStatusesAllowing("save_progress");
/** A run that has ended: it owns nothing and moves no more. */
export const ENDED_RUN_STATUSES: readonly RepairRunStatus[] = REPAIR_RUN_STATUSES.filter((s) => !ACTIVE_RUN_STATUSES.includes(s));

export function isActiveRun(status: string): boolean {
  return (ACTIVE_RUN_STATUSES as readonly string[]).includes(status);
}

/** How a run ends (the statuses its end events lead to). */
export type RepairRunEnd = "succeeded" | "partial" | "failed" | "cancelled";

/** The run's end from its pairs: succeeded when all did, failed when none did, partial between; no pair left to run is a cancel. */
export function runEndOf(pairs: number, succeeded: number): RepairRunEnd {
  if (pairs === 0) return "cancelled";
  return succeeded === pairs ? "succeeded" : succeeded === 0 ? "failed" : "partial";
}

const END_EVENT: Readonly<Record<RepairRunEnd, RepairRunEvent>> = { succeeded: "succeed", partial: "end_partial", failed: "fail", cancelled: "cancel" };

/** The event that ends a run in `end`. */
export const endEventOf = (end: RepairRunEnd): RepairRunEvent => END_EVENT[end];

/**
 * What an operator may do with a run in `status`, as the Execute step offers it: cancel one still
 * going (once: not after a cancel was asked for), resume one that ended short of every pair, and
 * validate once it has ended.
 */
export const RUN_ACTIONS = ["cancel", "resume", "validate"] as const;
export type RunAction = (typeof RUN_ACTIONS)[number];
export function runAllowedActions(status: RepairRunStatus, cancelRequested = false): RunAction[] {
  const out: RunAction[] = [];
  if (nextRunStatus(status, "cancel") !== null && !cancelRequested) out.push("cancel");
  if (nextRunStatus(status, "resume") !== null) out.push("resume");
  if (ENDED_RUN_STATUSES.includes(status)) out.push("validate");
  return out;
}

/** A refused run event: the API answers 409 naming the run's status and what the event needs. */
export class RunTransitionRefused extends ConflictError {
  constructor(
    readonly runId: string,
    readonly runStatus: RepairRunStatus,
    readonly event: RepairRunEvent,
  ) {
    const from = runStatusesAllowing(event);
    const needs = from.length === 1 ? from[0] : `${from.slice(0, -1).join(", ")} or ${from.at(-1)}`;
    super(`repair run ${runId} is ${runStatus}: ${event.replace(/_/g, " ")} needs it ${needs}`, { runStatus, event, allowedFrom: from });
  }
}

/** The status `event` moves the run to; throws RunTransitionRefused when the lifecycle refuses it. */
export function requireRunTransition(status: RepairRunStatus, event: RepairRunEvent, runId: string): RepairRunStatus {
  const to = nextRunStatus(status, event);
  if (to === null) throw new RunTransitionRefused(runId, status, event);
  return to;
}
