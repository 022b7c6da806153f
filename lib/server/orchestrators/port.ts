import type { OrchestratorKind, PlannedRequest } from "@/lib/contracts/orchestrators";
import type { WindowRange } from "@/lib/domain/window-ranges";

/**
 * The orchestrator port: everything lib/server/repair knows about where a repair runs. One
 * adapter per orchestrator (airflow, dagster, databricks, dbt, local), chosen per pipeline by
 * its connection. A repair run drives it wave by wave, the same way for every adapter:
 *
 *   preview(plan)            what the orchestrator would run (its own dry run where it has one)
 *   dispatchWave(plan, w)    start wave w's pairs; returns a handle kept with the run
 *   poll(plan, w, handle)    each pair's progress (the local adapter executes while polled)
 *   cancel(plan, handle)     stop what was dispatched
 *
 * The next wave is dispatched only once every pair of the previous one succeeded (an adapter
 * that `blocksDownstream` — the local executor — goes on and records the dependents blocked).
 * Every request an adapter sends is returned as an OrchestratorCall, which the caller writes
 * to the audit log: status and ids, never a secret.
 */

/** One (task, unit) of the plan, with the plan's wave. */
export interface PairRef {
  readonly taskNodeId: string;
  readonly unitKey: string;
  readonly wave: number;
}

/** What the adapter may know of a planned task. */
export interface TaskFacts {
  readonly taskNodeId: string;
  /** The task's name as ingested (an Airflow task's OpenLineage job name is `dag_id.task_id`). */
  readonly name: string;
  readonly namespace: string;
  readonly pipeline: string;
  readonly sideEffect: string | null;
  readonly writeMode: string | null;
}

export interface DispatchPlan {
  readonly incidentId: string;
  /** The repair run (null while previewing, before it exists). */
  readonly runId: string | null;
  readonly repairNumber: number;
  /** The pairs this adapter runs (its pipelines' share of the plan), in wave order. */
  readonly pairs: readonly PairRef[];
  readonly waves: number;
  readonly tasks: ReadonlyMap<string, TaskFacts>;
  /** Tasks of the same pipelines the plan leaves out on purpose (side effects): a dry run that would run them says so. */
  readonly excludedTasks: ReadonlySet<string>;
  /** The time window of a unit of a time-partitioned task (null for other partitionings). */
  windowOf(taskNodeId: string, unitKey: string): { start: Date; end: Date } | null;
  /**
   * A task's units as ranges of consecutive time windows (lib/domain windowRanges, from the units'
   * UnitSet), null when they are not time windows: what a request builder asks per range. A plan
   * built without it (by hand, for an adapter that never addresses units by time) has no time
   * windows to offer.
   */
  windowRanges?(taskNodeId: string, unitKeys: readonly string[]): readonly WindowRange[] | null;
  /** The unit whose window starts at `at` (an orchestrator's logical date), or null. */
  unitAt(taskNodeId: string, at: Date): string | null;
  readonly parameterOverrides: Readonly<Record<string, string>>;
  /** Per task node id: the idempotency key of a deliberate replay of a side-effecting task. */
  readonly idempotencyKeys: Readonly<Record<string, string>>;
  /** When the repair run was launched (null while previewing): what ran before it is not its doing. */
  readonly launchedAt: Date | null;
  /** The orchestrator ids earlier repairs of this incident kept (e.g. Databricks' latest repair_id). */
  readonly previous: Readonly<Record<string, unknown>>;
}

/** One request to the orchestrator and its answer, as the audit log records it. */
export interface OrchestratorCall {
  readonly orchestrator: OrchestratorKind;
  readonly method: string;
  /** Base URL and path; never a query string with credentials, never a header. */
  readonly url: string;
  readonly status: number | null;
  /** Ids the answer carried: backfill id, repair id, cleared task instances. */
  readonly ids?: Record<string, string | number | (string | number)[]>;
  readonly error?: string;
  readonly dryRun?: boolean;
}

export interface OrchestratorItem {
  readonly label: string;
  readonly taskNodeId: string | null;
  readonly unitKey: string | null;
  readonly sideEffect: boolean;
}

export interface Unsupported {
  readonly taskNodeId: string;
  readonly units: readonly string[];
  readonly reason: string;
}

export interface RequestsResult {
  readonly requests: readonly PlannedRequest[];
  readonly unsupported: readonly Unsupported[];
}

export interface PreviewResult extends RequestsResult {
  /** What the orchestrator's dry run would run beyond the plan. */
  readonly extra: readonly OrchestratorItem[];
  /** Planned pairs its dry run would not run. */
  readonly missing: readonly PairRef[];
  readonly calls: readonly OrchestratorCall[];
}

export type PairStatus = "pending" | "running" | "succeeded" | "failed";

export interface PairProgress {
  readonly taskNodeId: string;
  readonly unitKey: string;
  readonly status: PairStatus;
  /** The orchestrator's id of what runs the pair (task instance, run, repair). */
  readonly externalId?: string;
  readonly detail?: string;
}

/** Kept with the run between slices (JSON). */
export type WaveHandle = Readonly<Record<string, unknown>>;

export interface PollOptions {
  /** Start no new work after this instant (ms since the epoch): the slice's end. */
  readonly deadline: number;
}

export interface Orchestrator {
  readonly kind: OrchestratorKind;
  /** The local executor records pairs downstream of a failure as blocked itself; others are gated by the run. */
  readonly blocksDownstream: boolean;
  /** The requests that run the plan, without sending anything (the export to copy). */
  requests(plan: DispatchPlan): RequestsResult;
  preview(plan: DispatchPlan): Promise<PreviewResult>;
  /**
   * @param started what an earlier try of this wave had already started before it failed
   *   (OrchestratorError.started): not sent again — clearing a task instance that now runs would
   *   restart it, and an export in it would be delivered twice.
   */
  dispatchWave(plan: DispatchPlan, wave: number, started?: WaveHandle | null): Promise<{ handle: WaveHandle; calls: readonly OrchestratorCall[] }>;
  poll(
    plan: DispatchPlan,
    wave: number,
    handle: WaveHandle,
    options: PollOptions,
  ): Promise<{ pairs: readonly PairProgress[]; calls: readonly OrchestratorCall[] }>;
  cancel(plan: DispatchPlan, handle: WaveHandle): Promise<{ calls: readonly OrchestratorCall[] }>;
}

/** An orchestrator answered with an error, or could not be reached: the run records it and stops. */
export class OrchestratorError extends Error {
  /**
   * @param earlier the calls the same operation made before this one failed (a wave's first clears that went through).
   * @param started what a wave's dispatch had already started in the orchestrator before it failed, as a
   *   handle `cancel` can stop: a wave cut off halfway is still stopped if the repair is cancelled.
   */
  constructor(
    message: string,
    readonly call: OrchestratorCall,
    readonly earlier: readonly OrchestratorCall[] = [],
    readonly started: WaveHandle | null = null,
  ) {
    super(message);
  }
}
