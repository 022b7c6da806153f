import type { DatabricksConnection, PlannedRequest } from "@/lib/contracts/orchestrators";
import { expectStatus, requestJson } from "./http";
import {
  OrchestratorError,
  type DispatchPlan,
  type Orchestrator,
  type OrchestratorCall,
  type PairProgress,
  type PairRef,
  type PairStatus,
  type TaskFacts,
  type Unsupported,
  type WaveHandle,
} from "./port";
import { readSecret } from "./secrets";

/**
 * The Databricks adapter: a repair wave is one repair of the job run that failed,
 * `POST /api/2.2/jobs/runs/repair`, re-running exactly the wave's tasks with
 * `rerun_dependent_tasks: false` (Reparo already lists the closure; Databricks' dependents
 * would bring back the side-effecting tasks the plan excluded). The units to recompute go to
 * the same job as one JSON job parameter, `connection.unitsParameter`.
 *
 * Contract: databricks-sdk-go service/jobs model.go (test/fixtures/peers/databricks) —
 * RepairRun (run_id, rerun_tasks, rerun_dependent_tasks, latest_repair_id, job_parameters:
 * map[string]string), RepairRunResponse.repair_id, GetRunRequest (run_id, include_history,
 * page_token), Run (tasks, repair_history, next_page_token), RunTask (task_key, run_id,
 * attempt_number, state, status), RepairHistoryItem (id, type ORIGINAL|REPAIR, task_run_ids,
 * state, status), RunState (life_cycle_state, result_state, state_message), RunStatus
 * (state, termination_details { code, type, message }), CancelRun.run_id.
 */

/** `RepairRun` as Reparo fills it. */
export interface DatabricksRepairRun {
  readonly run_id: number;
  readonly rerun_tasks: string[];
  readonly rerun_dependent_tasks: false;
  /** Required by Databricks from a run's second repair on: its latest repair's id. */
  readonly latest_repair_id?: number;
  readonly job_parameters: Record<string, string>;
}

/** The handle of a dispatched wave (JSON). */
export interface DatabricksWaveHandle {
  readonly runId: number;
  readonly repairId: number;
  readonly taskKeys: string[];
}

export const NO_RUN_ID = "no Databricks job run id: set jobRunId on the pipeline's connection or ingest the run's facets";

const REPAIR_PATH = "/api/2.2/jobs/runs/repair";
const GET_RUN_PATH = "/api/2.2/jobs/runs/get";
const CANCEL_PATH = "/api/2.2/jobs/runs/cancel";

/** `RunState` (the legacy state). */
interface RunState {
  readonly life_cycle_state?: string;
  readonly result_state?: string;
  readonly state_message?: string;
}

/** `RunStatus` (the newer state, with termination details). */
interface RunStatus {
  readonly state?: string;
  readonly termination_details?: { readonly code?: string; readonly type?: string; readonly message?: string };
}

interface RunTask {
  readonly task_key: string;
  readonly run_id?: number;
  readonly attempt_number?: number;
  readonly state?: RunState;
  readonly status?: RunStatus;
}

interface RepairHistoryItem {
  readonly id?: number;
  readonly start_time?: number;
  readonly type?: string;
  readonly task_run_ids?: readonly number[];
  readonly state?: RunState;
  readonly status?: RunStatus;
}

interface Run {
  readonly run_id?: number;
  readonly tasks?: readonly RunTask[];
  readonly repair_history?: readonly RepairHistoryItem[];
  readonly next_page_token?: string;
  readonly state?: RunState;
}

/** A (task or repair) state → the pair's status: `status` (RunStatus) when Databricks sends it, else `state` (RunState). */
export function databricksStatus(state: RunState | undefined, status: RunStatus | undefined): { status: PairStatus; detail: string } {
  if (status?.state) {
    const t = status.termination_details;
    switch (status.state) {
      case "TERMINATED": {
        const ok = t?.code === "SUCCESS" || (t?.code === undefined && t?.type === "SUCCESS");
        return { status: ok ? "succeeded" : "failed", detail: `TERMINATED${t?.code ? ` ${t.code}` : ""}${t?.message ? `: ${t.message}` : ""}` };
      }
      case "RUNNING":
      case "TERMINATING":
        return { status: "running", detail: status.state };
      default:
        return { status: "pending", detail: status.state }; // PENDING, QUEUED, BLOCKED, WAITING
    }
  }
  const life = state?.life_cycle_state;
  const message = state?.state_message ? `: ${state.state_message}` : "";
  switch (life) {
    case "TERMINATED":
      return { status: state?.result_state === "SUCCESS" ? "succeeded" : "failed", detail: `TERMINATED ${state?.result_state ?? ""}${message}`.trim() };
    case "SKIPPED":
    case "INTERNAL_ERROR":
      return { status: "failed", detail: `${life}${message}` };
    case "RUNNING":
    case "TERMINATING":
      return { status: "running", detail: life };
    default:
      return { status: "pending", detail: life ?? "no state yet" }; // PENDING, QUEUED, BLOCKED, WAITING_FOR_RETRY
  }
}

export function databricksOrchestrator(connection: DatabricksConnection): Orchestrator {
  const base = connection.baseUrl;

  /** The job run to repair: the one ingested run facets named, else the connection's. */
  function jobRunId(p: DispatchPlan): number | null {
    const previous = p.previous["databricks.runId"];
    if (typeof previous === "number" && Number.isSafeInteger(previous) && previous > 0) return previous;
    if (typeof previous === "string" && /^[1-9][0-9]*$/.test(previous)) return Number(previous);
    return connection.jobRunId ?? null;
  }

  /** The task's task_key in the job: the connection's mapping (by node id, then name), else its name. */
  const taskKey = (task: TaskFacts): string => connection.tasks[task.taskNodeId] ?? connection.tasks[task.name] ?? task.name;

  /** The units of a task as "lo..hi" ranges of adjacent time windows, else one key each. */
  function ranges(p: DispatchPlan, taskNodeId: string, units: readonly string[]): string[] {
    const windows = units.map((u) => ({ u, w: p.windowOf(taskNodeId, u) }));
    if (windows.some((x) => x.w === null)) return [...new Set(units)];
    const sorted = [...new Map(windows.map((x) => [x.u, x])).values()].sort((a, b) => a.w!.start.getTime() - b.w!.start.getTime());
    const out: string[] = [];
    let lo = sorted[0];
    let hi = sorted[0];
    for (const x of sorted.slice(1)) {
      if (hi && x.w!.start.getTime() === hi.w!.end.getTime()) hi = x;
      else {
        if (lo && hi) out.push(lo.u === hi.u ? lo.u : `${lo.u}..${hi.u}`);
        lo = x;
        hi = x;
      }
    }
    if (lo && hi) out.push(lo.u === hi.u ? lo.u : `${lo.u}..${hi.u}`);
    return out;
  }

  /** Per wave: one RepairRun body (without latest_repair_id) and its pairs; the rest is unsupported. */
  function plan(p: DispatchPlan): { repairs: { wave: number; pipeline: string; pairs: PairRef[]; body: DatabricksRepairRun }[]; unsupported: Unsupported[] } {
    const runId = jobRunId(p);
    const unsupported = new Map<string, { reason: string; units: string[] }>();
    const supported: { pair: PairRef; task: TaskFacts }[] = [];
    for (const pair of p.pairs) {
      const task = p.tasks.get(pair.taskNodeId);
      const reason =
        runId === null
          ? NO_RUN_ID
          : !task
            ? "the task is not known to this adapter (no facts in the plan)"
            : task.sideEffect !== null && task.sideEffect !== "none"
              ? "a deliberate replay of a side-effecting task: a Databricks repair cannot carry Reparo's idempotency key to the task; replay it with the local executor or by hand"
              : null;
      if (reason !== null || !task) {
        const u = unsupported.get(pair.taskNodeId) ?? { reason: reason ?? "unknown task", units: [] };
        u.units.push(pair.unitKey);
        unsupported.set(pair.taskNodeId, u);
      } else supported.push({ pair, task });
    }
    const repairs = [...new Set(supported.map((s) => s.pair.wave))]
      .sort((a, b) => a - b)
      .map((wave) => {
        const ofWave = supported.filter((s) => s.pair.wave === wave);
        const units = new Map<string, { taskNodeId: string; units: string[] }[]>();
        for (const { pair, task } of ofWave) {
          const key = taskKey(task);
          const list = units.get(key) ?? [];
          const entry = list.find((e) => e.taskNodeId === pair.taskNodeId) ?? (list.push({ taskNodeId: pair.taskNodeId, units: [] }), list[list.length - 1]!);
          entry.units.push(pair.unitKey);
          units.set(key, list);
        }
        const unitsParameter = Object.fromEntries([...units].map(([key, list]) => [key, list.flatMap((e) => ranges(p, e.taskNodeId, e.units))]));
        const pipelines = [...new Set(ofWave.map((s) => s.task.pipeline))];
        return {
          wave,
          pipeline: pipelines.join(", "),
          pairs: ofWave.map((s) => s.pair),
          body: {
            run_id: runId!,
            rerun_tasks: [...units.keys()],
            rerun_dependent_tasks: false as const,
            job_parameters: { ...p.parameterOverrides, [connection.unitsParameter]: JSON.stringify(unitsParameter) },
          },
        };
      });
    return { repairs, unsupported: [...unsupported].map(([taskNodeId, u]) => ({ taskNodeId, units: u.units, reason: u.reason })) };
  }

  function requests(p: DispatchPlan): { requests: PlannedRequest[]; unsupported: Unsupported[] } {
    const { repairs, unsupported } = plan(p);
    return {
      requests: repairs.map((r) => ({ orchestrator: "databricks", pipeline: r.pipeline, wave: r.wave, method: "POST", path: REPAIR_PATH, body: r.body })),
      unsupported,
    };
  }

  /** The workspace token as `Authorization: Bearer` (read now, never kept). */
  async function headers(method: string, path: string, what: string): Promise<Record<string, string>> {
    try {
      return { authorization: `Bearer ${await readSecret(connection.credentials)}` };
    } catch (e) {
      const message = (e as Error).message;
      throw new OrchestratorError(`${what}: ${message}`, { orchestrator: "databricks", method, url: `${base}${path}`, status: null, error: message });
    }
  }

  /** `GET runs/get?run_id=…&include_history=true`, following `next_page_token` (tasks and history joined). */
  async function getRun(runId: number, what: string, options: { dryRun?: boolean } = {}): Promise<{ run: Run; calls: OrchestratorCall[] }> {
    const calls: OrchestratorCall[] = [];
    let tasks: RunTask[] = [];
    let history: RepairHistoryItem[] = [];
    let first: Run | null = null;
    let pageToken: string | undefined;
    for (let page = 0; page < 50; page++) {
      const answer = await requestJson<Run>("databricks", "GET", `${base}${GET_RUN_PATH}`, {
        headers: await headers("GET", GET_RUN_PATH, what),
        query: { run_id: runId, include_history: true, ...(pageToken ? { page_token: pageToken } : {}) },
        ...(options.dryRun ? { dryRun: true } : {}),
      });
      const call: OrchestratorCall = { ...answer.call, ids: { run_id: runId } };
      calls.push(call);
      expectStatus({ ...answer, call }, [200], what);
      const run = answer.body ?? {};
      first ??= run;
      tasks = tasks.concat(run.tasks ?? []);
      history = history.concat(run.repair_history ?? []);
      pageToken = run.next_page_token || undefined;
      if (!pageToken) break;
    }
    return { run: { ...first, tasks, repair_history: history }, calls };
  }

  /** The id of the run's latest repair: the REPAIR item of repair_history that started last (list order breaks ties), if any. */
  const latestRepairId = (run: Run): number | undefined => {
    let latest: RepairHistoryItem | undefined;
    for (const h of run.repair_history ?? []) {
      if (h.type === "REPAIR" && typeof h.id === "number" && (!latest || (h.start_time ?? 0) >= (latest.start_time ?? 0))) latest = h;
    }
    return latest?.id;
  };

  return {
    kind: "databricks",
    blocksDownstream: false,
    requests,

    /** Reads the run: planned task keys that are not tasks of the run are `missing` (a repair names only existing tasks). */
    async preview(p) {
      const { requests: planned, unsupported } = requests(p);
      const { repairs } = plan(p);
      const runId = jobRunId(p);
      if (repairs.length === 0 || runId === null) return { requests: planned, unsupported, extra: [], missing: [], calls: [] };
      const { run, calls } = await getRun(runId, `previewing the repair of Databricks run ${runId}`, { dryRun: true });
      const keys = new Set((run.tasks ?? []).map((t) => t.task_key));
      const missing = repairs.flatMap((r) => r.pairs).filter((pair) => !keys.has(taskKey(p.tasks.get(pair.taskNodeId)!)));
      return { requests: planned, unsupported, extra: [], missing, calls };
    },

    /** Reads the run's latest repair id, then repairs it with the wave's tasks. */
    async dispatchWave(p, wave) {
      const { repairs, unsupported } = plan(p);
      const blocked = unsupported.filter((u) => p.pairs.some((x) => x.wave === wave && x.taskNodeId === u.taskNodeId));
      if (blocked.length > 0)
        throw new Error(`wave ${wave} has pairs Databricks cannot run: ${blocked.map((u) => `${u.taskNodeId} (${u.reason})`).join("; ")}`);
      const repair = repairs.find((r) => r.wave === wave);
      if (!repair) return { handle: { runId: jobRunId(p), repairId: null, taskKeys: [] }, calls: [] };
      const runId = repair.body.run_id;
      const what = `repairing Databricks run ${runId} (wave ${wave})`;
      const { run, calls } = await getRun(runId, what);
      const latest = latestRepairId(run);
      const body: DatabricksRepairRun = { ...repair.body, ...(latest !== undefined ? { latest_repair_id: latest } : {}) };
      const answer = await requestJson<{ repair_id?: number }>("databricks", "POST", `${base}${REPAIR_PATH}`, {
        headers: await headers("POST", REPAIR_PATH, what),
        body,
      });
      const repairId = answer.body && typeof answer.body === "object" ? answer.body.repair_id : undefined;
      const call: OrchestratorCall = { ...answer.call, ids: { run_id: runId, ...(typeof repairId === "number" ? { repair_id: repairId } : {}) } };
      expectStatus({ ...answer, call }, [200], what);
      if (typeof repairId !== "number") throw new OrchestratorError(`${what}: Databricks answered without a repair_id`, { ...call, error: "no repair_id" });
      const handle: DatabricksWaveHandle = { runId, repairId, taskKeys: repair.body.rerun_tasks };
      return { handle: handle as unknown as WaveHandle, calls: [...calls, call] };
    },

    /**
     * The repair's task runs (its repair_history item's task_run_ids ↔ RunTask.run_id): each
     * task's state is the progress of every pair of that task in the wave.
     */
    async poll(p, wave, raw) {
      const handle = raw as unknown as DatabricksWaveHandle;
      if (!handle.repairId) return { pairs: [], calls: [] };
      const { run, calls } = await getRun(handle.runId, `reading Databricks run ${handle.runId} (repair ${handle.repairId})`);
      const item = (run.repair_history ?? []).find((h) => h.id === handle.repairId);
      const taskRuns = new Set(item?.task_run_ids ?? []);
      const byKey = new Map<string, RunTask>();
      for (const t of run.tasks ?? []) {
        if (t.run_id !== undefined && taskRuns.has(t.run_id)) byKey.set(t.task_key, t);
      }
      const repairState = item ? databricksStatus(item.state, item.status) : null;
      const pairs: PairProgress[] = p.pairs
        .filter((x) => x.wave === wave)
        .flatMap((pair) => {
          const task = p.tasks.get(pair.taskNodeId);
          if (!task) return [];
          const key = taskKey(task);
          if (!handle.taskKeys.includes(key)) return [];
          const t = byKey.get(key);
          if (t) {
            const s = databricksStatus(t.state, t.status);
            return [
              {
                taskNodeId: pair.taskNodeId,
                unitKey: pair.unitKey,
                status: s.status,
                externalId: String(t.run_id),
                detail: `task ${key} (run ${t.run_id}, repair ${handle.repairId}): ${s.detail}`,
              },
            ];
          }
          const ended = repairState !== null && (repairState.status === "succeeded" || repairState.status === "failed");
          return [
            {
              taskNodeId: pair.taskNodeId,
              unitKey: pair.unitKey,
              externalId: String(handle.repairId),
              status: ended ? "failed" : "pending",
              detail: !item
                ? `repair ${handle.repairId} is not in the run's repair history yet`
                : ended
                  ? `repair ${handle.repairId} ended (${repairState.detail}) without a run of task ${key}`
                  : `repair ${handle.repairId}: ${repairState?.detail ?? "pending"}`,
            },
          ];
        });
      return { pairs, calls };
    },

    async cancel(_p, raw) {
      const handle = raw as unknown as DatabricksWaveHandle;
      if (!handle.runId) return { calls: [] };
      const what = `cancelling Databricks run ${handle.runId}`;
      const answer = await requestJson("databricks", "POST", `${base}${CANCEL_PATH}`, {
        headers: await headers("POST", CANCEL_PATH, what),
        body: { run_id: handle.runId },
      });
      const call: OrchestratorCall = { ...answer.call, ids: { run_id: handle.runId, ...(handle.repairId ? { repair_id: handle.repairId } : {}) } };
      expectStatus({ ...answer, call }, [200], what);
      return { calls: [call] };
    },
  };
}
