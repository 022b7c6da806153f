import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { OpenApiContract, type ContractIssue } from "./openapi-contract";

/**
 * A stateful fake of an Airflow 3 API server for adapter tests: the simple auth manager's
 * `POST /auth/token`, `POST /api/v2/dags/{dag_id}/clearTaskInstances`,
 * `POST /api/v2/dags/~/dagRuns/~/taskInstances/list`, `POST /api/v2/dags/~/dagRuns/list`, PATCH of a
 * task instance, GET of a DAG, of a DAG run and of its task instances, over DAGs, runs and task instances
 * held in memory. Calibrated against the real Airflow 3.3.2's recorded answers
 * (fake-airflow-calibration.test.ts): where they differ, the fake is wrong. Every request and every response (the fake's own included) is checked against the
 * OpenAPI document Airflow published for the chosen release, so a request the real Airflow would
 * refuse fails the test: it is answered 422 (as FastAPI does) and lands in `violations`.
 *
 * Cleared task instances run on a clock the test drives: `advance()` (and, by default, each
 * task-instance poll) moves each one step null → queued → running → success/failed — except in a
 * paused DAG, whose cleared task instances stay unscheduled (state none) until it is unpaused, as
 * Airflow's scheduler leaves them.
 *
 * Faults a commander meets, switched on by the test: `setPaused` (a DAG paused or unpaused),
 * `forbid` (the user lacks the permission for some operations: 403, as Airflow 3's auth manager
 * answers), `stop`/`start` (the API server down: connections refused on its port, then up again on
 * the same port). A wrong password is the connection's secret rewritten: /auth/token answers 401.
 */

export interface FakeTaskInstance {
  dagId: string;
  taskId: string;
  runId: string;
  logicalDate: string /* ISO */;
  state: string | null;
  tryNumber: number;
  startDate: string | null;
  endDate: string | null;
  clearedAt: string | null;
}

export interface FakeAirflowOptions {
  version: "3.0.0" | "3.2.1";
  users?: Record<string, string>; // username -> password (default { admin: "admin" })
  tokenTtlSeconds?: number; // default 3600
  dags: Record<string, { tasks: { taskId: string; downstream?: string[] }[]; runs: { logicalDate: string; runId?: string }[]; paused?: boolean }>;
  initialState?: (ti: { dagId: string; taskId: string; logicalDate: string }) => string | null; // default "success"
  outcome?: (ti: FakeTaskInstance) => "success" | "failed"; // how a cleared TI ends; default success
  onFinished?: (ti: FakeTaskInstance) => void | Promise<void>; // awaited when a cleared TI reaches success/failed
  advanceOnPoll?: boolean; // default true: every taskInstances/list request first advances every cleared TI one step
  /** Airflow's `[api] maximum_page_limit`: a larger `page_limit` is cut to it (default 100). */
  maximumPageLimit?: number;
}

export interface FakeAirflowRequest {
  method: string;
  path: string;
  status: number;
  requestBody: unknown;
  responseBody: unknown;
  authorization: string | null;
}

export interface FakeAirflow {
  url: string;
  requests: FakeAirflowRequest[];
  violations: string[]; // every contract violation of a request or a response, also of this fake's own answers
  /** The live record (mutate it to set a scenario up); `logicalDate` is compared as an instant. */
  taskInstance(dagId: string, taskId: string, logicalDate: string): FakeTaskInstance | undefined;
  taskInstances(): FakeTaskInstance[];
  /** The state of a DAG run ("success" until a clear with reset_dag_runs queues it). */
  dagRunState(dagId: string, runId: string): string | undefined;
  advance(): Promise<void>; // one step for every cleared, unfinished TI
  issueToken(username?: string): string;
  expireTokens(): void; // every token issued so far answers 401 from now on
  /** Pauses or unpauses a DAG (its `is_paused`; a paused DAG's cleared task instances do not run). */
  setPaused(dagId: string, paused: boolean): void;
  /** Operations (operationId, e.g. "post_clear_task_instances") answered 403 from now on; null: none. */
  forbid(operationIds: readonly string[] | null): void;
  /** The API server goes down: its port refuses connections until `start()` listens on it again. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

// From the repository's root (vitest and Playwright both run there; Playwright loads this as CommonJS, so no import.meta).
const FIXTURES = path.join(process.cwd(), "test/fixtures/peers/airflow/");
const contractCache = new Map<string, OpenApiContract>();

/** The published document (parsed and compiled once per process). */
export function airflowContract(document: "3.0.0" | "3.2.1" | "simple-auth-manager"): OpenApiContract {
  let contract = contractCache.get(document);
  if (!contract) {
    const file = document === "simple-auth-manager" ? "simple-auth-manager.yaml" : `rest-api-v2-${document}.yaml`;
    contract = OpenApiContract.fromFile(`${FIXTURES}${file}`);
    contractCache.set(document, contract);
  }
  return contract;
}

/** States after which a task instance no longer runs. */
const FINISHED = new Set(["success", "failed", "upstream_failed", "skipped", "removed"]);

interface TiRecord {
  ti: FakeTaskInstance;
  id: string;
  taskIndex: number;
  maxTries: number;
  queuedWhen: string | null;
  note?: string | null;
}

interface DagRunRecord {
  dagId: string;
  runId: string;
  logicalDate: string;
  state: string;
  startDate: string | null;
  endDate: string | null;
}

interface TokenRecord {
  username: string;
  expiresAt: number;
  revoked: boolean;
}

type Json = Record<string, unknown>;

interface Reply {
  status: number;
  body: unknown;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Airflow's clear body, after FastAPI would have applied the documented defaults. */
interface ClearRequest {
  dryRun: boolean;
  taskIds: (string | [string, number])[] | null;
  dagRunId: string | null;
  startDate: string | null;
  endDate: string | null;
  onlyFailed: boolean;
  onlyRunning: boolean;
  resetDagRuns: boolean;
  includeUpstream: boolean;
  includeDownstream: boolean;
  includeFuture: boolean;
  includePast: boolean;
  preventRunningTask: boolean;
}

export async function startFakeAirflow(options: FakeAirflowOptions): Promise<FakeAirflow> {
  const api = airflowContract(options.version);
  const auth = airflowContract("simple-auth-manager");
  const users = options.users ?? { admin: "admin" };
  const ttlMs = (options.tokenTtlSeconds ?? 3600) * 1000;
  const advanceOnPoll = options.advanceOnPoll ?? true;
  const maximumPageLimit = options.maximumPageLimit ?? 100;
  const secret = randomBytes(32);
  const tokens = new Map<string, TokenRecord>();
  const requests: FakeAirflowRequest[] = [];
  const violations: string[] = [];
  const paused = new Set(Object.entries(options.dags).flatMap(([dagId, dag]) => (dag.paused ? [dagId] : [])));
  let forbidden = new Set<string>();

  const records: TiRecord[] = [];
  const runs: DagRunRecord[] = [];
  for (const [dagId, dag] of Object.entries(options.dags)) {
    for (const given of dag.runs) {
      const logicalDate = iso(given.logicalDate);
      const runId = given.runId ?? `scheduled__${logicalDate.replace(/\.\d{3}Z$/, "+00:00")}`;
      const run: DagRunRecord = { dagId, runId, logicalDate, state: "success", startDate: logicalDate, endDate: null };
      runs.push(run);
      dag.tasks.forEach((task, taskIndex) => {
        const state = options.initialState ? options.initialState({ dagId, taskId: task.taskId, logicalDate }) : "success";
        const ran = state !== null && !["scheduled", "queued", "removed"].includes(state);
        const finished = state !== null && FINISHED.has(state) && state !== "upstream_failed" && state !== "skipped";
        records.push({
          ti: {
            dagId,
            taskId: task.taskId,
            runId,
            logicalDate,
            state,
            tryNumber: ran ? 1 : 0,
            startDate: ran ? logicalDate : null,
            endDate: finished ? new Date(Date.parse(logicalDate) + 60_000).toISOString() : null,
            clearedAt: null,
          },
          id: randomUUID(),
          taskIndex,
          maxTries: 0,
          queuedWhen: ran ? logicalDate : null,
        });
      });
      // As Airflow's scheduler left it (calibrated: a run with a failed task instance is `failed`).
      run.state = endedRunState(records.filter((r) => r.ti.runId === runId && r.ti.dagId === dagId).map((r) => r.ti)) ?? "running";
      if (run.state !== "running") run.endDate = new Date(Date.parse(logicalDate) + 60_000).toISOString();
    }
  }

  const issueToken = (username?: string): string => {
    const sub = username ?? Object.keys(users)[0] ?? "admin";
    const now = Date.now();
    const enc = (o: Json) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const payload = {
      sub,
      role: "ADMIN",
      iss: "fake-airflow",
      aud: "apache-airflow",
      jti: randomUUID(),
      iat: Math.floor(now / 1000),
      nbf: Math.floor(now / 1000),
      exp: Math.floor((now + ttlMs) / 1000),
    };
    const unsigned = `${enc({ alg: "HS256", typ: "JWT" })}.${enc(payload)}`;
    const token = `${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
    tokens.set(token, { username: sub, expiresAt: now + ttlMs, revoked: false });
    return token;
  };

  const advance = async (): Promise<void> => {
    const now = new Date().toISOString();
    const finishedNow: TiRecord[] = [];
    for (const r of records) {
      const ti = r.ti;
      if (ti.clearedAt === null || (ti.state !== null && FINISHED.has(ti.state))) continue;
      // The scheduler schedules nothing of a paused DAG: a cleared task instance waits, unscheduled.
      if (paused.has(ti.dagId) && (ti.state === null || ti.state === "restarting")) continue;
      if (ti.state === "queued") {
        ti.state = "running";
        ti.tryNumber += 1;
        ti.startDate = now;
        ti.endDate = null;
      } else if (ti.state === "running") {
        ti.state = options.outcome ? options.outcome(ti) : "success";
        ti.endDate = now;
        finishedNow.push(r);
      } else {
        ti.state = "queued";
        r.queuedWhen = now;
      }
    }
    for (const run of runs) {
      const tis = records.filter((r) => r.ti.dagId === run.dagId && r.ti.runId === run.runId).map((r) => r.ti);
      const ended = endedRunState(tis);
      if (run.state !== "success" && run.state !== "failed" && ended) {
        run.state = ended;
        run.endDate = now;
      } else if (run.state === "queued" && tis.some((t) => t.state === "running")) {
        run.state = "running";
        run.startDate = now;
      }
    }
    for (const r of finishedNow) await options.onFinished?.(r.ti);
  };

  /** The TaskInstanceResponse of the chosen release (its required fields, and the usual others). */
  const toResponse = (r: TiRecord): Json => {
    const ti = r.ti;
    const duration = ti.startDate && ti.endDate ? (Date.parse(ti.endDate) - Date.parse(ti.startDate)) / 1000 : null;
    const body: Json = {
      id: r.id,
      task_id: ti.taskId,
      dag_id: ti.dagId,
      dag_run_id: ti.runId,
      map_index: -1,
      logical_date: ti.logicalDate,
      run_after: ti.logicalDate,
      start_date: ti.startDate,
      end_date: ti.endDate,
      duration,
      state: ti.state,
      try_number: ti.tryNumber,
      max_tries: r.maxTries,
      task_display_name: ti.taskId,
      hostname: ti.startDate ? "fake-airflow-worker" : null,
      unixname: "airflow",
      pool: "default_pool",
      pool_slots: 1,
      queue: "default",
      priority_weight: 1,
      operator: "PythonOperator",
      queued_when: r.queuedWhen,
      scheduled_when: null,
      pid: null,
      executor: null,
      executor_config: "{}",
      note: r.note ?? null,
      rendered_map_index: null,
      rendered_fields: {},
      trigger: null,
      triggerer_job: null,
      dag_version: null,
    };
    if (options.version === "3.2.1") {
      body.dag_display_name = ti.dagId;
      body.operator_name = "PythonOperator";
    }
    return body;
  };

  const collection = (list: TiRecord[], total = list.length): Json => ({ task_instances: list.map(toResponse), total_entries: total });

  /** The DAGRunResponse of the chosen release (its required fields, and the usual others). */
  const toRunResponse = (run: DagRunRecord): Json => {
    const body: Json = {
      dag_run_id: run.runId,
      dag_id: run.dagId,
      logical_date: run.logicalDate,
      queued_at: run.logicalDate,
      start_date: run.startDate,
      end_date: run.endDate,
      data_interval_start: run.logicalDate,
      data_interval_end: run.logicalDate,
      run_after: run.logicalDate,
      last_scheduling_decision: null,
      run_type: run.runId.startsWith("scheduled__") ? "scheduled" : "manual",
      state: run.state,
      triggered_by: run.runId.startsWith("scheduled__") ? "timetable" : "rest_api",
      conf: {},
      note: null,
      dag_versions: [],
      bundle_version: null,
    };
    if (options.version === "3.2.1") {
      body.dag_display_name = run.dagId;
      body.duration = run.startDate && run.endDate ? (Date.parse(run.endDate) - Date.parse(run.startDate)) / 1000 : null;
    }
    return body;
  };

  /** DAGResponse of the chosen release (its required fields, and the usual others). */
  const toDagResponse = (dagId: string): Json => {
    if (!options.dags[dagId]) throw new HttpError(404, `Dag with id ${dagId} was not found`);
    const body: Json = {
      dag_id: dagId,
      dag_display_name: dagId,
      is_paused: paused.has(dagId),
      is_stale: false,
      last_parsed_time: null,
      last_expired: null,
      bundle_name: "dags-folder",
      relative_fileloc: `${dagId}.py`,
      fileloc: `/opt/airflow/dags/${dagId}.py`,
      description: null,
      timetable_summary: "@daily",
      timetable_description: "At 00:00",
      tags: [],
      max_active_tasks: 16,
      max_active_runs: 16,
      max_consecutive_failed_dag_runs: 0,
      has_task_concurrency_limits: false,
      has_import_errors: false,
      next_dagrun_logical_date: null,
      next_dagrun_data_interval_start: null,
      next_dagrun_data_interval_end: null,
      next_dagrun_run_after: null,
      owners: ["airflow"],
      file_token: Buffer.from(dagId).toString("base64url"),
    };
    if (options.version === "3.2.1") body.timetable_partitioned = false;
    return body;
  };

  const findRun = (dagId: string | undefined, runId: string | undefined): DagRunRecord => {
    const run = runs.find((x) => x.dagId === dagId && x.runId === runId);
    if (!run) throw new HttpError(404, `The DagRun with dag_id: \`${dagId}\` and run_id: \`${runId}\` was not found`);
    return run;
  };

  /** GET …/dagRuns/{dag_run_id}/taskInstances[/{task_id}]: a run's task instances as they are now (no step of the clock). */
  const getTaskInstances = (params: Record<string, string>): Reply => {
    const run = findRun(params.dag_id, params.dag_run_id);
    const tis = records.filter((r) => r.ti.dagId === run.dagId && r.ti.runId === run.runId);
    if (params.task_id === undefined) return { status: 200, body: collection(tis) };
    const r = tis.find((x) => x.ti.taskId === params.task_id);
    if (!r)
      throw new HttpError(
        404,
        `The Task Instance with dag_id: \`${run.dagId}\`, run_id: \`${run.runId}\`, task_id: \`${params.task_id}\` and map_index: \`-1\` was not found`,
      );
    return { status: 200, body: toResponse(r) };
  };

  /** POST /api/v2/dags/{dag_id}/dagRuns/list (`~`: every DAG): DAGRunsBatchBody's dag_ids, states, logical_date range and page. */
  const listDagRuns = (pathDagId: string, raw: Json): Reply => {
    const states = Array.isArray(raw.states) && raw.states.length > 0 ? (raw.states as (string | null)[]) : null;
    const matching = runs.filter(
      (run) =>
        (pathDagId === "~" || run.dagId === pathDagId) &&
        (states === null || states.includes(run.state)) &&
        batchFilter(raw, { dag_id: run.dagId, logical_date: run.logicalDate, start_date: run.startDate, end_date: run.endDate, run_after: run.logicalDate }),
    );
    const orderBy = typeof raw.order_by === "string" && raw.order_by !== "" ? raw.order_by : "id";
    const field = orderBy.replace(/^-/, "");
    const views = matching.map(toRunResponse);
    if (field !== "id") views.sort((a, b) => (orderBy.startsWith("-") ? -1 : 1) * compareValues(a[field], b[field]));
    const offset = typeof raw.page_offset === "number" ? raw.page_offset : 0;
    const limit = Math.min(typeof raw.page_limit === "number" ? raw.page_limit : 100, maximumPageLimit);
    return { status: 200, body: { dag_runs: views.slice(offset, offset + limit), total_entries: views.length } };
  };

  const clearTaskInstances = (dagId: string, raw: Json): Reply => {
    const dag = options.dags[dagId];
    if (!dag) throw new HttpError(404, `DAG ${dagId} not found`);
    const body = clearRequest(raw);
    let start = body.startDate === null ? null : Date.parse(body.startDate);
    let end = body.endDate === null ? null : Date.parse(body.endDate);
    let onlyRun: string | null = null;
    if (body.dagRunId !== null) {
      const run = runs.find((x) => x.dagId === dagId && x.runId === body.dagRunId);
      if (!run) throw new HttpError(404, `Dag Run id ${body.dagRunId} not found in dag ${dagId}`);
      start = end = Date.parse(run.logicalDate);
      if (!body.includePast && !body.includeFuture) onlyRun = run.runId;
    }
    if (body.includePast) start = null;
    if (body.includeFuture) end = null;

    const tasks = selectTasks(dag.tasks, body);
    let selected = records.filter((r) => {
      const ti = r.ti;
      if (ti.dagId !== dagId || !tasks.has(ti.taskId)) return false;
      if (onlyRun !== null && ti.runId !== onlyRun) return false;
      const at = Date.parse(ti.logicalDate);
      return (start === null || at >= start) && (end === null || at <= end);
    });
    if (body.onlyFailed) selected = selected.filter((r) => r.ti.state === "failed" || r.ti.state === "upstream_failed");
    if (body.onlyRunning) selected = selected.filter((r) => r.ti.state === "running");
    if (body.dryRun) return { status: 200, body: collection(selected) };
    if (body.preventRunningTask && selected.some((r) => r.ti.state === "running")) {
      throw new HttpError(409, "Cannot clear task instances that are currently running: prevent_running_task is set");
    }
    const now = new Date().toISOString();
    for (const r of selected) {
      // Airflow's clear_task_instances: a running TI is told to restart; the others start over.
      // Calibrated on Airflow 3.3.2 (test/peers/fake-airflow-calibration.test.ts): the cleared
      // instance gets a new id (its next try) and keeps its start and end dates until it runs again.
      r.ti.state = r.ti.state === "running" ? "restarting" : null;
      r.ti.clearedAt = now;
      r.id = randomUUID();
      r.maxTries = r.ti.tryNumber;
      if (body.resetDagRuns) {
        const run = runs.find((x) => x.dagId === dagId && x.runId === r.ti.runId);
        if (run) Object.assign(run, { state: "queued", startDate: null, endDate: null });
      }
    }
    return { status: 200, body: collection(selected) };
  };

  /** PATCH …/taskInstances/{task_id}: sets the (unmapped) task instance's state and note, as Airflow's set_task_instance_state. */
  const patchTaskInstance = (params: Record<string, string>, raw: Json): Reply => {
    const r = records.find((x) => x.ti.dagId === params.dag_id && x.ti.runId === params.dag_run_id && x.ti.taskId === params.task_id);
    if (!r)
      throw new HttpError(
        404,
        `The Task Instance with dag_id: \`${params.dag_id}\`, run_id: \`${params.dag_run_id}\` and task_id: \`${params.task_id}\` was not found`,
      );
    if (typeof raw.new_state === "string") {
      r.ti.state = raw.new_state;
      if (FINISHED.has(raw.new_state)) r.ti.endDate = new Date().toISOString();
    }
    if ("note" in raw) r.note = typeof raw.note === "string" ? raw.note : null;
    return { status: 200, body: collection([r]) };
  };

  const listTaskInstances = async (raw: Json): Promise<Reply> => {
    if (advanceOnPoll) await advance();
    const all = records.map((r) => ({ r, view: toResponse(r) }));
    const matching = all.filter(({ view }) => batchFilter(raw, view));
    const orderBy = typeof raw.order_by === "string" && raw.order_by !== "" ? raw.order_by : null;
    matching.sort((a, b) => {
      if (orderBy) {
        const field = orderBy.replace(/^-/, "");
        const c = compareValues(a.view[field], b.view[field]);
        if (c !== 0) return orderBy.startsWith("-") ? -c : c;
      }
      return compareValues(a.r.ti.logicalDate, b.r.ti.logicalDate) || compareValues(a.r.ti.dagId, b.r.ti.dagId) || a.r.taskIndex - b.r.taskIndex;
    });
    const offset = typeof raw.page_offset === "number" ? raw.page_offset : 0;
    const limit = Math.min(typeof raw.page_limit === "number" ? raw.page_limit : 100, maximumPageLimit);
    const page = matching.slice(offset, offset + limit).map(({ r }) => r);
    return { status: 200, body: collection(page, matching.length) };
  };

  /** 401 without a bearer token or with an expired one, 403 with one this server never issued. */
  const authenticate = (header: string | null): void => {
    const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
    if (!match?.[1]) throw new HttpError(401, "Not authenticated");
    const token = tokens.get(match[1]);
    if (!token) throw new HttpError(403, "Invalid JWT token");
    if (token.revoked || token.expiresAt <= Date.now()) throw new HttpError(401, "Token Expired");
  };

  const handle = async (req: IncomingMessage, path: string, query: URLSearchParams, text: string): Promise<Reply> => {
    const method = (req.method ?? "GET").toUpperCase();
    const contentType = req.headers["content-type"] ?? null;
    const contract = auth.match(method, path).pathDocumented ? auth : api;
    let body: unknown;
    if (text !== "") {
      if (contentType?.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
        body = Object.fromEntries(new URLSearchParams(text));
      } else {
        try {
          body = JSON.parse(text) as unknown;
        } catch (e) {
          violations.push(`${method} ${path} request body: not JSON (${(e as Error).message})`);
          return { status: 422, body: { detail: [{ type: "json_invalid", loc: ["body", 0], msg: "JSON decode error" }] } };
        }
      }
    }
    const check = contract.validateRequest({ method, path, query, body, contentType });
    if (!check.match) {
      violations.push(...check.violations);
      return check.methodNotAllowed ? { status: 405, body: { detail: "Method Not Allowed" } } : { status: 404, body: { detail: "Not Found" } };
    }
    const operationId = check.match.operation.operationId;
    if (contract === api) authenticate(req.headers.authorization ?? null);
    if (contract === api && operationId && forbidden.has(operationId)) throw new HttpError(403, "Forbidden");
    if (check.violations.length > 0) {
      violations.push(...check.violations);
      if (check.issues.length > 0) return { status: 422, body: { detail: check.issues.map(validationError) } };
    }
    const json = (body ?? {}) as Json;
    switch (operationId) {
      case "create_token": {
        const username = String(json.username);
        if (users[username] === undefined || users[username] !== json.password) throw new HttpError(401, "Invalid credentials");
        return { status: 201, body: { access_token: issueToken(username) } };
      }
      case "post_clear_task_instances":
        return clearTaskInstances(check.match.pathParams.dag_id ?? "", json);
      case "get_task_instances_batch":
        return listTaskInstances(json);
      case "patch_task_instance":
        return patchTaskInstance(check.match.pathParams, json);
      case "get_task_instance":
      case "get_task_instances":
        return getTaskInstances(check.match.pathParams);
      case "get_dag":
        return { status: 200, body: toDagResponse(check.match.pathParams.dag_id ?? "") };
      case "get_dag_run":
        return { status: 200, body: toRunResponse(findRun(check.match.pathParams.dag_id, check.match.pathParams.dag_run_id)) };
      case "get_list_dag_runs_batch":
        return listDagRuns(check.match.pathParams.dag_id ?? "~", json);
      default:
        violations.push(`${method} ${path}: operation ${operationId ?? check.match.template} is documented but not modelled by the fake`);
        return { status: 501, body: { detail: `${operationId ?? "operation"} is not modelled by the fake Airflow` } };
    }
  };

  const server = createServer((req, res) => {
    serve(req, res).catch((e: unknown) => {
      violations.push(`${req.method ?? "GET"} ${req.url ?? "/"}: the fake failed to answer (${String(e)})`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ detail: "fake Airflow failed" }));
    });
  });

  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake-airflow");
    const method = (req.method ?? "GET").toUpperCase();
    let reply: Reply;
    try {
      reply = await handle(req, url.pathname, url.searchParams, text);
    } catch (e) {
      reply =
        e instanceof HttpError ? { status: e.status, body: { detail: e.detail } } : { status: 500, body: { detail: `fake Airflow failed: ${String(e)}` } };
    }
    const contract = auth.match(method, url.pathname).pathDocumented ? auth : api;
    if (contract.match(method, url.pathname).match) {
      violations.push(...contract.validateResponse({ method, path: url.pathname, status: reply.status, body: reply.body }));
    }
    let requestBody: unknown = text === "" ? undefined : text;
    try {
      requestBody = text === "" ? undefined : (JSON.parse(text) as unknown);
    } catch {
      // keep the raw text
    }
    requests.push({
      method,
      path: url.pathname,
      status: reply.status,
      requestBody,
      responseBody: reply.body,
      authorization: req.headers.authorization ?? null,
    });
    const payload = JSON.stringify(reply.body);
    res.writeHead(reply.status, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
    res.end(payload);
  };

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    violations,
    taskInstance: (dagId, taskId, logicalDate) => {
      const at = Date.parse(logicalDate);
      return records.find((r) => r.ti.dagId === dagId && r.ti.taskId === taskId && Date.parse(r.ti.logicalDate) === at)?.ti;
    },
    taskInstances: () => records.map((r) => r.ti),
    dagRunState: (dagId, runId) => runs.find((r) => r.dagId === dagId && r.runId === runId)?.state,
    advance,
    issueToken,
    expireTokens: () => {
      for (const t of tokens.values()) t.revoked = true;
    },
    setPaused: (dagId, value) => {
      if (value) paused.add(dagId);
      else paused.delete(dagId);
    },
    forbid: (operationIds) => {
      forbidden = new Set(operationIds ?? []);
    },
    stop: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      });
      // Let clients see their kept-alive connections closed, so their next request meets the closed port.
      await new Promise((resolve) => setTimeout(resolve, 200));
    },
    start: listen,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve(); // stopped by the test
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The state a DAG run ends in once every task instance finished (`undefined` while one has not). */
function endedRunState(tis: FakeTaskInstance[]): "success" | "failed" | undefined {
  if (!tis.every((t) => t.state !== null && FINISHED.has(t.state))) return undefined;
  return tis.some((t) => t.state === "failed" || t.state === "upstream_failed") ? "failed" : "success";
}

/** The documented defaults of ClearTaskInstancesBody (note: dry_run and only_failed are true). */
function clearRequest(raw: Json): ClearRequest {
  const bool = (key: string, fallback: boolean) => (typeof raw[key] === "boolean" ? (raw[key] as boolean) : fallback);
  const text = (key: string) => (typeof raw[key] === "string" ? (raw[key] as string) : null);
  return {
    dryRun: bool("dry_run", true),
    taskIds: Array.isArray(raw.task_ids) ? (raw.task_ids as (string | [string, number])[]) : null,
    dagRunId: text("dag_run_id"),
    startDate: text("start_date"),
    endDate: text("end_date"),
    onlyFailed: bool("only_failed", true),
    onlyRunning: bool("only_running", false),
    resetDagRuns: bool("reset_dag_runs", true),
    includeUpstream: bool("include_upstream", false),
    includeDownstream: bool("include_downstream", false),
    includeFuture: bool("include_future", false),
    includePast: bool("include_past", false),
    preventRunningTask: bool("prevent_running_task", false),
  };
}

/**
 * The task ids a clear reaches: the named ones (a `[task_id, map_index]` pair names an unmapped
 * task only with map_index -1), plus their downstream and/or upstream closure; all when unnamed.
 */
function selectTasks(tasks: { taskId: string; downstream?: string[] }[], body: ClearRequest): Set<string> {
  if (body.taskIds === null) return new Set(tasks.map((t) => t.taskId));
  const known = new Set(tasks.map((t) => t.taskId));
  const named = body.taskIds.flatMap((t) => (typeof t === "string" ? [t] : t[1] === -1 ? [t[0]] : [])).filter((t) => known.has(t));
  const downstream = new Map(tasks.map((t) => [t.taskId, t.downstream ?? []]));
  const upstream = new Map<string, string[]>();
  for (const t of tasks) for (const d of t.downstream ?? []) upstream.set(d, [...(upstream.get(d) ?? []), t.taskId]);
  const result = new Set(named);
  const walk = (edges: Map<string, string[]>) => {
    const stack = [...named];
    while (stack.length > 0) {
      for (const next of edges.get(stack.pop() ?? "") ?? []) {
        if (!result.has(next) && known.has(next)) {
          result.add(next);
          stack.push(next);
        }
      }
    }
  };
  if (body.includeDownstream) walk(downstream);
  if (body.includeUpstream) walk(upstream);
  return result;
}

const LIST_FILTERS: Record<string, string> = {
  dag_ids: "dag_id",
  dag_run_ids: "dag_run_id",
  task_ids: "task_id",
  state: "state",
  pool: "pool",
  queue: "queue",
  executor: "executor",
};
const RANGE_FIELDS = ["logical_date", "start_date", "end_date", "run_after", "duration"];

/** TaskInstancesBatchBody's filters: lists match any member, ranges never match a null. */
function batchFilter(raw: Json, view: Json): boolean {
  for (const [key, field] of Object.entries(LIST_FILTERS)) {
    const wanted = raw[key];
    if (Array.isArray(wanted) && wanted.length > 0 && !wanted.includes(view[field])) return false;
  }
  for (const field of RANGE_FIELDS) {
    for (const op of ["gte", "gt", "lte", "lt"] as const) {
      const bound = raw[`${field}_${op}`];
      if (bound === undefined || bound === null) continue;
      const value = view[field];
      if (value === null || value === undefined) return false;
      const c = compareValues(field === "duration" ? value : Date.parse(String(value)), field === "duration" ? bound : Date.parse(String(bound)));
      if ((op === "gte" && c < 0) || (op === "gt" && c <= 0) || (op === "lte" && c > 0) || (op === "lt" && c >= 0)) return false;
    }
  }
  return true;
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const [x, y] = [Date.parse(String(a)), Date.parse(String(b))];
  if (!Number.isNaN(x) && !Number.isNaN(y) && /^\d{4}-/.test(String(a))) return x - y;
  return String(a) < String(b) ? -1 : 1;
}

/** A contract issue as one entry of FastAPI's 422 `detail` (pydantic's type and message). */
function validationError(issue: ContractIssue): { loc: (string | number)[]; msg: string; type: string } {
  const byKeyword: Record<string, [string, string]> = {
    additionalProperties: ["extra_forbidden", "Extra inputs are not permitted"],
    required: ["missing", "Field required"],
    format: ["value_error", `Input should be a valid value: ${issue.message}`],
    const: ["literal_error", `Input should be ${issue.message.replace(/^.*\((.*)\)$/, "$1")}`],
    enum: ["enum", `Input should be one of ${issue.message.replace(/^.*\((.*)\)$/, "$1")}`],
    minimum: ["greater_than_equal", `Input ${issue.message}`],
  };
  const typeMessage = /must be (\w+)/.exec(issue.message)?.[1];
  const byType: Record<string, [string, string]> = {
    boolean: ["bool_parsing", "Input should be a valid boolean, unable to interpret input"],
    string: ["string_type", "Input should be a valid string"],
    integer: ["int_type", "Input should be a valid integer"],
    number: ["float_type", "Input should be a valid number"],
    array: ["list_type", "Input should be a valid list"],
    object: ["model_type", "Input should be a valid dictionary or object"],
  };
  const [type, msg] = (issue.keyword === "type" && typeMessage ? byType[typeMessage] : byKeyword[issue.keyword]) ?? [issue.keyword, issue.message];
  return { loc: issue.loc, msg, type };
}

function iso(value: string): string {
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new Error(`not a date: ${value}`);
  return new Date(t).toISOString();
}
