import type { DatabricksConnection } from "@/lib/contracts/orchestrators";
import {
  CANCEL_PATH,
  databricksRequests,
  GET_RUN_PATH,
  getRunQuery,
  jobRunIdOf,
  plannedRepairs,
  repairBody,
  REPAIR_PATH,
  taskKeyOf,
} from "./databricks-requests";
import { OrchestratorError, type Orchestrator, type OrchestratorCall, type PairProgress, type PairStatus, type WaveHandle } from "./port";
import { readSecret } from "./secrets";
import { peerTransport, type Exchange, type PeerAuth } from "./transport";

/**
 * The Databricks adapter: what it asks is databricks-requests.ts (pure, from the plan's ranges);
 * here the answers are read and the requests go through the one transport. Contract:
 * databricks-sdk-go service/jobs model.go (test/fixtures/peers/databricks) — RepairRunResponse.repair_id,
 * Run (tasks, repair_history, next_page_token), RunTask (task_key, run_id, attempt_number, state,
 * status), RepairHistoryItem (id, type ORIGINAL|REPAIR, task_run_ids, state, status), RunState
 * (life_cycle_state, result_state, state_message), RunStatus (state, termination_details { code,
 * type, message }).
 */

export { NO_RUN_ID, type DatabricksRepairRun } from "./databricks-requests";

/** The handle of a dispatched wave (JSON). */
export interface DatabricksWaveHandle {
  readonly runId: number;
  readonly repairId: number;
  readonly taskKeys: string[];
}

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

/** The workspace token as `Authorization: Bearer` (read now, never kept); a token that cannot be read fails the call it was for. */
function databricksAuth(connection: DatabricksConnection): PeerAuth {
  return {
    renewsOn401: false,
    async headers(_exchange, request) {
      try {
        return { authorization: `Bearer ${await readSecret(connection.credentials)}` };
      } catch (e) {
        const message = (e as Error).message;
        throw new OrchestratorError(`${request.what ?? "calling Databricks"}: ${message}`, {
          orchestrator: "databricks",
          method: request.method,
          url: request.url,
          status: null,
          error: message,
        });
      }
    },
  };
}

/** The id of the run's latest repair: the REPAIR item of repair_history that started last (list order breaks ties), if any. */
function latestRepairId(run: Run): number | undefined {
  let latest: RepairHistoryItem | undefined;
  for (const h of run.repair_history ?? []) {
    if (h.type === "REPAIR" && typeof h.id === "number" && (!latest || (h.start_time ?? 0) >= (latest.start_time ?? 0))) latest = h;
  }
  return latest?.id;
}

export function databricksOrchestrator(connection: DatabricksConnection): Orchestrator {
  const databricks = peerTransport("databricks", connection.baseUrl, databricksAuth(connection));

  /** `GET runs/get?run_id=…&include_history=true`, following `next_page_token` (tasks and history joined). */
  async function getRun(ex: Exchange, runId: number, what: string, dryRun = false): Promise<Run> {
    let tasks: RunTask[] = [];
    let history: RepairHistoryItem[] = [];
    let first: Run | null = null;
    let pageToken: string | undefined;
    for (let page = 0; page < 50; page++) {
      const answer = await ex.send<Run>({
        method: "GET",
        path: GET_RUN_PATH,
        query: getRunQuery(runId, pageToken),
        dryRun,
        ids: () => ({ run_id: runId }),
        expect: [200],
        what,
      });
      const run = answer.body ?? {};
      first ??= run;
      tasks = tasks.concat(run.tasks ?? []);
      history = history.concat(run.repair_history ?? []);
      pageToken = run.next_page_token || undefined;
      if (!pageToken) break;
    }
    return { ...first, tasks, repair_history: history };
  }

  return {
    kind: "databricks",
    blocksDownstream: false,
    requests: (p) => databricksRequests(connection, p),

    /** Reads the run: planned task keys that are not tasks of the run are `missing` (a repair names only existing tasks). */
    async preview(p) {
      const { requests: planned, unsupported } = databricksRequests(connection, p);
      const { repairs } = plannedRepairs(connection, p);
      const runId = jobRunIdOf(connection, p);
      if (repairs.length === 0 || runId === null) return { requests: planned, unsupported, extra: [], missing: [], calls: [] };
      const what = `previewing the repair of Databricks run ${runId}`;
      const ex = databricks.exchange();
      const run = await getRun(ex, runId, what, true);
      const keys = new Set((run.tasks ?? []).map((t) => t.task_key));
      const missing = repairs.flatMap((r) => r.pairs).filter((pair) => !keys.has(taskKeyOf(connection, p.tasks.get(pair.taskNodeId)!)));
      return { requests: planned, unsupported, extra: [], missing, calls: ex.calls };
    },

    /** Reads the run's latest repair id, then repairs it with the wave's tasks. */
    async dispatchWave(p, wave) {
      const { repairs, unsupported } = plannedRepairs(connection, p);
      const blocked = unsupported.filter((u) => p.pairs.some((x) => x.wave === wave && x.taskNodeId === u.taskNodeId));
      if (blocked.length > 0)
        throw new Error(`wave ${wave} has pairs Databricks cannot run: ${blocked.map((u) => `${u.taskNodeId} (${u.reason})`).join("; ")}`);
      const repair = repairs.find((r) => r.wave === wave);
      if (!repair) return { handle: { runId: jobRunIdOf(connection, p), repairId: null, taskKeys: [] }, calls: [] };
      const runId = repair.body.run_id;
      const what = `repairing Databricks run ${runId} (wave ${wave})`;
      const ex = databricks.exchange();
      const run = await getRun(ex, runId, what);
      const answer = await ex.send<{ repair_id?: number }>({
        method: "POST",
        path: REPAIR_PATH,
        body: repairBody(repair, latestRepairId(run)),
        ids: (a) => {
          const repairId = a.body && typeof a.body === "object" ? a.body.repair_id : undefined;
          return { run_id: runId, ...(typeof repairId === "number" ? { repair_id: repairId } : {}) };
        },
        expect: [200],
        what,
      });
      // A 200 whose body is empty or not an object (a proxy, a workspace mid-upgrade) is the peer's
      // failure too: audited as one, never a TypeError that leaves the wave unexplained.
      const body: unknown = answer.body;
      if (!body || typeof body !== "object")
        throw ex.refuse(answer, "no body", `${what}: Databricks answered without a body (expected one carrying repair_id)`);
      const repairId = (body as { repair_id?: unknown }).repair_id;
      if (typeof repairId !== "number") throw ex.refuse(answer, "no repair_id", `${what}: Databricks answered without a repair_id`);
      const handle: DatabricksWaveHandle = { runId, repairId, taskKeys: repair.body.rerun_tasks };
      return { handle: handle as unknown as WaveHandle, calls: ex.calls };
    },

    /**
     * The repair's task runs (its repair_history item's task_run_ids ↔ RunTask.run_id): each
     * task's state is the progress of every pair of that task in the wave.
     */
    async poll(p, wave, raw) {
      const handle = raw as unknown as DatabricksWaveHandle;
      if (!handle.repairId) return { pairs: [], calls: [] };
      const what = `reading Databricks run ${handle.runId} (repair ${handle.repairId})`;
      const ex = databricks.exchange();
      const run = await getRun(ex, handle.runId, what);
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
          const key = taskKeyOf(connection, task);
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
      return { pairs, calls: ex.calls };
    },

    async cancel(_p, raw) {
      const handle = raw as unknown as DatabricksWaveHandle;
      if (!handle.runId) return { calls: [] };
      const what = `cancelling Databricks run ${handle.runId}`;
      const ex = databricks.exchange();
      await ex.send({
        method: "POST",
        path: CANCEL_PATH,
        body: { run_id: handle.runId },
        ids: () => ({ run_id: handle.runId, ...(handle.repairId ? { repair_id: handle.repairId } : {}) }),
        expect: [200],
        what,
      });
      return { calls: ex.calls as OrchestratorCall[] };
    },
  };
}
