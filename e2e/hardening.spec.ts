import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "./fixtures";
import { sealedSession, SSO_URL } from "./sso/sso-console";

/**
 * Issue 30's bars, on a fresh production-mode console (the single sign-on console of
 * playwright.config.ts, SQLite): nothing accepted is cut, an outside lock degrades writes to
 * honest 503s and recovers by itself, no role, namespace or connection reaches past its grant.
 */
const ROOT = path.resolve(__dirname, "..");
const DB_FILE = path.join(ROOT, "data/e2e-sso.db");
const cli = (script: string, args: string[]) =>
  execFileSync("npx", ["tsx", `scripts/${script}.ts`, ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: `file:${DB_FILE}` }, encoding: "utf8" });

let token = "";
let adminCookie = "";
let olgaCookie = "";

test.beforeAll(async () => {
  const suffix = Date.now().toString(36);
  token = cli("tokens", ["create", `hardening-${suffix}`, "--scope", "ingest", "--reason", "the hardening spec"])
    .trim()
    .split("\n")
    .at(-1)!;
  cli("users", ["add", `harden-admin-${suffix}`, "--role", "admin", "--reason", "the hardening spec"]);
  cli("users", ["add", `olga-${suffix}`, "--role", "operator", "--namespaces", "orders", "--reason", "an orders operator"]);
  const in1h = new Date(Date.now() + 3_600_000);
  adminCookie = `reparo_session=${await sealedSession(`harden-admin-${suffix}`, in1h)}`;
  olgaCookie = `reparo_session=${await sealedSession(`olga-${suffix}`, in1h)}`;
});

const bearer = () => ({ authorization: `Bearer ${token}` });

function event(i: number, job: string, output: string, padding = "") {
  return {
    eventType: "COMPLETE",
    eventTime: new Date(Date.UTC(2026, 7, 1, 2) + i * 1000).toISOString(),
    producer: "https://example.com/hardening",
    schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
    run: {
      runId: `0190a8f3-1c2d-7e4f-8a9b-${i.toString(16).padStart(12, "0")}`,
      ...(padding
        ? { facets: { padding: { _producer: "https://example.com/hardening", _schemaURL: "https://example.com/padding.json", text: padding } } }
        : {}),
    },
    job: { namespace: "orders", name: job },
    inputs: [],
    outputs: [{ namespace: "warehouse", name: output }],
  };
}

const storedEvents = () => {
  const db = new Database(DB_FILE, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM "IngestedEvent"`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

test("a 12 MB NDJSON batch is stored whole; a 17 MiB one is refused whole with 413 naming the limit", async ({ request }) => {
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < 12_000_000; i++) {
    const line = JSON.stringify(event(0x100000 + i, "bulk_load", "bulk_orders", "x".repeat(2_000)));
    lines.push(line);
    bytes += line.length + 1;
  }
  const before = storedEvents();
  const res = await request.post(`${SSO_URL}/api/v1/lineage`, {
    data: lines.join("\n"),
    headers: { ...bearer(), "content-type": "application/x-ndjson" },
    timeout: 120_000,
  });
  const body = await res.json();
  expect(res.status(), JSON.stringify(body).slice(0, 300)).toBe(200);
  expect(body.received).toBe(lines.length);
  expect(body.rejected).toEqual([]);
  expect(storedEvents() - before).toBe(lines.length);

  const tooBig = "x".repeat(17 * 1024 * 1024);
  const refused = await request.post(`${SSO_URL}/api/v1/lineage`, { data: tooBig, headers: { ...bearer(), "content-type": "application/x-ndjson" } });
  expect(refused.status()).toBe(413);
  expect((await refused.json()).message).toMatch(/^body: larger than this route's limit of 16 MiB/);
  expect(storedEvents() - before).toBe(lines.length);
});

test("an orders operator cannot reach meters through her own orders incident", async ({ request }) => {
  const jobs: [string, string, string][] = [
    ["orders", "load", "orders_raw"],
    ["meters", "land", "meter_readings"],
  ];
  for (const [i, [ns, job, output]] of jobs.entries()) {
    const res = await request.post(`${SSO_URL}/api/v1/lineage`, {
      data: { ...event(0x200000 + i, job, output), job: { namespace: ns, name: job } },
      headers: bearer(),
    });
    expect(res.status()).toBe(200);
  }
  const opened = await request.post(`${SSO_URL}/api/v1/incidents`, {
    data: { taskNodeId: "job:orders:load", units: ["*"], reason: "orders load is wrong" },
    headers: { cookie: olgaCookie, origin: SSO_URL },
  });
  expect(opened.status(), await opened.text()).toBe(201);
  const { id } = await opened.json();
  const meters = await request.post(`${SSO_URL}/api/v1/incidents/${id}/declare-replace`, {
    data: { taskNodeId: "job:meters:land", reason: "meters land replaces" },
    headers: { cookie: olgaCookie, origin: SSO_URL },
  });
  expect(meters.status()).toBe(403);
  expect((await meters.json()).message).toContain("holds in orders only; this concerns meters");
});

test("connections: the console's own secrets are refused, a non-URL is a 400, a non-admin sees scheme and host only", async ({ request }) => {
  // A run of the orders_dag pipeline (its parent run facet names the DAG).
  const parent = {
    _producer: "https://example.com/hardening",
    _schemaURL: "https://openlineage.io/spec/facets/1-1-0/ParentRunFacet.json#/$defs/ParentRunFacet",
    run: { runId: "0190a8f3-1c2d-7e4f-8a9b-0000000a0001" },
    job: { namespace: "orders", name: "orders_dag" },
  };
  const child = event(0x600000, "orders_dag.extract", "orders_extract");
  const sent = await request.post(`${SSO_URL}/api/v1/lineage`, { data: { ...child, run: { ...child.run, facets: { parent } } }, headers: bearer() });
  expect(sent.status()).toBe(200);
  const pipelines: { pipelineId: string; pipeline: string }[] = (await (await request.get(`${SSO_URL}/api/v1/pipelines`)).json()).pipelines;
  const dag = pipelines.find((p) => p.pipeline === "orders_dag");
  expect(dag, JSON.stringify(pipelines)).toBeDefined();
  const put = (connection: unknown) =>
    request.put(`${SSO_URL}/api/v1/pipelines/${dag!.pipelineId}/orchestrator`, {
      data: { connection, reason: "hardening" },
      headers: { cookie: adminCookie, origin: SSO_URL },
    });
  const audit = await put({ kind: "airflow", baseUrl: "https://airflow.example.com/x", credentials: { env: "REPARO_AUDIT_KEY" } });
  expect(audit.status()).toBe(400);
  expect((await audit.json()).message).toMatch(
    /^body\.connection\.credentials\.env: a connection may name only environment variables whose name starts with REPARO_SECRET_/,
  );
  const notUrl = await put({ kind: "airflow", baseUrl: "not a url", credentials: { env: "REPARO_SECRET_AIRFLOW" } });
  expect(notUrl.status()).toBe(400);
  expect((await notUrl.json()).message).toMatch(/^body\.connection\.baseUrl: /);
  const good = await put({ kind: "airflow", baseUrl: "https://airflow.example.com/team/x", credentials: { env: "REPARO_SECRET_AIRFLOW" } });
  expect(good.status(), await good.text()).toBe(200);
  const seen = await (await request.get(`${SSO_URL}/api/v1/pipelines/${dag!.pipelineId}/orchestrator`)).json();
  expect(seen.connection.baseUrl).toBe("https://airflow.example.com");
  expect(seen.secret).toEqual({ name: "env:REPARO_SECRET_AIRFLOW", readable: null });
});

test("bad bodies: a dbt adapter_type of __proto__, a form's content type, invalid UTF-8 — each a 4xx naming the field", async ({ request }) => {
  const manifest = { metadata: { dbt_schema_version: "https://schemas.getdbt.com/dbt/manifest/v12.json", adapter_type: "__proto__" }, nodes: {} };
  const dbt = await request.post(`${SSO_URL}/api/v1/import/dbt`, { data: { manifest }, headers: bearer() });
  expect(dbt.status()).toBe(400);
  expect((await dbt.json()).message).toMatch(/^body\.manifest\.metadata\.adapter_type: /);
  const form = await request.post(`${SSO_URL}/api/v1/lineage`, { data: "a=1", headers: { ...bearer(), "content-type": "application/x-www-form-urlencoded" } });
  expect(form.status()).toBe(415);
  const bytes = Buffer.from(JSON.stringify(event(0x300000, "load_XX", "orders_raw")));
  bytes[bytes.indexOf("XX")] = 0xff;
  const latin = await request.post(`${SSO_URL}/api/v1/lineage`, { data: bytes, headers: { ...bearer(), "content-type": "application/json" } });
  expect(latin.status()).toBe(400);
  expect((await latin.json()).message).toMatch(/^body: is not valid UTF-8/);
});

test("the webhook's secret path and whether a secret file exists are not shown to anyone but admins", async ({ request }) => {
  const anonymous = await (await request.get(`${SSO_URL}/api/v1/alerts?limit=1`)).json();
  expect(anonymous.webhook.target).toBe("http://127.0.0.1:9");
  const admin = await (await request.get(`${SSO_URL}/api/v1/alerts?limit=1`, { headers: { cookie: adminCookie } })).json();
  expect(admin.webhook.target).toBe("http://127.0.0.1:9/services/T0000/B0000/e2e-webhook-secret");
});

test("reads never answer 5xx while a producer declares a new dataset every 150 ms", async ({ request }) => {
  let producing = true;
  const statuses: number[] = [];
  const producer = (async () => {
    for (let i = 0; producing && i < 200; i++) {
      const res = await request.post(`${SSO_URL}/api/v1/lineage`, { data: event(0x400000 + i, `arrive_${i}`, `arriving_${i}`), headers: bearer() });
      statuses.push(res.status());
      await new Promise((r) => setTimeout(r, 150));
    }
  })();
  const reads: number[] = [];
  for (let i = 0; i < 80; i++) reads.push((await request.get(`${SSO_URL}/api/v1/overview`)).status());
  producing = false;
  await producer;
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  expect(reads.filter((s) => s >= 500)).toEqual([]);
});

test("an outside process holds the write lock for 12 s: writes get 503 with Retry-After, health stays fast, readiness says so, and writes succeed after without a restart", async ({
  request,
}) => {
  test.setTimeout(120_000);
  const holder = await holdWriteLock(DB_FILE, 12_000);
  const write = (i: number) =>
    request.post(`${SSO_URL}/api/v1/lineage`, { data: event(0x500000 + i, "locked_load", "orders_raw"), headers: bearer(), timeout: 60_000 });
  const during = write(0);
  const health: number[] = [];
  let readyDuring = 0;
  for (let i = 0; i < 8; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const started = Date.now();
    expect((await request.get(`${SSO_URL}/api/health`)).status()).toBe(200);
    health.push(Date.now() - started);
    if (i === 6) readyDuring = (await request.get(`${SSO_URL}/api/ready`)).status();
  }
  const busy = await during;
  expect(busy.status(), await busy.text()).toBe(503);
  expect(busy.headers()["retry-after"]).toBe("2");
  expect(Math.max(...health)).toBeLessThanOrEqual(200);
  expect(readyDuring).toBe(503);
  await exited(holder);
  for (let i = 1; i <= 3; i++) expect((await write(i)).status()).toBe(200);
  await expect.poll(async () => (await request.get(`${SSO_URL}/api/ready`)).status(), { timeout: 10_000 }).toBe(200);
});

/** A second process that takes SQLite's write lock (BEGIN IMMEDIATE), holds it `ms`, and exits. */
async function holdWriteLock(file: string, ms: number): Promise<ChildProcess> {
  const script = `
    const Database = require("better-sqlite3");
    const db = new Database(${JSON.stringify(file)});
    db.prepare("BEGIN IMMEDIATE").run();
    process.stdout.write("locked\\n");
    setTimeout(() => { db.prepare("ROLLBACK").run(); db.close(); process.exit(0); }, ${ms});
  `;
  const child = spawn(process.execPath, ["-e", script], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("locked") && resolve());
    child.on("exit", (code) => reject(new Error(`the lock holder exited (${code}) before taking the lock`)));
  });
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null ? Promise.resolve() : new Promise((r) => child.on("exit", () => r()));
}
