import crypto from "node:crypto";
import type { AirflowConnection, PlannedRequest } from "@/lib/contracts/orchestrators";
import { expectStatus, requestJson } from "./http";
import type { DispatchPlan, Orchestrator, OrchestratorCall, OrchestratorItem, PairProgress, PairRef, PairStatus, RequestsResult, TaskFacts } from "./port";
import { OrchestratorError } from "./port";
import { readSecret } from "./secrets";

/**
 * Airflow 3 (REST API v2; checked against the 3.0 and 3.2 documents): a wave is one
 * `POST /api/v2/dags/{dag_id}/clearTaskInstances` per DAG and range of logical dates, with
 * exactly the plan's task ids — downstream, upstream, past and future OFF, because Reparo
 * already listed the closure and the orchestrator's own "include downstream" would pull back
 * in the side-effecting tasks the plan left out (seed 001). The preview is Airflow's own dry
 * run of the same bodies, compared task instance by task instance with the plan. Progress comes
 * from the task instances (`POST /api/v2/dags/~/dagRuns/~/taskInstances/list`): a cleared one
 * counts once it ran again (its try number passed the one it had when cleared).
 *
 * Auth: every /api/v2 call carries a Bearer JWT — the configured token, or one the auth
 * manager's `POST /auth/token` issued for `username` (fetched again when Airflow answers 401).
 */

interface ClearGroup {
  readonly wave: number;
  readonly dagId: string;
  readonly taskIds: string[];
  readonly start: string;
  readonly end: string;
}

export interface AirflowClearBody {
  dry_run: boolean;
  task_ids: string[];
  start_date: string;
  end_date: string;
  only_failed: boolean;
  only_running: boolean;
  reset_dag_runs: boolean;
  include_upstream: boolean;
  include_downstream: boolean;
  include_future: boolean;
  include_past: boolean;
}

interface TaskInstance {
  dag_id: string;
  task_id: string;
  logical_date?: string | null;
  state?: string | null;
  try_number: number;
  map_index: number;
  end_date?: string | null;
  dag_run_id: string;
}
interface TaskInstanceCollection {
  task_instances: TaskInstance[];
  total_entries: number;
}

/** Kept with the run between slices: what was cleared, and each cleared instance's try number then. */
interface AirflowHandle {
  dispatchedAt: string;
  groups: ClearGroup[];
  cleared: Record<string, number>;
}

const FINISHED_BAD = new Set(["failed", "upstream_failed", "skipped", "removed"]);
/** DAG run states after which Airflow's scheduler looks at none of the run's task instances again. */
const RUN_ENDED = new Set(["success", "failed"]);
/**
 * How long after a wave's clears a cleared task instance may still be unscheduled before its DAG
 * run is looked at. Measured on Airflow 3.3.2 (peers lab): a clear that lands while the scheduler
 * is marking the same DAG run failed (the previous wave's task just finished, the rest of the run
 * is upstream_failed) resets the task instance but leaves the run `failed` — and Airflow never
 * schedules a task instance of an ended run, so the pair would wait for ever.
 */
const UNSCHEDULED_GRACE_MS = 10_000;
/** Airflow caps page_limit at [api] maximum_page_limit (100 by default). */
const PAGE = 100;

/** The Airflow DAG and task of a Reparo task: an override, else its OpenLineage name `dag_id.task_id`, else the pipeline as the DAG. */
export function airflowTaskOf(connection: AirflowConnection, task: TaskFacts): { dagId: string; taskId: string } {
  const named = connection.tasks[task.taskNodeId] ?? connection.tasks[task.name];
  const split = (s: string) => {
    const dot = s.indexOf(".");
    return dot > 0 ? { dagId: s.slice(0, dot), taskId: s.slice(dot + 1) } : null;
  };
  if (named) return (!connection.dagId && split(named)) || { dagId: connection.dagId ?? task.pipeline, taskId: named };
  if (connection.dagId) return { dagId: connection.dagId, taskId: task.name };
  return split(task.name) ?? { dagId: task.pipeline, taskId: task.name };
}

const tiKey = (dagId: string, taskId: string, at: string) => `${dagId}|${taskId}|${new Date(at).toISOString()}`;
/** A mapped task has one instance per map index: each is cleared and re-run on its own. */
const mappedKey = (ti: Pick<TaskInstance, "dag_id" | "task_id" | "logical_date" | "map_index">) =>
  `${tiKey(ti.dag_id, ti.task_id, ti.logical_date!)}|${ti.map_index}`;

/**
 * The JWTs Airflow issued, kept across adapter instances: a repair's slices (every 3 s) each build
 * their adapter, and signing in again for each one sent a POST /auth/token per poll to the real
 * Airflow (each a password check there, each an audited call here). A token is used until Airflow
 * answers 401. Keyed by the API server, the user and a digest of the password, so a changed
 * password (the secret file rewritten) signs in again; the password itself is not kept.
 */
const issuedTokens = new Map<string, string>();
const MAX_CACHED_TOKENS = 100;
const tokenKey = (base: string, username: string, password: string) => `${base}\n${username}\n${crypto.createHash("sha256").update(password).digest("hex")}`;

export function airflowOrchestrator(connection: AirflowConnection): Orchestrator {
  const base = connection.baseUrl;

  async function bearer(calls: OrchestratorCall[], fresh: boolean): Promise<string> {
    if (!connection.username) return readSecret(connection.credentials);
    const password = await readSecret(connection.credentials);
    const key = tokenKey(base, connection.username, password);
    const cached = issuedTokens.get(key);
    if (cached && !fresh) return cached;
    issuedTokens.delete(key);
    const answer = await requestJson<{ access_token?: string }>("airflow", "POST", `${base}/auth/token`, { body: { username: connection.username, password } });
    calls.push(answer.call);
    expectStatus(answer, [200, 201], `signing in to Airflow as ${connection.username}`);
    if (!answer.body?.access_token) throw new OrchestratorError("Airflow's /auth/token answered without an access_token", answer.call);
    if (issuedTokens.size >= MAX_CACHED_TOKENS) issuedTokens.delete(issuedTokens.keys().next().value!);
    issuedTokens.set(key, answer.body.access_token);
    return answer.body.access_token;
  }

  /** One /api/v2 call; a 401 gets a new token once (tokens expire: [api_auth] jwt_expiration_time). */
  async function api<T>(calls: OrchestratorCall[], method: string, path: string, body: unknown, dryRun?: boolean) {
    for (let attempt = 0; ; attempt++) {
      const jwt = await bearer(calls, attempt > 0);
      const answer = await requestJson<T>("airflow", method, `${base}${path}`, { body, dryRun, headers: { authorization: `Bearer ${jwt}` } });
      if (answer.status === 401 && attempt === 0 && connection.username) {
        calls.push(answer.call);
        continue;
      }
      return answer;
    }
  }

  function groupsOf(plan: DispatchPlan): { groups: ClearGroup[]; unsupported: RequestsResult["unsupported"] } {
    const byTask = new Map<string, PairRef[]>();
    for (const p of plan.pairs) byTask.set(`${p.wave}|${p.taskNodeId}`, [...(byTask.get(`${p.wave}|${p.taskNodeId}`) ?? []), p]);
    const groups = new Map<string, ClearGroup>();
    const unsupported: { taskNodeId: string; units: string[]; reason: string }[] = [];
    for (const pairs of byTask.values()) {
      const { taskNodeId, wave } = pairs[0]!;
      const task = plan.tasks.get(taskNodeId);
      const windows = pairs.map((p) => ({ unit: p.unitKey, w: plan.windowOf(taskNodeId, p.unitKey) }));
      const why = !task
        ? "the task is not in the catalog"
        : windows.some((x) => !x.w)
          ? "Airflow clears task instances by logical date, and this task's units are not time windows"
          : plan.idempotencyKeys[taskNodeId]
            ? "a cleared task instance cannot carry Reparo's idempotency key: replay this side-effecting task in Airflow yourself, with the key"
            : Object.keys(plan.parameterOverrides).length > 0
              ? `clearing a task instance re-runs it with its DAG run's conf: the overrides (${Object.keys(plan.parameterOverrides).join(", ")}) cannot be passed`
              : null;
      if (why) {
        unsupported.push({ taskNodeId, units: pairs.map((p) => p.unitKey), reason: why });
        continue;
      }
      const { dagId, taskId } = airflowTaskOf(connection, task!);
      // Consecutive windows make one range of logical dates (window starts, inclusive).
      const sorted = windows.map((x) => x.w!).sort((a, b) => a.start.getTime() - b.start.getTime());
      let lo = sorted[0]!;
      let prev = lo;
      const ranges: [Date, Date][] = [];
      for (const w of sorted.slice(1)) {
        if (w.start.getTime() !== prev.end.getTime()) {
          ranges.push([lo.start, prev.start]);
          lo = w;
        }
        prev = w;
      }
      ranges.push([lo.start, prev.start]);
      for (const [s, e] of ranges) {
        const key = `${wave}|${dagId}|${s.toISOString()}|${e.toISOString()}`;
        const g = groups.get(key) ?? { wave, dagId, taskIds: [], start: s.toISOString(), end: e.toISOString() };
        if (!g.taskIds.includes(taskId)) g.taskIds.push(taskId);
        groups.set(key, g);
      }
    }
    return { groups: [...groups.values()].sort((a, b) => a.wave - b.wave), unsupported };
  }

  const body = (g: ClearGroup, dryRun: boolean): AirflowClearBody => ({
    dry_run: dryRun,
    task_ids: g.taskIds,
    start_date: g.start,
    end_date: g.end,
    only_failed: false,
    only_running: false,
    reset_dag_runs: true,
    include_upstream: false,
    include_downstream: false,
    include_future: false,
    include_past: false,
  });
  const path = (g: ClearGroup) => `/api/v2/dags/${encodeURIComponent(g.dagId)}/clearTaskInstances`;

  /** Reparo's (task, unit) for an Airflow task instance, when the plan's tasks have it. */
  function pairOf(plan: DispatchPlan, ti: TaskInstance): { task: TaskFacts; unitKey: string | null } | null {
    for (const task of plan.tasks.values()) {
      const mapped = airflowTaskOf(connection, task);
      if (mapped.dagId === ti.dag_id && mapped.taskId === ti.task_id)
        return { task, unitKey: ti.logical_date ? plan.unitAt(task.taskNodeId, new Date(ti.logical_date)) : null };
    }
    return null;
  }

  /**
   * Cleared task instances that did not run again and are still unscheduled (state none) in a DAG
   * run that has ended: Airflow will not schedule them (see UNSCHEDULED_GRACE_MS). The ended runs
   * among theirs are listed (`POST /api/v2/dags/~/dagRuns/list`, one call per DAG) and their
   * instances cleared again, which queues the run. Returns the instances cleared again (mappedKey).
   */
  async function clearAgainInEndedRuns(calls: OrchestratorCall[], tis: TaskInstance[], ranAgain: (ti: TaskInstance) => boolean): Promise<Set<string>> {
    const byDag = new Map<string, TaskInstance[]>();
    for (const ti of tis) {
      if (ranAgain(ti) || (ti.state ?? null) !== null || !ti.logical_date) continue;
      byDag.set(ti.dag_id, [...(byDag.get(ti.dag_id) ?? []), ti]);
    }
    const again = new Set<string>();
    for (const [dagId, waiting] of byDag) {
      const dates = waiting.map((ti) => Date.parse(ti.logical_date!));
      const ended = new Set<string>();
      for (let offset = 0; ; offset += PAGE) {
        const answer = await api<{ dag_runs: { dag_run_id: string }[]; total_entries: number }>(calls, "POST", "/api/v2/dags/~/dagRuns/list", {
          dag_ids: [dagId],
          states: [...RUN_ENDED],
          logical_date_gte: new Date(Math.min(...dates)).toISOString(),
          logical_date_lte: new Date(Math.max(...dates)).toISOString(),
          page_limit: PAGE,
          page_offset: offset,
        });
        calls.push(answer.call);
        expectStatus(answer, [200], `reading the ended DAG runs of ${dagId}`);
        for (const run of answer.body.dag_runs) ended.add(run.dag_run_id);
        if (offset + PAGE >= answer.body.total_entries) break;
      }
      const byRun = new Map<string, TaskInstance[]>();
      for (const ti of waiting) if (ended.has(ti.dag_run_id)) byRun.set(ti.dag_run_id, [...(byRun.get(ti.dag_run_id) ?? []), ti]);
      for (const [runId, stuck] of byRun) {
        const when = new Date(stuck[0]!.logical_date!).toISOString();
        const group: ClearGroup = { wave: -1, dagId, taskIds: [...new Set(stuck.map((ti) => ti.task_id))], start: when, end: when };
        const answer = await api<TaskInstanceCollection>(calls, "POST", path(group), body(group, false));
        const cleared = answer.status === 200 ? answer.body.task_instances : [];
        calls.push({ ...answer.call, ids: { dagId, clearedAgain: cleared.map((ti) => `${ti.task_id}@${ti.logical_date ?? ti.dag_run_id}`) } });
        expectStatus(answer, [200], `clearing ${group.taskIds.join(", ")} in ${dagId} again (its DAG run ${runId} had ended)`);
        for (const ti of stuck) again.add(mappedKey(ti));
      }
    }
    return again;
  }

  function requests(plan: DispatchPlan): RequestsResult {
    const { groups, unsupported } = groupsOf(plan);
    const pipeline = (g: ClearGroup) => [...plan.tasks.values()].find((t) => airflowTaskOf(connection, t).dagId === g.dagId)?.pipeline ?? g.dagId;
    const out: PlannedRequest[] = groups.map((g) => ({
      orchestrator: "airflow",
      pipeline: pipeline(g),
      wave: g.wave,
      method: "POST",
      path: path(g),
      body: body(g, false),
    }));
    return { requests: out, unsupported };
  }

  return {
    kind: "airflow",
    blocksDownstream: false,
    requests,

    async preview(plan) {
      const { groups, unsupported } = groupsOf(plan);
      const calls: OrchestratorCall[] = [];
      const wouldClear: TaskInstance[] = [];
      for (const g of groups) {
        const answer = await api<TaskInstanceCollection>(calls, "POST", path(g), body(g, true), true);
        calls.push({ ...answer.call, ids: { taskInstances: answer.body?.task_instances?.length ?? 0 } });
        expectStatus(answer, [200], `Airflow's dry run of clearing ${g.taskIds.join(", ")} in ${g.dagId}`);
        wouldClear.push(...answer.body.task_instances);
      }
      const planned = new Set(plan.pairs.map((p) => `${p.taskNodeId}|${p.unitKey}`));
      const seen = new Set<string>();
      const extra: OrchestratorItem[] = [];
      for (const ti of wouldClear) {
        const pair = pairOf(plan, ti);
        const label = `${ti.dag_id}.${ti.task_id}${ti.map_index >= 0 ? `[${ti.map_index}]` : ""} @ ${ti.logical_date ?? ti.dag_run_id}`;
        const key = pair && pair.unitKey ? `${pair.task.taskNodeId}|${pair.unitKey}` : null;
        if (key && planned.has(key) && !seen.has(key)) {
          seen.add(key);
          continue;
        }
        extra.push({
          label,
          taskNodeId: pair?.task.taskNodeId ?? null,
          unitKey: pair?.unitKey ?? null,
          sideEffect: !!pair && (pair.task.sideEffect === "external" || plan.excludedTasks.has(pair.task.taskNodeId)),
        });
      }
      const unsupportedKeys = new Set(unsupported.flatMap((u) => u.units.map((k) => `${u.taskNodeId}|${k}`)));
      const missing = plan.pairs.filter((p) => !seen.has(`${p.taskNodeId}|${p.unitKey}`) && !unsupportedKeys.has(`${p.taskNodeId}|${p.unitKey}`));
      return { ...requests(plan), extra, missing, calls };
    },

    async dispatchWave(plan, wave) {
      const calls: OrchestratorCall[] = [];
      const handle: AirflowHandle = { dispatchedAt: new Date().toISOString(), groups: groupsOf(plan).groups.filter((g) => g.wave === wave), cleared: {} };
      try {
        for (const g of handle.groups) {
          const answer = await api<TaskInstanceCollection>(calls, "POST", path(g), body(g, false));
          const tis = answer.status === 200 ? answer.body.task_instances : [];
          calls.push({ ...answer.call, ids: { dagId: g.dagId, cleared: tis.map((ti) => `${ti.task_id}@${ti.logical_date ?? ti.dag_run_id}`) } });
          expectStatus(answer, [200], `clearing ${g.taskIds.join(", ")} in ${g.dagId}`);
          for (const ti of tis) if (ti.logical_date) handle.cleared[mappedKey(ti)] = ti.try_number;
        }
      } catch (e) {
        // The clears that went through before this one are on the record too.
        if (e instanceof OrchestratorError)
          throw new OrchestratorError(
            e.message,
            e.call,
            calls.filter((c) => c !== e.call),
          );
        throw e;
      }
      return { handle: handle as unknown as Record<string, unknown>, calls };
    },

    async poll(plan, wave, raw) {
      const handle = raw as unknown as AirflowHandle;
      const calls: OrchestratorCall[] = [];
      const seen = new Map<string, TaskInstance[]>();
      for (const g of handle.groups) {
        for (let offset = 0; ; offset += PAGE) {
          const answer = await api<TaskInstanceCollection>(calls, "POST", "/api/v2/dags/~/dagRuns/~/taskInstances/list", {
            dag_ids: [g.dagId],
            task_ids: g.taskIds,
            logical_date_gte: g.start,
            logical_date_lte: g.end,
            page_limit: PAGE,
            page_offset: offset,
          });
          calls.push(answer.call);
          expectStatus(answer, [200], `reading the task instances of ${g.dagId}`);
          for (const ti of answer.body.task_instances) {
            if (!ti.logical_date) continue;
            const key = tiKey(ti.dag_id, ti.task_id, ti.logical_date);
            seen.set(key, [...(seen.get(key) ?? []).filter((x) => x.map_index !== ti.map_index), ti]);
          }
          if (offset + PAGE >= answer.body.total_entries) break;
        }
      }
      const since = Date.parse(handle.dispatchedAt);
      /** Whether a task instance ran since the clear: its try number passed the cleared one. */
      const ranAgain = (ti: TaskInstance): boolean => {
        const clearedTry = handle.cleared[mappedKey(ti)];
        return clearedTry !== undefined ? ti.try_number > clearedTry : !!ti.end_date && Date.parse(ti.end_date) >= since;
      };
      /** One task instance's progress since the clear: it counts once it ran again. */
      const statusOf = (ti: TaskInstance): PairStatus => {
        const state = ti.state ?? null;
        if (!ranAgain(ti)) return state === "success" ? "pending" : "running";
        return state === "success" ? "succeeded" : state && FINISHED_BAD.has(state) ? "failed" : "running";
      };
      const wavePairs = plan.pairs
        .filter((p) => p.wave === wave)
        .map((p) => {
          const task = plan.tasks.get(p.taskNodeId)!;
          const { dagId, taskId } = airflowTaskOf(connection, task);
          const start = plan.windowOf(p.taskNodeId, p.unitKey)?.start.toISOString() ?? "";
          return { p, dagId, taskId, start, tis: seen.get(tiKey(dagId, taskId, start)) ?? [] };
        });
      const recleared =
        Date.now() - since >= UNSCHEDULED_GRACE_MS
          ? await clearAgainInEndedRuns(
              calls,
              wavePairs.flatMap((x) => x.tis),
              ranAgain,
            )
          : new Set<string>();
      const pairs: PairProgress[] = wavePairs.map(({ p, dagId, taskId, start, tis }) => {
        // The clear reset what exists; a unit with no task instance is one nothing will run.
        if (tis.length === 0)
          return {
            taskNodeId: p.taskNodeId,
            unitKey: p.unitKey,
            status: "failed",
            detail: `Airflow has no task instance ${dagId}.${taskId} at ${start}: nothing ran this unit`,
          };
        // A mapped task's unit is done when every index ran again and succeeded; one failed index fails it.
        const each = tis.map(statusOf);
        const status: PairStatus = each.includes("failed")
          ? "failed"
          : each.every((x) => x === "succeeded")
            ? "succeeded"
            : each.some((x) => x !== "pending")
              ? "running"
              : "pending";
        const ti = tis[0]!;
        const states = [...new Set(tis.map((t) => t.state ?? "none"))].join(", ");
        // Cleared again: a new external id, so this poll's progress (and its calls) go on the record.
        const again = tis.some((t) => recleared.has(mappedKey(t))) ? " · cleared again: its DAG run had ended" : "";
        return {
          taskNodeId: p.taskNodeId,
          unitKey: p.unitKey,
          status,
          externalId: `${ti.dag_id} · ${ti.dag_run_id} · try ${ti.try_number}${tis.length > 1 ? ` · ${tis.length} mapped` : ""}${again}`,
          detail: states,
        };
      });
      return { pairs, calls };
    },

    async cancel(_plan, raw) {
      // Airflow 3 has no "cancel these task instances" call; marking them failed stops them.
      const handle = raw as unknown as AirflowHandle;
      const calls: OrchestratorCall[] = [];
      for (const g of handle.groups) {
        const answer = await api<TaskInstanceCollection>(calls, "POST", "/api/v2/dags/~/dagRuns/~/taskInstances/list", {
          dag_ids: [g.dagId],
          task_ids: g.taskIds,
          logical_date_gte: g.start,
          logical_date_lte: g.end, // null: cleared and not yet scheduled — it would still start.
          state: [null, "scheduled", "queued", "running", "restarting", "up_for_retry", "up_for_reschedule", "deferred"],
          page_limit: PAGE,
        });
        calls.push(answer.call);
        if (answer.status !== 200) continue;
        for (const ti of answer.body.task_instances) {
          const r = await api(
            calls,
            "PATCH",
            `/api/v2/dags/${encodeURIComponent(ti.dag_id)}/dagRuns/${encodeURIComponent(ti.dag_run_id)}/taskInstances/${encodeURIComponent(ti.task_id)}`,
            { new_state: "failed", note: "stopped by Reparo: the repair was cancelled" },
          );
          calls.push(r.call);
        }
      }
      return { calls };
    },
  };
}
