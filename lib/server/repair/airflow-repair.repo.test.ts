import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as connectionRoute from "@/app/api/v1/pipelines/[id]/orchestrator/route";
import * as progressStreamRoute from "@/app/api/v1/incidents/[id]/progress/stream/route";
import type { Actor } from "../auth/roles";
import { verifyAuditChain } from "../audit/verify-audit-chain";
import { getIncident } from "../incidents/get-incident";
import { errorResponse } from "../http/route";
import { startFakeAirflow, type FakeAirflow } from "@/test/peers/fake-airflow";
import { getPipelineConnection, setPipelineConnection } from "../pipelines/orchestrator-connections";
import { readSecret } from "../orchestrators/secrets";
import { type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { cancelRepair } from "./cancel-repair";
import { previewDispatch, previewPlanDispatch } from "./dry-run";
import { getProgress } from "./get-progress";
import { launchRepair } from "./launch-repair";
import { OPERATOR, plannedIncident } from "./testing/journey-steps";

const ADMIN: Actor = { id: "ada", role: "admin", source: "cli", namespaces: [] };
const VIEWER: Actor = { id: "vic", role: "viewer", source: "anonymous", namespaces: [] };
const days = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `2026-08-${String(from + i).padStart(2, "0")}T00:00:00.000Z`);
const ORDERS_TASKS = ["land_raw_orders", "snapshot_customers", "stg_orders", "fct_orders", "revenue_daily", "running_balance", "refresh_executive_dashboard"];

/**
 * The demo incident repaired through the Airflow adapter, against a fake Airflow whose every
 * request and answer is checked against Airflow's published REST API v2 documents (3.0 and
 * 3.2) and its auth manager's: the plan's dry run compared with the plan, then the real clears
 * wave by wave, each only once the previous wave's task instances succeeded.
 */
describe.each(["3.0.0", "3.2.1"] as const)("a repair run in Airflow %s", (version) => {
  let t: TestDatabase;
  let airflow: FakeAirflow;
  let id = "";
  const saved = process.env.DATABASE_URL;
  beforeAll(async () => {
    t = await createDemoTestDatabase("sqlite");
    process.env.DATABASE_URL = t.target.url;
    airflow = await startFakeAirflow({
      version,
      users: { reparo: "s3cret-airflow-password" },
      // stg_orders 2026-08-23 fails again when re-run: what reads it must wait, the rest go on.
      outcome: (ti) => (ti.taskId === "stg_orders" && ti.logicalDate.startsWith("2026-08-23") ? "failed" : "success"),
      dags: {
        // A manual run on 2026-08-20 at noon: Airflow's clear of the range would re-run it too.
        orders: {
          tasks: ORDERS_TASKS.map((taskId) => ({ taskId })),
          runs: [...days(1, 25).map((logicalDate) => ({ logicalDate })), { logicalDate: "2026-08-20T12:00:00.000Z", runId: "manual__2026-08-20T12:00:00" }],
        },
        // The ml DAG has no run for 2026-08-23: that planned pair is one Airflow would not run.
        ml: {
          tasks: [{ taskId: "build_order_features" }],
          runs: days(1, 25)
            .filter((d) => !d.startsWith("2026-08-23"))
            .map((logicalDate) => ({ logicalDate })),
        },
      },
    });
    process.env.REPARO_SECRET_TEST_AIRFLOW_PASSWORD = "s3cret-airflow-password";
    id = await plannedIncident(t.db);
  }, 180_000);
  afterAll(async () => {
    process.env.DATABASE_URL = saved;
    delete process.env.REPARO_SECRET_TEST_AIRFLOW_PASSWORD;
    await airflow?.close();
    await t?.drop();
  });

  it("an admin points the orders and ml pipelines at Airflow; the password is named, never stored", async () => {
    for (const pipeline of ["orders", "ml"]) {
      const view = await setPipelineConnection(
        pipeline,
        {
          connection: { kind: "airflow", baseUrl: airflow.url, username: "reparo", credentials: { env: "REPARO_SECRET_TEST_AIRFLOW_PASSWORD" }, tasks: {} },
          reason: "repairs of this pipeline run in our Airflow",
        },
        ADMIN,
        new Date(),
        t.db,
      );
      expect(view).toMatchObject({
        pipeline,
        connection: { kind: "airflow" },
        secret: { name: "env:REPARO_SECRET_TEST_AIRFLOW_PASSWORD", readable: true },
        updatedBy: "ada",
      });
    }
    const stored = await t.db.orchestratorConnection.findMany();
    expect(JSON.stringify(stored)).not.toContain("s3cret");
  });

  it("the connection route: admins only, and a bad connection is a 400 naming the field", async () => {
    const put = (body: unknown, user: string) =>
      connectionRoute.PUT(
        new Request("http://console.test/x", {
          method: "PUT",
          body: JSON.stringify(body),
          headers: { host: "console.test", "content-type": "application/json", "x-reparo-user": user },
        }),
        { params: Promise.resolve({ id: "orders" }) },
      );
    await t.db.user.upsert({ where: { id: "ada" }, create: { id: "ada", displayName: "Ada (admin)", role: "admin" }, update: {} });
    const good = { connection: { kind: "airflow", baseUrl: airflow.url, credentials: { env: "REPARO_SECRET_TEST_AIRFLOW_PASSWORD" } }, reason: "try it" };
    expect((await put(good, "demo-commander")).status).toBe(403);
    const bad = await put({ connection: { kind: "airflow", baseUrl: "ftp://x", credentials: { env: "has space" } }, reason: "try it" }, "ada");
    expect(bad.status).toBe(400);
    const paths = (await bad.json()).details.issues.map((i: { path: string }) => i.path);
    expect(paths).toContain("body.connection.baseUrl");
    expect(paths.some((p: string) => p.startsWith("body.connection.credentials"))).toBe(true);
    // A password in the URL would be stored, shown and audited: refused, naming the field.
    const inUrl = await put(
      {
        connection: { kind: "airflow", baseUrl: "https://reparo:s3cret@airflow.example.com", credentials: { env: "REPARO_SECRET_TEST_AIRFLOW_PASSWORD" } },
        reason: "try it",
      },
      "ada",
    );
    expect(inUrl.status).toBe(400);
    expect(JSON.stringify(await inUrl.json())).toContain("body.connection.baseUrl");
    // Not a URL at all: once a 500 (the refinements parsed it again), now 400 naming the field.
    const notUrl = await put(
      { connection: { kind: "airflow", baseUrl: "not a url", credentials: { env: "REPARO_SECRET_TEST_AIRFLOW_PASSWORD" } }, reason: "try it" },
      "ada",
    );
    expect(notUrl.status).toBe(400);
    expect((await notUrl.json()).details.issues.map((i: { path: string }) => i.path)).toEqual(["body.connection.baseUrl"]);
    // The console's own secrets are not a connection's: naming one is refused before anything is stored or sent.
    for (const [credentials, field] of [
      [{ env: "REPARO_AUDIT_KEY" }, "body.connection.credentials.env"],
      [{ env: "DATABASE_URL" }, "body.connection.credentials.env"],
      [{ env: "REPARO_SESSION_SECRET" }, "body.connection.credentials.env"],
      [{ file: "/etc/passwd" }, "body.connection.credentials.file"],
      [{ file: "/run/secrets/../../etc/passwd" }, "body.connection.credentials.file"],
    ] as const) {
      const refused = await put({ connection: { kind: "airflow", baseUrl: airflow.url, credentials }, reason: "try it" }, "ada");
      expect(refused.status, JSON.stringify(credentials)).toBe(400);
      expect((await refused.json()).details.issues.map((i: { path: string }) => i.path)).toEqual([field]);
    }
    expect(await t.db.auditEntry.count({ where: { kind: "pipeline.orchestrator_set" } })).toBe(2); // only the two good PUTs above
  });

  it("a stored connection naming a secret outside the allow-list is never read, and only admins see its URL's path and whether its secret is readable", async () => {
    await expect(readSecret({ env: "REPARO_AUDIT_KEY" })).rejects.toThrow(/the secret env:REPARO_AUDIT_KEY is refused/);
    await expect(readSecret({ file: "/etc/hostname" })).rejects.toThrow(/is refused: a connection may name only files under \/run\/secrets/);
    const asViewer = await getPipelineConnection("orders", VIEWER, t.db);
    expect(asViewer.secret).toEqual({ name: "env:REPARO_SECRET_TEST_AIRFLOW_PASSWORD", readable: null });
    expect((asViewer.connection as { baseUrl: string }).baseUrl).toBe(new URL(airflow.url).origin);
    const asAdmin = await getPipelineConnection("orders", ADMIN, t.db);
    expect(asAdmin.secret).toEqual({ name: "env:REPARO_SECRET_TEST_AIRFLOW_PASSWORD", readable: true });
  });

  it("the dry run: Airflow's own answer compared with the plan — the manual run beyond it, the ml day it lacks", async () => {
    const preview = await previewDispatch(id, { resume: false }, OPERATOR, new Date(), t.db);
    expect(preview.unsupported).toEqual([]);
    expect(preview.requests.every((r) => (r.body as { dry_run: boolean }).dry_run === false)).toBe(true);
    expect(preview.requests.map((r) => [r.wave, r.path, (r.body as { task_ids: string[] }).task_ids.join(",")])).toEqual(
      expect.arrayContaining([
        [0, "/api/v2/dags/orders/clearTaskInstances", "stg_orders"],
        [2, "/api/v2/dags/ml/clearTaskInstances", "build_order_features"],
      ]),
    );
    expect(preview.extra).toEqual([
      expect.objectContaining({
        taskNodeId: "job:orders:running_balance",
        unitKey: null,
        sideEffect: false,
        label: expect.stringContaining("orders.running_balance @ 2026-08-20T12:00"),
      }),
    ]);
    expect(preview.missing).toEqual([{ taskNodeId: "job:ml:build_order_features", name: "build_order_features", unitKey: "2026-08-23" }]);
    expect(preview.calls.length).toBeGreaterThan(0);
    expect(preview.calls.every((c) => c.status === 200 || c.status === 201)).toBe(true);
    expect(airflow.requests.filter((r) => r.path.endsWith("/clearTaskInstances")).every((r) => (r.requestBody as { dry_run: boolean }).dry_run)).toBe(true);
    expect(airflow.violations).toEqual([]);
    // The Plan step's dry run of the same plan, before confirming, is the same review: its digest is the one the launch checks.
    const atPlanStep = await previewPlanDispatch(id, { strategy: "targeted_with_closure", replay: [], parameterOverrides: {} }, OPERATOR, new Date(), t.db);
    expect(atPlanStep.digest).toBe(preview.digest);
    expect(atPlanStep.extra).toEqual(preview.extra);
  });

  it("a launch without the reviewed dry run, or with a stale one, is refused", async () => {
    await expect(launchRepair(id, { resume: false, concurrency: 4 }, OPERATOR, new Date(), t.db)).rejects.toMatchObject({ problem: "invalid" });
    await expect(launchRepair(id, { resume: false, concurrency: 4, preview: "0".repeat(32) }, OPERATOR, new Date(), t.db)).rejects.toMatchObject({
      problem: "conflict",
    });
    expect(await t.db.run.count({ where: { kind: "repair" } })).toBe(0);
  });

  it("dispatch: clears wave by wave, each after the previous wave's task instances ran; what reads a failure is held back, the rest goes on", async () => {
    const { digest } = await previewDispatch(id, { resume: false }, OPERATOR, new Date(), t.db);
    const launched = await launchRepair(id, { resume: false, concurrency: 4, preview: digest, run: { pollMs: 0 } }, OPERATOR, new Date(), t.db);
    expect(await launched.execution).toBe("partial");
    const clears = airflow.requests.filter((r) => r.path.endsWith("/clearTaskInstances") && !(r.requestBody as { dry_run: boolean }).dry_run);
    const cleared = clears.map((r) => {
      const b = r.requestBody as { task_ids: string[]; start_date: string; end_date: string };
      return `${r.path.split("/")[4]}:${b.task_ids.join("+")} ${b.start_date.slice(5, 10)}..${b.end_date.slice(5, 10)}`;
    });
    // One clear per DAG, wave and range of consecutive days. stg_orders 08-23 failed, so nothing
    // that reads it was cleared: fct_orders, revenue_daily, the features and the dashboard of
    // 08-23, and running_balance from 08-23 on (it reads its own previous day).
    expect(cleared.slice(0, 2)).toEqual(["orders:stg_orders 08-17..08-17", "orders:stg_orders 08-23..08-23"]);
    expect(cleared[2]).toBe("orders:fct_orders 08-17..08-17");
    expect(cleared.slice(3, 6).sort()).toEqual([
      "ml:build_order_features 08-17..08-17",
      "orders:revenue_daily 08-17..08-17",
      "orders:running_balance 08-17..08-22",
    ]);
    expect(cleared.slice(6)).toEqual(["orders:refresh_executive_dashboard 08-17..08-17"]);
    // A wave's task instances were cleared only after every instance of the wave before had finished.
    const ti = (task: string, day: string) => airflow.taskInstance(task === "build_order_features" ? "ml" : "orders", task, `2026-08-${day}T00:00:00.000Z`)!;
    expect(Date.parse(ti("fct_orders", "17").clearedAt!)).toBeGreaterThanOrEqual(Date.parse(ti("stg_orders", "23").endDate!));
    expect(Date.parse(ti("revenue_daily", "17").clearedAt!)).toBeGreaterThanOrEqual(Date.parse(ti("fct_orders", "17").endDate!));
    expect(ti("fct_orders", "23").clearedAt).toBeNull();
    expect(ti("stg_orders", "17")).toMatchObject({ state: "success", tryNumber: 2 });
    expect(ti("stg_orders", "23")).toMatchObject({ state: "failed" });
    const progress = await getProgress(id, t.db);
    expect(progress).toMatchObject({ total: 19, succeeded: 11, failed: 8, run: { status: "partial" } });
    const pair = (name: string, unit: string) => progress.pairs.find((p) => p.name === name && p.unitKey === unit)!;
    expect(pair("stg_orders", "2026-08-23")).toMatchObject({ status: "failed", error: expect.stringContaining("failed") });
    expect(pair("running_balance", "2026-08-24")).toMatchObject({ status: "failed", error: "not dispatched: it reads a pair of this repair that failed" });
    expect(pair("running_balance", "2026-08-22")).toMatchObject({ status: "succeeded" });
    expect(pair("stg_orders", "2026-08-17").error).toContain("orders · scheduled__2026-08-17");
    expect((await getIncident(id, t.db)).status).toBe("validating");
    expect(await t.db.repairClaim.count()).toBe(0);
    expect(airflow.violations).toEqual([]);
  });

  it("every request and answer is in the audit log — status and ids, never the password or a token", async () => {
    const timeline = (await getIncident(id, t.db)).timeline;
    const kinds = timeline.map((e) => e.kind);
    expect(kinds.filter((k) => k === "repair.dispatched").length).toBeGreaterThanOrEqual(4);
    expect(kinds).toContain("repair.previewed");
    expect(kinds).toContain("repair.progress");
    expect(kinds.at(-1)).toBe("repair.finished");
    const dispatched = timeline.filter((e) => e.kind === "repair.dispatched");
    expect(dispatched[0]!.after).toMatchObject({
      wave: 0,
      orchestrator: "airflow",
      calls: expect.arrayContaining([expect.objectContaining({ method: "POST", url: `${airflow.url}/api/v2/dags/orders/clearTaskInstances`, status: 200 })]),
    });
    // Each request Airflow received (sign-ins aside) is one call on the record: the launch's own
    // dry run and the polls that changed nothing included.
    const audited = (await t.db.auditEntry.findMany()).flatMap(
      (e) => (JSON.parse(e.after ?? "null") as { calls?: { method: string; url: string }[] } | null)?.calls ?? [],
    );
    const received = airflow.requests.filter((r) => !r.path.startsWith("/auth/"));
    const apiCalls = audited.map((c) => `${c.method} ${new URL(c.url).pathname}`).filter((c) => !c.includes(" /auth/"));
    expect(apiCalls.sort()).toEqual(received.map((r) => `${r.method} ${r.path}`).sort());
    const text = JSON.stringify(await t.db.auditEntry.findMany());
    expect(text).not.toContain("s3cret");
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/); // no JWT
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true });
  });

  it("progress streams as server-sent events: the run's state, then `end` once it ended", async () => {
    const res = await progressStreamRoute.GET(new Request("http://console.test/x", { headers: { host: "console.test", "x-reparo-user": "demo-viewer" } }), {
      params: Promise.resolve({ id }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    const events = [...text.matchAll(/^event: (\w+)\ndata: (.*)$/gm)].map((m) => [m[1], m[2]]);
    expect(events.map(([e]) => e)).toEqual(["progress", "end"]);
    expect(JSON.parse(events[0]![1]!)).toMatchObject({ total: 19, succeeded: 11, run: { status: "partial" } });
  });
});

/**
 * A wave spanning two Airflows, one of them down when the wave goes out: the pipeline that was
 * sent is not sent again, the other is sent once its Airflow answers, and nothing is lost.
 */
describe("a wave whose second orchestrator is down when it is sent", () => {
  let t: TestDatabase;
  let ordersAirflow: FakeAirflow;
  let mlAirflow: FakeAirflow;
  let gate: http.Server;
  let mlUp = false;
  let id = "";
  beforeAll(async () => {
    t = await createDemoTestDatabase("sqlite");
    ordersAirflow = await startFakeAirflow({
      version: "3.2.1",
      users: { reparo: "pw" },
      dags: { orders: { tasks: ORDERS_TASKS.map((taskId) => ({ taskId })), runs: days(1, 25).map((logicalDate) => ({ logicalDate })) } },
    });
    mlAirflow = await startFakeAirflow({
      version: "3.2.1",
      users: { reparo: "pw" },
      dags: { ml: { tasks: [{ taskId: "build_order_features" }], runs: days(1, 25).map((logicalDate) => ({ logicalDate })) } },
    });
    // ml's Airflow behind a gate: connections are dropped until it is "up".
    const target = new URL(mlAirflow.url);
    gate = http.createServer((req, res) => {
      if (!mlUp) return req.socket.destroy();
      const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((r) => gate.listen(0, "127.0.0.1", r));
    process.env.REPARO_SECRET_TEST_AIRFLOW_PW = "pw";
    const port = (gate.address() as AddressInfo).port;
    for (const [pipeline, baseUrl] of [
      ["orders", ordersAirflow.url],
      ["ml", `http://127.0.0.1:${port}`],
    ] as const) {
      await setPipelineConnection(
        pipeline,
        {
          connection: { kind: "airflow", baseUrl, username: "reparo", credentials: { env: "REPARO_SECRET_TEST_AIRFLOW_PW" }, tasks: {} },
          reason: "two Airflows",
        },
        ADMIN,
        new Date(),
        t.db,
      );
    }
    id = await plannedIncident(t.db);
  }, 180_000);
  afterAll(async () => {
    delete process.env.REPARO_SECRET_TEST_AIRFLOW_PW;
    await new Promise((r) => gate?.close(r));
    await ordersAirflow?.close();
    await mlAirflow?.close();
    await t?.drop();
  });

  it("sends orders' share of wave 3 once, ml's once ml answers, and finishes", async () => {
    mlUp = true; // the dry run (and the launch's fresh one) needs both
    const { digest } = await previewDispatch(id, { resume: false }, OPERATOR, new Date(), t.db);
    const launched = await launchRepair(id, { resume: false, concurrency: 4, preview: digest, run: { pollMs: 200 } }, OPERATOR, new Date(), t.db);
    mlUp = false; // ml's Airflow goes down before wave 3, the first with ml's pairs
    const clearsOf = (a: FakeAirflow, task: string) =>
      a.requests.filter(
        (r) =>
          r.path.endsWith("/clearTaskInstances") &&
          !(r.requestBody as { dry_run: boolean }).dry_run &&
          (r.requestBody as { task_ids: string[] }).task_ids.includes(task),
      ).length;
    // Wait until ml's share of wave 3 could not be sent.
    for (let i = 0; i < 400 && (await t.db.auditEntry.count({ where: { kind: "repair.dispatch_failed" } })) === 0; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(clearsOf(ordersAirflow, "revenue_daily")).toBe(2);
    const run = (await t.db.run.findFirst({ where: { incidentId: id, kind: "repair" } }))!;
    const handles = JSON.parse(run.parameters).dispatch.handles as Record<string, { wave: number }>;
    expect(Object.values(handles).map((h) => h.wave)).toEqual([2]); // only orders is recorded as sent for wave 3
    // The Execute step reads why the run waits: the peer by its address, the cause in words, the next try.
    let waiting = await getProgress(id, t.db);
    for (let i = 0; i < 400 && !waiting.run?.fault; i++) {
      await new Promise((r) => setTimeout(r, 25));
      waiting = await getProgress(id, t.db);
    }
    expect(waiting.run?.fault).toMatchObject({
      message: expect.stringMatching(/^Airflow at http:\/\/127\.0\.0\.1:\d+ is not reachable: /),
      attempt: 1,
      of: 10,
      retryInSeconds: 6,
    });
    expect(waiting.pairs.filter((p) => p.name === "build_order_features").map((p) => p.status)).toEqual(["pending", "pending"]);
    mlUp = true;
    expect(await launched.execution).toBe("succeeded");
    expect((await getProgress(id, t.db)).run?.fault).toBeNull();
    expect(clearsOf(ordersAirflow, "revenue_daily")).toBe(2); // 08-17 and 08-23, sent once each
    expect(clearsOf(mlAirflow, "build_order_features")).toBe(2);
    const kinds = (await getIncident(id, t.db)).timeline.map((e) => e.kind);
    expect(kinds).toContain("repair.dispatch_failed");
    expect(ordersAirflow.violations).toEqual([]);
    expect(mlAirflow.violations).toEqual([]);
  });
});

/**
 * The operator cancels a repair while its first wave runs in Airflow: the wave's task instances
 * still queued or running are marked failed there (PATCH, the published contract), the run ends
 * `cancelled`, its claims are released, nothing more is cleared, and the log says who and why.
 */
describe("cancelling a dispatched repair from the console", () => {
  let t: TestDatabase;
  let airflow: FakeAirflow;
  let id = "";
  beforeAll(async () => {
    t = await createDemoTestDatabase("sqlite");
    // Cleared task instances stay queued: the first wave never finishes by itself.
    airflow = await startFakeAirflow({
      version: "3.2.1",
      users: { reparo: "pw" },
      advanceOnPoll: false,
      dags: {
        orders: { tasks: ORDERS_TASKS.map((taskId) => ({ taskId })), runs: days(1, 25).map((logicalDate) => ({ logicalDate })) },
        ml: { tasks: [{ taskId: "build_order_features" }], runs: days(1, 25).map((logicalDate) => ({ logicalDate })) },
      },
    });
    process.env.REPARO_SECRET_TEST_AIRFLOW_PW = "pw";
    for (const pipeline of ["orders", "ml"]) {
      await setPipelineConnection(
        pipeline,
        {
          connection: { kind: "airflow", baseUrl: airflow.url, username: "reparo", credentials: { env: "REPARO_SECRET_TEST_AIRFLOW_PW" }, tasks: {} },
          reason: "our Airflow",
        },
        ADMIN,
        new Date(),
        t.db,
      );
    }
    id = await plannedIncident(t.db);
  }, 180_000);
  afterAll(async () => {
    delete process.env.REPARO_SECRET_TEST_AIRFLOW_PW;
    await airflow?.close();
    await t?.drop();
  });

  it("stops the wave in flight in Airflow, ends the run cancelled and lets the units go", async () => {
    const { digest } = await previewDispatch(id, { resume: false }, OPERATOR, new Date(), t.db);
    const launched = await launchRepair(id, { resume: false, concurrency: 4, preview: digest, run: { pollMs: 100 } }, OPERATOR, new Date(), t.db);
    for (let i = 0; i < 400 && (await t.db.auditEntry.count({ where: { kind: "repair.dispatched" } })) === 0; i++) await new Promise((r) => setTimeout(r, 25));
    const answer = await cancelRepair(id, { reason: "wrong plan: the source snapshot is not retained" }, OPERATOR, t.db).catch((e: unknown) => e);
    expect(answer).toMatchObject({ ok: true, status: "cancelled", unconfirmed: [] });
    // Whether this request or the live slice sent them, the answer lists the stop requests sent
    // (the PATCHes marking the task instances failed, each after Airflow's token request).
    const stopRequests = (answer as { stopRequests: { method: string; status: number }[] }).stopRequests;
    expect(stopRequests.filter((c) => c.method !== "POST").map((c) => [c.method, c.status])).toEqual([
      ["PATCH", 200],
      ["PATCH", 200],
    ]);
    const clears = () => airflow.requests.filter((r) => r.path.endsWith("/clearTaskInstances") && !(r.requestBody as { dry_run: boolean }).dry_run).length;
    const before = clears();
    const patches = airflow.requests.filter((r) => r.method === "PATCH");
    expect(patches.map((r) => [r.path, r.status, (r.requestBody as { new_state: string }).new_state])).toEqual([
      ["/api/v2/dags/orders/dagRuns/scheduled__2026-08-17T00%3A00%3A00%2B00%3A00/taskInstances/stg_orders", 200, "failed"],
      ["/api/v2/dags/orders/dagRuns/scheduled__2026-08-23T00%3A00%3A00%2B00%3A00/taskInstances/stg_orders", 200, "failed"],
    ]);
    // The run's end is the point past which nothing more is sent: none was, from the cancel to there.
    expect(await launched.execution).toBe("cancelled");
    expect(clears()).toBe(before); // wave 2 was never sent
    expect(await t.db.repairClaim.count()).toBe(0);
    const incident = await getIncident(id, t.db);
    expect(incident.status).toBe("validating");
    const cancelSent = incident.timeline.find((e) => e.kind === "repair.cancel_sent")!;
    expect(cancelSent).toMatchObject({ actor: OPERATOR.id, reason: expect.stringContaining("wrong plan") });
    expect(incident.timeline.at(-1)).toMatchObject({
      kind: "repair.finished",
      actor: OPERATOR.id,
      reason: expect.stringContaining("cancelled by demo-operator"),
      before: { incidentStatus: "repairing" },
      after: { runStatus: "cancelled", incidentStatus: "validating" },
    });
    // The incident is validating now: the lifecycle refuses the cancel, and the API answers 409.
    const again = await cancelRepair(id, { reason: "again" }, OPERATOR, t.db).catch((e: unknown) => e);
    expect(again).toMatchObject({ incidentStatus: "validating", action: "cancel_repair" });
    expect(errorResponse(again).status).toBe(409);
    expect(airflow.violations).toEqual([]);
  });
});
