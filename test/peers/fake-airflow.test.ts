import { afterEach, describe, expect, it } from "vitest";
import { airflowContract, startFakeAirflow, type FakeAirflow, type FakeAirflowOptions, type FakeTaskInstance } from "./fake-airflow";
import { OpenApiContract, type OpenApiDocument } from "./openapi-contract";

/** Orders: extract → transform → load, three daily runs; transform failed on the 2nd (load is upstream_failed). */
const DAGS: FakeAirflowOptions["dags"] = {
  orders: {
    tasks: [{ taskId: "extract", downstream: ["transform"] }, { taskId: "transform", downstream: ["load"] }, { taskId: "load" }],
    runs: [{ logicalDate: "2024-01-01T00:00:00Z" }, { logicalDate: "2024-01-02T00:00:00Z" }, { logicalDate: "2024-01-03T00:00:00Z" }],
  },
};
const DAY2 = "2024-01-02T00:00:00Z";

function initialState({ taskId, logicalDate }: { taskId: string; logicalDate: string }): string {
  if (Date.parse(logicalDate) !== Date.parse(DAY2)) return "success";
  return taskId === "transform" ? "failed" : taskId === "load" ? "upstream_failed" : "success";
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function call(fake: FakeAirflow, path: string, body: unknown, token?: string | null): Promise<Answer> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${fake.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function taskIds(answer: Answer): string[] {
  return (answer.body.task_instances as { task_id: string; logical_date: string }[]).map((t) => `${t.task_id}@${t.logical_date.slice(0, 10)}`).sort();
}

const CLEAR = "/api/v2/dags/orders/clearTaskInstances";
const LIST = "/api/v2/dags/~/dagRuns/~/taskInstances/list";

let fake: FakeAirflow | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

// The first test of each version compiles its OpenAPI document (ajv): seconds on a busy 2-core machine.
describe.each(["3.0.0", "3.2.1"] as const)("fake Airflow %s", { timeout: 30_000 }, (version) => {
  async function start(extra: Partial<FakeAirflowOptions> = {}): Promise<FakeAirflow> {
    fake = await startFakeAirflow({ version, dags: DAGS, initialState, ...extra });
    return fake;
  }

  it("issues a token at /auth/token and refuses /api/v2 without one, with an expired one or a forged one", async () => {
    const f = await start();
    const login = await call(f, "/auth/token", { username: "admin", password: "admin" });
    expect(login.status).toBe(201);
    const token = String(login.body.access_token);
    expect(token.split(".")).toHaveLength(3);

    expect((await call(f, "/auth/token", { username: "admin", password: "nope" })).body).toEqual({ detail: "Invalid credentials" });
    expect((await call(f, LIST, { dag_ids: ["orders"] })).status).toBe(401);
    expect((await call(f, LIST, { dag_ids: ["orders"] }, "not-a-token")).status).toBe(403);
    expect((await call(f, LIST, { dag_ids: ["orders"] }, token)).status).toBe(200);
    f.expireTokens();
    const expired = await call(f, LIST, { dag_ids: ["orders"] }, token);
    expect(expired.status).toBe(401);
    expect((await call(f, LIST, { dag_ids: ["orders"] }, f.issueToken())).status).toBe(200);
    expect(f.requests.map((r) => r.status)).toEqual([201, 401, 401, 403, 200, 401, 200]);
    expect(f.requests[4]?.authorization).toBe(`Bearer ${token}`);
    expect(f.violations).toEqual([]);
  });

  it("lets a token expire after tokenTtlSeconds", async () => {
    const f = await start({ tokenTtlSeconds: 0 });
    expect((await call(f, LIST, {}, f.issueToken())).body).toEqual({ detail: "Token Expired" });
    expect(f.violations).toEqual([]);
  });

  it("answers a dry-run clear with the task instances it would clear, and changes nothing", async () => {
    const f = await start();
    const token = f.issueToken();
    const before = JSON.stringify(f.taskInstances());
    const dry = await call(f, CLEAR, { dry_run: true, task_ids: ["transform", "load"], start_date: DAY2, end_date: DAY2, only_failed: true }, token);
    expect(dry.status).toBe(200);
    expect(taskIds(dry)).toEqual(["load@2024-01-02", "transform@2024-01-02"]);
    expect(dry.body.total_entries).toBe(2);
    // dry_run and only_failed both default to true when absent.
    const defaults = await call(f, CLEAR, {}, token);
    expect(taskIds(defaults)).toEqual(["load@2024-01-02", "transform@2024-01-02"]);
    expect(JSON.stringify(f.taskInstances())).toBe(before);
    expect(f.violations).toEqual([]);
  });

  it("clears for real, then polling runs the cleared task instances to success and calls onFinished", async () => {
    const finished: FakeTaskInstance[] = [];
    const f = await start({ onFinished: (ti) => void finished.push({ ...ti }) });
    const token = f.issueToken();
    const cleared = await call(
      f,
      CLEAR,
      { dry_run: false, task_ids: ["transform"], include_downstream: true, start_date: DAY2, end_date: DAY2, only_failed: true },
      token,
    );
    expect(cleared.status).toBe(200);
    expect(taskIds(cleared)).toEqual(["load@2024-01-02", "transform@2024-01-02"]);
    expect((cleared.body.task_instances as { state: unknown }[]).every((t) => t.state === null)).toBe(true);
    const transform = f.taskInstance("orders", "transform", DAY2);
    // As Airflow 3.3.2 does (fake-airflow-calibration.test.ts): the cleared instance keeps its last try's end date.
    expect(transform).toMatchObject({ state: null, endDate: "2024-01-02T00:01:00.000Z", tryNumber: 1 });
    expect(transform?.clearedAt).not.toBeNull();
    expect(f.taskInstance("orders", "extract", DAY2)?.clearedAt).toBeNull();
    expect(f.dagRunState("orders", "scheduled__2024-01-02T00:00:00+00:00")).toBe("queued");

    const poll = { dag_ids: ["orders"], task_ids: ["transform", "load"], logical_date_gte: DAY2, logical_date_lte: DAY2, page_limit: 100 };
    const states: string[][] = [];
    for (let i = 0; i < 3; i += 1) {
      const answer = await call(f, LIST, poll, token);
      expect(answer.status).toBe(200);
      expect(answer.body.total_entries).toBe(2);
      states.push((answer.body.task_instances as { state: string }[]).map((t) => t.state));
    }
    expect(states).toEqual([
      ["queued", "queued"],
      ["running", "running"],
      ["success", "success"],
    ]);
    expect(f.taskInstance("orders", "transform", DAY2)).toMatchObject({ state: "success", tryNumber: 2 });
    expect(finished.map((t) => `${t.taskId}:${t.state}`).sort()).toEqual(["load:success", "transform:success"]);
    expect(f.dagRunState("orders", "scheduled__2024-01-02T00:00:00+00:00")).toBe("success");
    // A finished TI does not move again.
    await f.advance();
    expect(finished).toHaveLength(2);
    expect(f.violations).toEqual([]);
  });

  it("lets a cleared task instance fail through the outcome option (advance() without polling)", async () => {
    const f = await start({ advanceOnPoll: false, outcome: (ti) => (ti.taskId === "load" ? "failed" : "success") });
    const token = f.issueToken();
    await call(f, CLEAR, { dry_run: false, start_date: DAY2, end_date: DAY2 }, token);
    const polled = await call(f, LIST, { dag_ids: ["orders"], state: [null] }, token);
    expect(taskIds(polled)).toEqual(["load@2024-01-02", "transform@2024-01-02"]);
    for (let i = 0; i < 3; i += 1) await f.advance();
    expect(f.taskInstance("orders", "load", DAY2)?.state).toBe("failed");
    expect(f.taskInstance("orders", "transform", DAY2)?.state).toBe("success");
    expect(f.violations).toEqual([]);
  });

  it("adds the downstream task instances with include_downstream", async () => {
    const f = await start();
    const token = f.issueToken();
    const base = { dry_run: true, only_failed: false, task_ids: ["extract"], start_date: "2024-01-01T00:00:00Z", end_date: "2024-01-01T00:00:00Z" };
    expect(taskIds(await call(f, CLEAR, base, token))).toEqual(["extract@2024-01-01"]);
    expect(taskIds(await call(f, CLEAR, { ...base, include_downstream: true }, token))).toEqual([
      "extract@2024-01-01",
      "load@2024-01-01",
      "transform@2024-01-01",
    ]);
    expect(taskIds(await call(f, CLEAR, { ...base, task_ids: ["load"], include_upstream: true }, token))).toEqual([
      "extract@2024-01-01",
      "load@2024-01-01",
      "transform@2024-01-01",
    ]);
    expect(taskIds(await call(f, CLEAR, { ...base, task_ids: [["transform", -1]] }, token))).toEqual(["transform@2024-01-01"]);
    expect(f.violations).toEqual([]);
  });

  it("restricts a clear to dag_run_id, and answers 404 for an unknown run", async () => {
    const f = await start();
    const token = f.issueToken();
    const byRun = await call(f, CLEAR, { dry_run: true, only_failed: false, dag_run_id: "scheduled__2024-01-03T00:00:00+00:00" }, token);
    expect(taskIds(byRun)).toEqual(["extract@2024-01-03", "load@2024-01-03", "transform@2024-01-03"]);
    expect((await call(f, CLEAR, { dag_run_id: "manual__nope" }, token)).status).toBe(404);
    expect(f.violations).toEqual([]);
  });

  it(version === "3.0.0" ? "refuses run_on_latest_version (added in 3.1)" : "accepts run_on_latest_version and prevent_running_task", async () => {
    const f = await start();
    const answer = await call(f, CLEAR, { dry_run: true, run_on_latest_version: false }, f.issueToken());
    if (version === "3.0.0") {
      expect(answer.status).toBe(422);
      expect(answer.body.detail).toEqual([{ loc: ["body", "run_on_latest_version"], msg: "Extra inputs are not permitted", type: "extra_forbidden" }]);
      expect(f.violations).toEqual(["POST /api/v2/dags/orders/clearTaskInstances request body: must NOT have additional properties (run_on_latest_version)"]);
    } else {
      expect(answer.status).toBe(200);
      expect((await call(f, CLEAR, { dry_run: true, prevent_running_task: true }, f.issueToken())).status).toBe(200);
      expect(f.violations).toEqual([]);
    }
  });

  it('refuses dry_run: "yes" with a 422 and records the violation', async () => {
    const f = await start();
    const before = JSON.stringify(f.taskInstances());
    const answer = await call(f, CLEAR, { dry_run: "yes" }, f.issueToken());
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toEqual([{ loc: ["body", "dry_run"], msg: "Input should be a valid boolean, unable to interpret input", type: "bool_parsing" }]);
    expect(f.violations).toEqual(["POST /api/v2/dags/orders/clearTaskInstances request body /dry_run: must be boolean"]);
    expect(JSON.stringify(f.taskInstances())).toBe(before);
  });

  it("refuses an invalid task-instance poll body and a concrete dag id in the list path", async () => {
    const f = await start();
    const token = f.issueToken();
    expect((await call(f, LIST, { dag_ids: "orders" }, token)).status).toBe(422);
    expect((await call(f, LIST, { page_limit: -1 }, token)).status).toBe(422);
    const concrete = await call(f, "/api/v2/dags/orders/dagRuns/~/taskInstances/list", {}, token);
    expect(concrete.status).toBe(422);
    expect(f.violations).toHaveLength(3);
    expect(f.violations[2]).toContain("path parameter dag_id: must be equal to constant");
  });

  it("answers 404 for an unknown DAG", async () => {
    const f = await start();
    const answer = await call(f, "/api/v2/dags/nope/clearTaskInstances", { dry_run: true }, f.issueToken());
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: "DAG nope not found" });
    expect(f.violations).toEqual([]);
  });

  it("answers 404 and records a violation for an undocumented path", async () => {
    const f = await start();
    const answer = await call(f, "/api/v2/dags/orders/clear", {}, f.issueToken());
    expect(answer.status).toBe(404);
    expect(f.violations).toEqual(["POST /api/v2/dags/orders/clear: no operation of the document matches this path"]);
  });

  it("pages the poll with page_limit and page_offset, total_entries counting all matches", async () => {
    const f = await start();
    const token = f.issueToken();
    const page = await call(f, LIST, { dag_ids: ["orders"], page_limit: 2, page_offset: 8 }, token);
    expect(page.body.total_entries).toBe(9);
    expect(page.body.task_instances).toHaveLength(1);
    expect(f.violations).toEqual([]);
  });
});

describe("OpenApiContract", () => {
  const ti = {
    id: "0190a2b4-6f1e-7c3a-9d2e-4b5f6a7b8c9d",
    task_id: "load",
    dag_id: "orders",
    dag_run_id: "r",
    map_index: -1,
    run_after: "2024-01-01T00:00:00Z",
    try_number: 1,
    max_tries: 0,
    task_display_name: "load",
    dag_display_name: "orders",
    pool: "default_pool",
    pool_slots: 1,
    executor_config: "{}",
  };

  it.each(["3.0.0", "3.2.1"] as const)("turns nullable: true into a null alternative (%s)", (version) => {
    const contract = airflowContract(version);
    expect(contract.validateSchema("TaskInstanceResponse", { ...ti, end_date: null, state: null, dag_version: null })).toEqual([]);
    expect(contract.validateSchema("TaskInstanceResponse", { ...ti, end_date: "2024-01-01T00:01:00Z", state: "success" })).toEqual([]);
    expect(contract.validateSchema("TaskInstanceResponse", { ...ti, end_date: 5 })).toEqual(["TaskInstanceResponse /end_date: must be string,null"]);
    expect(contract.validateSchema("TaskInstanceResponse", { ...ti, state: "bogus" }).join("\n")).toContain(
      "/state: must be equal to one of the allowed values",
    );
    expect(contract.validateSchema("TaskInstanceResponse", { ...ti, end_date: "yesterday" })).toEqual([
      'TaskInstanceResponse /end_date: must match format "date-time"',
    ]);
  });

  it("requires the fields the release requires (dag_display_name from 3.2)", () => {
    const { dag_display_name: _dropped, ...without } = ti;
    void _dropped;
    expect(airflowContract("3.0.0").validateSchema("TaskInstanceResponse", without)).toEqual([]);
    expect(airflowContract("3.2.1").validateSchema("TaskInstanceResponse", without)).toEqual([
      "TaskInstanceResponse: must have required property 'dag_display_name'",
    ]);
  });

  it("matches literal segments before templated ones, and checks documented statuses", () => {
    const ok = {
      "200": {
        description: "ok",
        content: { "application/json": { schema: { type: "object", required: ["a"], properties: { a: { type: "string", nullable: true } } } } },
      },
    };
    const doc: OpenApiDocument = {
      openapi: "3.1.0",
      paths: {
        "/x/{id}": { get: { operationId: "byId", parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }], responses: ok } },
        "/x/latest": { get: { operationId: "latest", responses: ok } },
      },
    };
    const contract = new OpenApiContract(doc, "tiny");
    expect(contract.match("GET", "/x/latest").match?.operation.operationId).toBe("latest");
    expect(contract.match("GET", "/x/7").match?.pathParams).toEqual({ id: "7" });
    expect(contract.validateRequest({ method: "GET", path: "/x/7" }).violations).toEqual([]);
    expect(contract.validateRequest({ method: "GET", path: "/x/seven" }).violations).toEqual(["GET /x/seven path parameter id: must be integer"]);
    expect(contract.validateRequest({ method: "POST", path: "/x/7" }).methodNotAllowed).toBe(true);
    expect(contract.validateResponse({ method: "GET", path: "/x/7", status: 200, body: { a: null } })).toEqual([]);
    expect(contract.validateResponse({ method: "GET", path: "/x/7", status: 200, body: { a: 1 } })).toEqual([
      "GET /x/7 response 200 body /a: must be string,null",
    ]);
    expect(contract.validateResponse({ method: "GET", path: "/x/7", status: 404, body: {} })).toEqual([
      "GET /x/7 response 404: status not documented for this operation (documented: 200)",
    ]);
  });

  it("validates the auth manager's LoginBody", () => {
    const contract = airflowContract("simple-auth-manager");
    expect(
      contract.validateRequest({ method: "POST", path: "/auth/token", body: { username: "a", password: "b" }, contentType: "application/json" }).violations,
    ).toEqual([]);
    expect(contract.validateRequest({ method: "POST", path: "/auth/token", body: { username: "a" }, contentType: "application/json" }).violations).toEqual([
      "POST /auth/token request body: must have required property 'password'",
    ]);
  });
});
