import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/**
 * A Databricks workspace's Jobs API 2.2 for tests (test support, not production):
 *
 *   POST /api/2.2/jobs/runs/repair   RepairRun → RepairRunResponse
 *   GET  /api/2.2/jobs/runs/get      GetRunRequest (query) → Run
 *   POST /api/2.2/jobs/runs/cancel   CancelRun → {}
 *
 * Requests are validated against the Go structs parsed from databricks-sdk-go's model.go
 * (test/fixtures/peers/databricks): json (or url) tag names, `omitempty` (a field without it is
 * required), Go types, string enums. An unknown field or a wrong type is a violation answered
 * 400 INVALID_PARAMETER_VALUE, as Databricks does; so are the service's own rules the fake
 * enforces (run_id must exist; latest_repair_id is required from a run's second repair on and
 * must be the latest; rerun_tasks must be task keys of the run). The fake's own answers are
 * validated with the same structs (response direction), so they have the shape the adapter will
 * meet. A repaired task gets a new task run (run_id, attempt_number + 1) that goes PENDING →
 * RUNNING → TERMINATED (SUCCESS or FAILED per `outcome`), one step per runs/get of the run.
 */

// ---------------------------------------------------------------- the model.go struct parser

export type GoType =
  | { readonly kind: "string"; readonly enumName?: string }
  | { readonly kind: "integer" | "number" | "boolean" | "any" }
  | { readonly kind: "array" | "map"; readonly of: GoType }
  | { readonly kind: "struct"; readonly name: string };

export interface GoField {
  readonly goName: string;
  /** The json tag's name (null: `json:"-"`, not in the body). */
  readonly json: string | null;
  /** The url tag's name (query parameters of a GET), or null. */
  readonly url: string | null;
  readonly omitempty: boolean;
  readonly urlOmitempty: boolean;
  readonly type: GoType;
}

export interface GoModel {
  readonly structs: ReadonlyMap<string, readonly GoField[]>;
  /** `type X string` with its `const … X = \`VALUE\`` values. */
  readonly enums: ReadonlyMap<string, readonly string[]>;
}

/** Parses the structs and string enums of a Go source file (gofmt-formatted, as generated). */
export function parseGoModel(source: string): GoModel {
  const enums = new Map<string, string[]>();
  for (const m of source.matchAll(/^type (\w+) string$/gm)) enums.set(m[1]!, []);
  for (const m of source.matchAll(/^const \w+ (\w+) = `([^`]*)`$/gm)) enums.get(m[1]!)?.push(m[2]!);
  const aliases = new Map<string, string>();
  for (const m of source.matchAll(/^type (\w+) (int|int32|int64|bool|float64)$/gm)) aliases.set(m[1]!, m[2]!);
  const structNames = new Set([...source.matchAll(/^type (\w+) struct \{$/gm)].map((m) => m[1]!));
  const typeOf = (go: string): GoType => {
    const t = go.replace(/^\*/, "");
    if (t.startsWith("[]")) return { kind: "array", of: typeOf(t.slice(2)) };
    const map = /^map\[string\](.+)$/.exec(t);
    if (map) return { kind: "map", of: typeOf(map[1]!) };
    const basic = aliases.get(t) ?? t;
    if (basic === "string") return { kind: "string" };
    if (basic === "bool") return { kind: "boolean" };
    if (/^u?int(8|16|32|64)?$/.test(basic)) return { kind: "integer" };
    if (/^float(32|64)$/.test(basic)) return { kind: "number" };
    if (enums.has(t)) return { kind: "string", enumName: t };
    if (structNames.has(t)) return { kind: "struct", name: t };
    return { kind: "any" }; // another package's type (compute.Library), any, interface{}
  };
  const structs = new Map<string, GoField[]>();
  for (const m of source.matchAll(/^type (\w+) struct \{\n([\s\S]*?)^\}/gm)) {
    const fields: GoField[] = [];
    for (const line of m[2]!.split("\n")) {
      const f = /^\s*(\w+)\s+(\S+)\s+`([^`]*)`\s*$/.exec(line);
      if (!f) continue;
      const tag = (name: string) => new RegExp(`${name}:"([^"]*)"`).exec(f[3]!)?.[1] ?? null;
      const [json, ...jsonOpts] = (tag("json") ?? "-").split(",");
      const [url, ...urlOpts] = (tag("url") ?? "-").split(",");
      fields.push({
        goName: f[1]!,
        type: typeOf(f[2]!),
        json: json && json !== "-" ? json : null,
        omitempty: jsonOpts.includes("omitempty"),
        url: url && url !== "-" ? url : null,
        urlOmitempty: urlOpts.includes("omitempty"),
      });
    }
    structs.set(m[1]!, fields);
  }
  return { structs, enums };
}

/** What is wrong with `value` as JSON of `type` (empty: nothing). A field without omitempty is required. */
export function validateJson(model: GoModel, type: GoType, value: unknown, at: string): string[] {
  const kind = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  switch (type.kind) {
    case "any":
      return [];
    case "string": {
      if (typeof value !== "string") return [`${at}: expected a string, got ${kind(value)}`];
      const values = type.enumName ? model.enums.get(type.enumName) : undefined;
      return values && values.length > 0 && !values.includes(value) ? [`${at}: "${value}" is not a ${type.enumName} (${values.join(", ")})`] : [];
    }
    case "integer":
      return typeof value === "number" && Number.isInteger(value)
        ? []
        : [`${at}: expected an integer, got ${kind(value)}${typeof value === "number" ? ` ${value}` : ""}`];
    case "number":
      return typeof value === "number" ? [] : [`${at}: expected a number, got ${kind(value)}`];
    case "boolean":
      return typeof value === "boolean" ? [] : [`${at}: expected a boolean, got ${kind(value)}`];
    case "array":
      return Array.isArray(value) ? value.flatMap((v, i) => validateJson(model, type.of, v, `${at}[${i}]`)) : [`${at}: expected an array, got ${kind(value)}`];
    case "map":
      return value && typeof value === "object" && !Array.isArray(value)
        ? Object.entries(value).flatMap(([k, v]) => validateJson(model, type.of, v, `${at}.${k}`))
        : [`${at}: expected an object, got ${kind(value)}`];
    case "struct": {
      const fields = model.structs.get(type.name) ?? [];
      if (!value || typeof value !== "object" || Array.isArray(value)) return [`${at}: expected an object (${type.name}), got ${kind(value)}`];
      const byName = new Map(fields.filter((f) => f.json).map((f) => [f.json!, f]));
      const out: string[] = [];
      for (const [k, v] of Object.entries(value)) {
        const f = byName.get(k);
        if (!f) out.push(`${at}: unknown field "${k}" (${type.name} has ${[...byName.keys()].join(", ")})`);
        else out.push(...validateJson(model, f.type, v, `${at}.${k}`));
      }
      for (const f of byName.values()) if (!f.omitempty && !(f.json! in value)) out.push(`${at}: missing required field "${f.json}" (${type.name})`);
      return out;
    }
  }
}

/** What is wrong with a query string as the url-tagged fields of `struct`. */
export function validateQuery(model: GoModel, struct: string, query: URLSearchParams): string[] {
  const fields = new Map((model.structs.get(struct) ?? []).filter((f) => f.url).map((f) => [f.url!, f]));
  const out: string[] = [];
  for (const [k, v] of query) {
    const f = fields.get(k);
    if (!f) out.push(`query: unknown parameter "${k}" (${struct} has ${[...fields.keys()].join(", ")})`);
    else if (f.type.kind === "integer" && !/^-?\d+$/.test(v)) out.push(`query.${k}: expected an integer, got "${v}"`);
    else if (f.type.kind === "boolean" && v !== "true" && v !== "false") out.push(`query.${k}: expected true or false, got "${v}"`);
  }
  for (const f of fields.values()) if (!f.urlOmitempty && !query.has(f.url!)) out.push(`query: missing required parameter "${f.url}" (${struct})`);
  return out;
}

// ---------------------------------------------------------------- the fake workspace

export type TaskResult = "SUCCESS" | "FAILED";

export interface FakeTaskRun {
  readonly taskKey: string;
  readonly runId: number;
  readonly attempt: number;
  step: "PENDING" | "RUNNING" | "TERMINATED";
  result?: TaskResult | "CANCELED";
  /** null: the original run. */
  readonly repairId: number | null;
}

export interface FakeRepair {
  readonly id: number;
  readonly type: "ORIGINAL" | "REPAIR";
  readonly taskRunIds: number[];
  readonly body: Record<string, unknown> | null;
  readonly startTime: number;
}

export interface FakeJobRun {
  readonly runId: number;
  readonly jobId: number;
  /** Every task run, oldest first (runs/get shows the latest attempt of each task). */
  readonly taskRuns: FakeTaskRun[];
  readonly history: FakeRepair[];
}

export interface FakeDatabricksRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly body: unknown;
  readonly authorized: boolean;
  status: number;
}

export interface FakeDatabricksOptions {
  readonly token: string;
  /** The job runs: their tasks with the original run's result (default SUCCESS). */
  readonly runs: { runId: number; jobId?: number; tasks: { taskKey: string; result?: TaskResult }[] }[];
  /** Whether a repaired task run succeeds (default SUCCESS). */
  readonly outcome?: (taskKey: string, repairId: number) => TaskResult | Promise<TaskResult>;
  /** Awaited when a repaired task run terminates. */
  readonly onTaskFinished?: (
    taskKey: string,
    result: TaskResult,
    repair: { runId: number; repairId: number; jobParameters: Record<string, string> },
  ) => void | Promise<void>;
  /** Default: test/fixtures/peers/databricks/model.go. */
  readonly modelPath?: string;
}

export interface FakeDatabricks {
  readonly url: string;
  readonly runs: FakeJobRun[];
  readonly requests: FakeDatabricksRequest[];
  /** Everything the real workspace would have refused, and any answer of the fake off the model. */
  readonly violations: string[];
  readonly model: GoModel;
  close(): Promise<void>;
}

const DEFAULT_MODEL = path.join(process.cwd(), "test/fixtures/peers/databricks/model.go");

let modelCache: { path: string; model: GoModel } | null = null;
function goModel(file: string): GoModel {
  if (modelCache?.path !== file) modelCache = { path: file, model: parseGoModel(readFileSync(file, "utf8")) };
  return modelCache.model;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function startFakeDatabricks(options: FakeDatabricksOptions): Promise<FakeDatabricks> {
  const model = goModel(options.modelPath ?? DEFAULT_MODEL);
  const struct = (name: string): GoType => ({ kind: "struct", name });
  const requests: FakeDatabricksRequest[] = [];
  const violations: string[] = [];
  let nextId = 900_000_000_001;
  const t0 = Date.UTC(2026, 7, 26, 6, 0, 0);
  const runs: FakeJobRun[] = options.runs.map((r, i) => ({
    runId: r.runId,
    jobId: r.jobId ?? 1000 + i,
    taskRuns: r.tasks.map((t) => ({ taskKey: t.taskKey, runId: nextId++, attempt: 0, step: "TERMINATED", result: t.result ?? "SUCCESS", repairId: null })),
    history: [],
  }));
  for (const r of runs) r.history.push({ id: r.runId, type: "ORIGINAL", taskRunIds: r.taskRuns.map((t) => t.runId), body: null, startTime: t0 });

  const latestOf = (run: FakeJobRun, key: string) => [...run.taskRuns].reverse().find((t) => t.taskKey === key);
  const taskKeys = (run: FakeJobRun) => [...new Set(run.taskRuns.map((t) => t.taskKey))];
  const findRun = (id: unknown) => {
    const run = runs.find((r) => r.runId === id);
    if (!run) throw new Refusal(400, "INVALID_PARAMETER_VALUE", `Run ${String(id)} does not exist.`);
    return run;
  };

  /** RunState and RunStatus of a set of task runs. */
  function states(tasks: readonly FakeTaskRun[]) {
    const done = tasks.every((t) => t.step === "TERMINATED");
    const running = tasks.some((t) => t.step === "RUNNING");
    const failed = tasks.filter((t) => t.result && t.result !== "SUCCESS");
    const result = failed.some((t) => t.result === "CANCELED") ? "CANCELED" : failed.length > 0 ? "FAILED" : "SUCCESS";
    const life = done ? "TERMINATED" : running ? "RUNNING" : "PENDING";
    const code = result === "SUCCESS" ? "SUCCESS" : result === "CANCELED" ? "USER_CANCELED" : "RUN_EXECUTION_ERROR";
    return {
      state: {
        life_cycle_state: life,
        ...(done ? { result_state: result } : {}),
        state_message: done && result !== "SUCCESS" ? `${failed.length} task(s) ${result.toLowerCase()}` : "",
      },
      status: {
        state: life,
        ...(done
          ? {
              termination_details: {
                code,
                type: result === "SUCCESS" ? "SUCCESS" : "CLIENT_ERROR",
                message: result === "SUCCESS" ? "" : `${failed.length} task(s) ${result.toLowerCase()}`,
              },
            }
          : {}),
      },
    };
  }

  /** One step of every unfinished task run of the run. */
  async function advance(run: FakeJobRun): Promise<void> {
    for (const t of run.taskRuns) {
      if (t.step === "PENDING") t.step = "RUNNING";
      else if (t.step === "RUNNING") {
        const repairId = t.repairId ?? run.runId;
        const result = (await options.outcome?.(t.taskKey, repairId)) ?? "SUCCESS";
        t.step = "TERMINATED";
        t.result = result;
        const repair = run.history.find((h) => h.id === t.repairId);
        const params = repair?.body?.job_parameters;
        await options.onTaskFinished?.(t.taskKey, result, {
          runId: run.runId,
          repairId,
          jobParameters: (params && typeof params === "object" ? params : {}) as Record<string, string>,
        });
      }
    }
  }

  /** `Run` (with repair_history when asked). */
  function runView(run: FakeJobRun, includeHistory: boolean) {
    const latest = taskKeys(run).map((k) => latestOf(run, k)!);
    const lastRepair = [...run.history].reverse().find((h) => h.type === "REPAIR");
    const params = (lastRepair?.body?.job_parameters ?? {}) as Record<string, string>;
    return {
      job_id: run.jobId,
      run_id: run.runId,
      number_in_job: run.runId,
      run_name: `job ${run.jobId}`,
      run_type: "JOB_RUN",
      start_time: t0,
      ...states(latest),
      ...(Object.keys(params).length > 0 ? { job_parameters: Object.entries(params).map(([name, value]) => ({ name, value })) } : {}),
      tasks: latest.map((t) => ({
        task_key: t.taskKey,
        run_id: t.runId,
        attempt_number: t.attempt,
        start_time: t0 + t.attempt * 60_000,
        ...states([t]),
      })),
      ...(includeHistory
        ? {
            repair_history: run.history.map((h) => ({
              id: h.id,
              type: h.type,
              start_time: h.startTime,
              task_run_ids: h.taskRunIds,
              ...states(run.taskRuns.filter((t) => h.taskRunIds.includes(t.runId))),
            })),
          }
        : {}),
    };
  }

  /** Validates one of the fake's own answers against its struct (response direction). */
  const checked = <T>(name: string, body: T): T => {
    for (const v of validateJson(model, struct(name), body, name)) violations.push(`the fake's answer: ${v}`);
    return body;
  };

  async function route(method: string, pathname: string, query: URLSearchParams, body: unknown): Promise<unknown> {
    const invalid = (problems: string[]) => {
      if (problems.length > 0) throw new Refusal(400, "INVALID_PARAMETER_VALUE", problems.join("; "));
    };
    if (method === "GET" && pathname === "/api/2.2/jobs/runs/get") {
      invalid(validateQuery(model, "GetRunRequest", query));
      const run = findRun(Number(query.get("run_id")));
      await advance(run);
      return checked("Run", runView(run, query.get("include_history") === "true"));
    }
    if (method === "POST" && pathname === "/api/2.2/jobs/runs/repair") {
      invalid(validateJson(model, struct("RepairRun"), body, "RepairRun"));
      const b = body as { run_id: number; latest_repair_id?: number; rerun_tasks?: string[]; rerun_all_failed_tasks?: boolean };
      const run = findRun(b.run_id);
      const repairs = run.history.filter((h) => h.type === "REPAIR");
      const latest = repairs[repairs.length - 1];
      if (latest && b.latest_repair_id === undefined)
        throw new Refusal(
          400,
          "INVALID_PARAMETER_VALUE",
          `latest_repair_id is required: run ${run.runId} has been repaired, ${latest.id} is the latest repair`,
        );
      if (b.latest_repair_id !== undefined && b.latest_repair_id !== latest?.id)
        throw new Refusal(
          400,
          "INVALID_PARAMETER_VALUE",
          `latest_repair_id ${b.latest_repair_id} is not the latest repair of run ${run.runId}${latest ? ` (${latest.id})` : " (it has none)"}`,
        );
      const keys = taskKeys(run);
      const unknown = (b.rerun_tasks ?? []).filter((k) => !keys.includes(k));
      if (unknown.length > 0) throw new Refusal(400, "INVALID_PARAMETER_VALUE", `Task key(s) ${unknown.join(", ")} not found in run ${run.runId}`);
      const rerun = b.rerun_all_failed_tasks ? keys.filter((k) => latestOf(run, k)?.result !== "SUCCESS") : [...new Set(b.rerun_tasks ?? [])];
      if (rerun.length === 0) throw new Refusal(400, "INVALID_PARAMETER_VALUE", "Nothing to repair: set rerun_tasks or rerun_all_failed_tasks");
      const id = nextId++;
      const taskRuns = rerun.map((k): FakeTaskRun => ({
        taskKey: k,
        runId: nextId++,
        attempt: (latestOf(run, k)?.attempt ?? -1) + 1,
        step: "PENDING",
        repairId: id,
      }));
      run.taskRuns.push(...taskRuns);
      run.history.push({
        id,
        type: "REPAIR",
        taskRunIds: taskRuns.map((t) => t.runId),
        body: body as Record<string, unknown>,
        startTime: t0 + run.history.length * 60_000,
      });
      return checked("RepairRunResponse", { repair_id: id });
    }
    if (method === "POST" && pathname === "/api/2.2/jobs/runs/cancel") {
      invalid(validateJson(model, struct("CancelRun"), body, "CancelRun"));
      const run = findRun((body as { run_id: number }).run_id);
      for (const t of run.taskRuns) if (t.step !== "TERMINATED") Object.assign(t, { step: "TERMINATED", result: "CANCELED" });
      return {};
    }
    throw new Refusal(404, "ENDPOINT_NOT_FOUND", `No API found for '${method} ${pathname}'`);
  }

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? "/", "http://fake");
    const text = Buffer.concat(chunks).toString("utf8");
    const authorized = req.headers.authorization === `Bearer ${options.token}`;
    const entry: FakeDatabricksRequest = {
      method: req.method ?? "",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: null,
      authorized,
      status: 0,
    };
    requests.push(entry);
    const answer = (status: number, body: unknown) => {
      entry.status = status;
      send(res, status, body);
    };
    if (!authorized) return answer(401, { error_code: "UNAUTHENTICATED", message: "Invalid access token." });
    let body: unknown = undefined;
    if (req.method === "POST") {
      try {
        body = JSON.parse(text);
      } catch {
        violations.push(`${req.method} ${url.pathname}: the body is not JSON`);
        return answer(400, { error_code: "MALFORMED_REQUEST", message: "Could not parse request object: invalid JSON" });
      }
      Object.assign(entry, { body });
    }
    try {
      return answer(200, await route(req.method ?? "", url.pathname, url.searchParams, body));
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      violations.push(`${req.method} ${url.pathname}: ${e.code}: ${e.message}`);
      return answer(e.status, { error_code: e.code, message: e.message });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      violations.push(`the fake failed: ${(e as Error).message}`);
      if (!res.headersSent) send(res, 500, { error_code: "INTERNAL_ERROR", message: (e as Error).message });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    runs,
    requests,
    violations,
    model,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}
