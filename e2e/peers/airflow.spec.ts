import fs from "node:fs";
import path from "node:path";
import { PEERS_SECRET_DIR, PEERS_URL } from "../../playwright.peers.config";
import { expect, test } from "../fixtures";
import { ADMIN, LAB_RUN, WAREHOUSE_URL, daysBetween, emptyResult, ingestedEvents, labSpec, poster, rowsOfDay, validateAndResolve, writeResult } from "./lab-support";

/**
 * The Airflow closed loop against the REAL Airflow 3.3 of the peers lab (issue 31, item 3;
 * e2e/repair-airflow.spec.ts is the same journey against a fake one). Nothing here plays
 * Airflow: the lab's DAG runs its days, Airflow's own OpenLineage provider reports them to a
 * production-mode console with an ingest token, the team's declaration file (peers/airflow/
 * reparo.yaml) is applied with a declare token, an admin connects the pipeline to Airflow and
 * the namespace to the lab warehouse, and a commander repairs the failed days in the browser:
 * the half-written unit cleaned in the real table, Airflow's own dry run beside the plan, the
 * clears sent, Airflow re-running exactly the planned task instances, their events coming back
 * through the provider, validation, and every request to Airflow on the record.
 *
 * Every assertion is hard: what this loop found wrong in the product is fixed there (docs/peers-lab.md
 * lists it) and asserted here as the behaviour it now has.
 */
test.describe.configure({ mode: "serial" });

const AIRFLOW = "http://127.0.0.1:28080";
const AIRFLOW_USER = "reparo";
const AIRFLOW_PASSWORD = process.env.REPARO_AIRFLOW_PASSWORD ?? "reparo-lab";
const AIRFLOW_LOG = path.join(LAB_RUN, "airflow/logs/api-server.log");
const DAG = "lab_orders";
const NS = "postgres://127.0.0.1:5432";
const STG = "job:airflow-lab:lab_orders.stg_orders";
const STG_TABLE = "reparo_lab_warehouse.airflow_lab.stg_orders";
// The two failed days (peers/lab.sh control airflow seed) and a few days before. running_balance
// depends on its own past, so a repair recomputes it forward to the end of the declared month:
// the schedule runs to 2026-08-31, or Airflow would have no task instance for those units.
const FIRST = "2026-08-14";
const LAST = "2026-08-31";
const DAYS = daysBetween(FIRST, LAST);

const spec = labSpec("airflow");
const { times, sh, lab, timed, shot } = spec;

// ---------------------------------------------------------------- what the loop measured
let ingestToken = "";
let declareToken = "";
const result = emptyResult();

// ---------------------------------------------------------------- the real Airflow's own API
interface TaskInstance {
  task_id: string;
  logical_date: string;
  state: string | null;
  try_number: number;
  dag_run_id: string;
}
interface DagRun {
  dag_run_id: string;
  logical_date: string;
  state: string;
}

/** Airflow's REST API v2 as the lab user (POST /auth/token), for what the test checks there. */
class AirflowApi {
  private token = "";
  /** The test's own requests ("METHOD path status" and when), told apart from the console's in Airflow's access log. */
  readonly sent: { at: number; request: string }[] = [];
  private async call(method: string, p: string, init: RequestInit): Promise<Response> {
    const res = await fetch(`${AIRFLOW}${p}`, { ...init, method });
    this.sent.push({ at: Date.now(), request: `${method} ${p.split("?")[0]} ${res.status}` });
    return res;
  }
  private async login(): Promise<void> {
    const res = await this.call("POST", "/auth/token", {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: AIRFLOW_USER, password: AIRFLOW_PASSWORD }),
    });
    expect(res.status, "POST /auth/token on the lab Airflow").toBe(201);
    this.token = ((await res.json()) as { access_token: string }).access_token;
  }
  private async get<T>(p: string): Promise<T> {
    if (!this.token) await this.login();
    const res = await this.call("GET", p, { headers: { authorization: `Bearer ${this.token}` } });
    expect(res.status, `GET ${p}`).toBe(200);
    return (await res.json()) as T;
  }
  private async paged<T>(p: string, key: string): Promise<T[]> {
    const out: T[] = [];
    for (let offset = 0; ; ) {
      const page = await this.get<Record<string, unknown> & { total_entries: number }>(`${p}${p.includes("?") ? "&" : "?"}limit=100&offset=${offset}`);
      const items = page[key] as T[];
      out.push(...items);
      offset += items.length;
      if (items.length === 0 || offset >= page.total_entries) return out;
    }
  }
  taskInstances(): Promise<TaskInstance[]> {
    return this.paged<TaskInstance>(`/api/v2/dags/${DAG}/dagRuns/~/taskInstances`, "task_instances");
  }
  dagRuns(): Promise<DagRun[]> {
    return this.paged<DagRun>(`/api/v2/dags/${DAG}/dagRuns`, "dag_runs");
  }
}
const airflow = new AirflowApi();
const tiKey = (ti: Pick<TaskInstance, "task_id" | "logical_date">) => `${ti.task_id} ${ti.logical_date.slice(0, 10)}`;
/** The multiset a − b. */
function minus(a: readonly string[], b: readonly string[]): string[] {
  const left = [...b];
  return a.filter((x) => {
    const i = left.indexOf(x);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}
/** Each task instance as [task day, state, try], in a stable order. */
const stateOf = (tis: TaskInstance[]) => tis.map((ti) => [tiKey(ti), ti.state ?? "none", ti.try_number] as const).sort((a, b) => a[0].localeCompare(b[0]));
const countBy = <T>(items: T[], key: (t: T) => string) => items.reduce<Record<string, number>>((m, t) => ((m[key(t)] = (m[key(t)] ?? 0) + 1), m), {});

/**
 * The requests Airflow's API server logged (its own access log) between two instants — REST API
 * and sign-in only (its workers use /execution/) — less the ones this test sent itself then.
 */
function consoleRequestsSeenByAirflow(from: number, to: number): string[] {
  const out: string[] = [];
  // Airflow colours its log when the environment asks for it (Playwright's workers set FORCE_COLOR).
  for (const line of fs.readFileSync(AIRFLOW_LOG, "utf8").replace(/\x1b\[[0-9;]*m/g, "").split("\n")) {
    const m = /^(\S+Z) .*\[http\.access\].* method=(\S+) path=(\S+) query=\S* status_code=(\d+)/.exec(line);
    if (!m || !(m[3]!.startsWith("/api/v2/") || m[3]!.startsWith("/auth/"))) continue;
    const at = Date.parse(m[1]!);
    if (at >= from && at <= to) out.push(`${m[2]} ${m[3]} ${m[4]}`);
  }
  for (const own of airflow.sent.filter((r) => r.at >= from && r.at <= to + 1000)) {
    const i = out.indexOf(own.request);
    if (i >= 0) out.splice(i, 1);
  }
  return out.sort();
}

/** Each event Airflow's provider sends for what the lab ran: START + COMPLETE/FAIL per task try, START per DAG run + its end. */
function expectedEvents(tis: TaskInstance[], runs: DagRun[]): number {
  return 2 * tis.reduce((n, t) => n + t.try_number, 0) + runs.length + runs.filter((r) => r.state === "success" || r.state === "failed").length;
}

// ---------------------------------------------------------------- a. the lab runs, its events reach the console through the provider

test.beforeAll(async ({ playwright }, testInfo) => {
  spec.begin(testInfo, 900_000);
  ingestToken = spec.token("ingest", "airflow-lab", "Airflow's OpenLineage provider");
  declareToken = spec.token("declare", "lab-declarations", "the team's declaration file");

  // A clean Airflow (it may be up from an earlier run), pointed at this console with the ingest token.
  timed("airflowUp", () => {
    lab("lab-down", "down", "airflow");
    sh("lab-up", "bash", ["peers/lab.sh", "up", "airflow"], {
      REPARO_URL: PEERS_URL,
      REPARO_TOKEN: ingestToken,
      REPARO_AIRFLOW_PARALLELISM: process.env.REPARO_AIRFLOW_PARALLELISM ?? "4",
    });
  });
  lab("lab-warehouse", "warehouse", "airflow");
  lab("lab-control-seed", "control", "airflow", "seed");
  timed("schedule", () => sh("lab-schedule", "bash", ["peers/lab.sh", "schedule", "airflow", FIRST, LAST], { REPARO_AIRFLOW_SETTLE: "15" }));

  // The lab did what it is built to do: two failures on stg_orders, the rest of those days never
  // started, running_balance waits on its own failed past from 2026-08-17 on.
  const tis = await airflow.taskInstances();
  const runs = await airflow.dagRuns();
  expect(runs.map((r) => r.logical_date.slice(0, 10)).sort()).toEqual(DAYS);
  expect(countBy(tis, (t) => t.state ?? "none")).toEqual({ success: 85, failed: 2, upstream_failed: 8, none: 13 });
  expect(tis.filter((t) => t.state === "failed").map(tiKey).sort()).toEqual(["stg_orders 2026-08-17", "stg_orders 2026-08-23"]);

  // Every event the provider sends for that reached the console (it posts them while the tasks run).
  const request = await playwright.request.newContext({ baseURL: PEERS_URL });
  await expect
    .poll(() => ingestedEvents(request), { message: "OpenLineage events stored by the console", timeout: 60_000 })
    .toBe(expectedEvents(tis, runs));
  await request.dispose();
});

test.afterAll(() => {
  if (!spec.underPeersConfig()) return;
  writeResult("airflow", result, times);
  if (process.env.REPARO_PEERS_KEEP !== "1") lab("lab-down-end", "down", "airflow");
});

// ---------------------------------------------------------------- b. the team's declaration file, applied after the events
test("the team's declaration file, applied after the lab ran, folds the provider's events onto daily units", async ({ request }) => {
  const declare = (label: string, ...flags: string[]) =>
    sh(label, "npx", ["tsx", "scripts/declare.ts", "peers/airflow/reparo.yaml", ...flags], { REPARO_URL: PEERS_URL, REPARO_TOKEN: declareToken }).stdout;
  // Before: every dataset is one unit `*` (nothing declared), so no day can be missing or failed.
  expect((await (await request.get("/api/v1/overview")).json()).counts).toMatchObject({ openFailures: 0, missingUnits: 0 });

  const dry = declare("declare-dry-run");
  expect(dry).toContain(`${PEERS_URL}: 30 facts would change, 0 already held`);
  expect(dry).toContain(`dataset:${NS}:${STG_TABLE}  partitions: unknown → {"kind":"time","grain":"day","start":"2026-08-01","end":"2026-08-31","timezone":"UTC"}`);
  // The provider's `airflow` run facet said depends_on_past; the file confirms it as declared.
  expect(dry).toContain("job:airflow-lab:lab_orders.running_balance  dependsOnOwnPast: true (airflow) → true");
  expect(dry).toContain("job:airflow-lab:lab_orders.finance_export  sideEffect: unknown → external");
  expect(dry).toContain("dry run: nothing was written");

  const applied = timed("declare", () => declare("declare-apply", "--apply"));
  expect(applied).toContain(`${PEERS_URL}: 30 facts changed, 0 already held`);
  // Declaring after the events refolds them: one publish on a new unit per task instance that succeeded.
  const refolded = /stored runs folded again: (\d+) \(publishes on new units: (\d+)\)/.exec(applied);
  expect(refolded, applied).not.toBeNull();
  expect(Number(refolded![1])).toBeGreaterThan(0);
  expect(Number(refolded![2])).toBe(85);
  expect(declare("declare-again", "--apply")).toContain(`${PEERS_URL}: 0 facts changed, 30 already held`);

  // Now the failures are days: exactly the two Airflow failed, with Airflow's own error text.
  const overview = await (await request.get("/api/v1/overview")).json();
  expect(overview.failures.map((f: { taskNodeId: string; unitKey: string }) => `${f.taskNodeId} ${f.unitKey}`)).toEqual([
    `${STG} 2026-08-17`,
    `${STG} 2026-08-23`,
  ]);
  expect(overview.failures[0].error).toContain("lab_control: airflow.stg_orders failed for 2026-08-17 after writing half of the rows (mode half)");
  expect(overview.failures[0].pipeline).toBe(DAG);
});

// ---------------------------------------------------------------- c. an admin connects Airflow and the lab warehouse
test("an admin connects lab_orders to the lab's Airflow and its namespace to the lab warehouse, secrets named as files", async ({ request }) => {
  // Signed in with a one-time link from the console's machine (no identity provider here).
  const link = await spec.signInAdmin(request);
  expect(link).toMatch(new RegExp(`^${PEERS_URL}/api/auth/link\\?token=`));
  expect(await (await request.get("/api/auth/me")).json()).toMatchObject({ id: ADMIN, role: "admin", source: "session", demo: false });

  fs.mkdirSync(PEERS_SECRET_DIR, { recursive: true });
  const passwordFile = path.join(PEERS_SECRET_DIR, "airflow-password");
  const warehouseFile = path.join(PEERS_SECRET_DIR, "lab-warehouse-url");
  fs.writeFileSync(passwordFile, `${AIRFLOW_PASSWORD}\n`, { mode: 0o600 });
  fs.writeFileSync(warehouseFile, `${WAREHOUSE_URL}\n`, { mode: 0o600 });
  const asAdmin = { origin: PEERS_URL };

  const orchestrator = await request.put(`/api/v1/pipelines/${DAG}/orchestrator`, {
    headers: asAdmin,
    data: {
      connection: { kind: "airflow", baseUrl: AIRFLOW, username: AIRFLOW_USER, credentials: { file: passwordFile } },
      reason: "lab_orders' repairs run in the lab's Airflow",
    },
  });
  expect(orchestrator.status(), await orchestrator.text()).toBe(200);
  expect(await orchestrator.json()).toMatchObject({
    pipeline: DAG,
    namespace: "airflow-lab",
    connection: { kind: "airflow", baseUrl: AIRFLOW, username: AIRFLOW_USER },
    secret: { name: `file:${passwordFile}`, readable: true },
  });

  const warehouse = await request.put(`/api/v1/warehouses/${encodeURIComponent(NS)}`, {
    headers: asAdmin,
    data: {
      connection: { kind: "postgresql", url: { file: warehouseFile }, tables: { [STG_TABLE]: { table: "airflow_lab.stg_orders", unitColumn: "order_day" } } },
      reason: "the lab's datasets live in reparo_lab_warehouse",
    },
  });
  expect(warehouse.status(), await warehouse.text()).toBe(200);
  expect(await warehouse.json()).toMatchObject({ namespace: NS, connection: { kind: "postgresql" }, secret: { name: `file:${warehouseFile}`, readable: true } });
});

// ---------------------------------------------------------------- d–g. the commander's repair, in the browser, in the real Airflow
test("the commander repairs stg_orders 2026-08-17 and 08-23 in the real Airflow: cleaned for real, dry run, exactly the plan re-run, validated, on the record", async ({
  page,
}) => {
  test.setTimeout(600_000);
  const t0 = Date.now();
  const api = page.request;
  const post = poster(api);
  result.version = ((await (await fetch(`${AIRFLOW}/api/v2/version`)).json()) as { version: string }).version;
  expect(result.version).toMatch(/^3\./);

  // Production mode: signed in with a one-time link.
  await page.goto("/");
  await expect(page.getByTestId("whoami")).toContainText("Not signed in");
  await spec.signInCommander(page);

  // The overview: the two failures Airflow reported, with its error; 08-17 wrote half its rows before failing.
  const f17 = page.getByTestId("failure-lab_orders.stg_orders-2026-08-17");
  await expect(f17).toContainText("lab_control: airflow.stg_orders failed for 2026-08-17 after writing half of the rows (mode half)");
  await expect(f17.getByTestId("failure-tries")).toHaveText("1");
  await expect(page.getByTestId("failure-lab_orders.stg_orders-2026-08-23")).toContainText("before writing anything (mode clean)");
  const halfWritten = await rowsOfDay(`airflow_lab.stg_orders`, "2026-08-17");
  expect(halfWritten).toEqual({ rows: 21, distinct: 21 });
  // The provider sends no row counts: what the failed try left is unknown, and said so — never
  // "nothing written" for a unit that holds 21 rows.
  await expect(f17.getByTestId("partial-write")).toHaveText("rows unknown: its producer reports no row counts");
  await expect(page.getByTestId("failure-lab_orders.stg_orders-2026-08-23").getByTestId("partial-write")).toHaveText(
    "rows unknown: its producer reports no row counts",
  );
  await shot(page, "1-overview");

  // Open the incident from the overview's failure link.
  await f17.getByRole("link", { name: "Plan a repair →" }).click();
  await expect(page.getByLabel("Failed task (node id)")).toHaveValue(STG);
  await page.getByLabel(/Why you are opening it/).fill("Airflow: stg_orders failed on 2026-08-17 after writing half its rows");
  await page.getByRole("button", { name: "Open the incident" }).click();
  await expect(page).toHaveURL(/\/incidents\/[a-z0-9]+$/);
  const id = page.url().split("/").pop()!;

  // 1. Scope: the closure, running_balance forward to the end of the month, the other failure it waits on.
  await expect(page.getByTestId("incident-status")).toHaveText("open");
  await expect(page.getByTestId("scope-lab_orders.stg_orders-task")).toContainText("failed");
  await expect(page.getByTestId(`scope-${STG_TABLE}-dataset`)).toContainText("2026-08-17");
  await expect(page.getByTestId("scope-reparo_lab_warehouse.airflow_lab.running_balance-dataset")).toContainText("2026-08-17 → 2026-08-31 (15)");
  const waitsOn = page.getByTestId("waits-on");
  await expect(waitsOn).toContainText("lab_orders.stg_orders 2026-08-23");
  await expect(waitsOn).toContainText("lab_orders.running_balance 2026-08-17…2026-08-31");
  await expect(waitsOn.getByRole("checkbox", { name: "Add lab_orders.stg_orders 2026-08-23 to this incident" })).toBeChecked();
  await shot(page, "2-scope");
  await page.getByLabel(/Why this scope/).fill("running_balance cannot be rebuilt past 2026-08-23 without it");
  await page.getByRole("button", { name: "Add and re-scope" }).click();

  // 2. Preconditions: the declared facts, each with its verdict.
  await expect(page.getByRole("heading", { name: "2. Preconditions" })).toBeVisible();
  const verdict = (testId: string) => page.getByTestId(testId).getByRole("cell").nth(1);
  await expect(verdict("check-lab_orders.stg_orders-idempotent")).toHaveText("no — unsafe");
  await expect(verdict("check-lab_orders.running_balance-independent")).toHaveText("no — unsafe");
  await expect(verdict("check-lab_orders.finance_export-side_effects")).toHaveText("no — unsafe");
  await expect(verdict("check-lab_orders.fct_orders-idempotent")).toHaveText("yes — safe");
  await shot(page, "3-preconditions");
  await page.getByLabel(/Review note/).fill("stg_orders appends, running_balance is sequential, the finance export stays out");
  await page.getByRole("button", { name: "Record review →" }).click();

  // 3. Response: the append blocker with the rows PostgreSQL counts; clean them for real.
  await expect(page).toHaveURL(new RegExp(`/incidents/${id}/response$`));
  await expect(page.getByTestId("strategy-targeted_with_closure").getByRole("radio")).toBeChecked();
  await expect(page.getByTestId("excluded-lab_orders.finance_export")).toContainText("excluded by default");
  const blocker = page.getByTestId("blocker-append_unresolved");
  await expect(blocker.getByTestId("append-unit-2026-08-17").getByTestId("rows-in-unit")).toHaveText("21 rows already in the unit");
  await expect(blocker.getByTestId("append-unit-2026-08-23").getByTestId("rows-in-unit")).toHaveText("0 rows already in the unit");
  await expect(blocker).toContainText(`DELETE FROM "airflow_lab"."stg_orders" WHERE "order_day" >= $1::timestamptz AND "order_day" < $2::timestamptz`);
  await shot(page, "4-response-blocked");
  const otherDaysBefore = await Promise.all(DAYS.filter((d) => d !== "2026-08-17").map((d) => rowsOfDay("airflow_lab.stg_orders", d)));
  for (const [day, reason] of [
    ["2026-08-17", "remove the 21 rows the failed try left before the append runs again"],
    ["2026-08-23", "its try failed before writing: nothing to remove, checked by the count"],
  ] as const) {
    await page.getByTestId(`clean-${day}-open`).click();
    await expect(page.getByTestId(`clean-${day}`)).toContainText(`the ${day === "2026-08-17" ? 21 : 0} rows of lab_orders.stg_orders ${day} are deleted`);
    await page.getByTestId(`clean-${day}`).getByLabel(/Why/).fill(reason);
    await page
      .getByTestId(`clean-${day}`)
      .getByRole("button", { name: /^Confirm:/ })
      .click();
    await expect(page.getByTestId(`append-unit-${day}`)).toHaveCount(0);
  }
  await expect(page.getByTestId("no-blockers")).toBeVisible();
  // The rows really went, in the real table — that day's only.
  expect(await rowsOfDay("airflow_lab.stg_orders", "2026-08-17")).toEqual({ rows: 0, distinct: 0 });
  expect(await Promise.all(DAYS.filter((d) => d !== "2026-08-17").map((d) => rowsOfDay("airflow_lab.stg_orders", d)))).toEqual(otherDaysBefore);
  await shot(page, "5-response-clean");
  await page.getByRole("button", { name: "Preview the plan →" }).click();

  // 4. Plan: exact pairs by wave, the export excluded; Airflow's own dry run beside it.
  await expect(page).toHaveURL(new RegExp(`/incidents/${id}/plan$`));
  await expect(page.getByTestId("plan-cost")).toContainText("recomputes 21 units of 4 tasks, against 124 for a full re-run");
  await expect(page.getByTestId("wave-0")).toContainText("lab_orders.stg_orders");
  await expect(page.getByTestId("wave-0")).toContainText("2026-08-17, 2026-08-23");
  await expect(page.getByTestId("wave-3")).toContainText("lab_orders.running_balance");
  await expect(page.getByTestId("wave-3")).toContainText("2026-08-17 → 2026-08-31");
  await expect(page.getByTestId("plan-excluded-lab_orders.finance_export")).toContainText("2026-08-17, 2026-08-23");
  const plan = await post(`/api/v1/incidents/${id}/plan/preview`, {});
  const planned = new Set<string>(
    plan.waves.flat().flatMap((t: { name: string; keyRanges: [string, string][] }) =>
      t.keyRanges.flatMap(([a, b]) => daysBetween(a, b).map((d) => `${t.name.slice(`${DAG}.`.length)} ${d}`)),
    ),
  );
  result.pairsPlanned = planned.size;
  expect(result.pairsPlanned).toBe(21);

  // What Airflow holds before anything is sent to it; from here on only the console talks to it.
  const before = new Map((await airflow.taskInstances()).map((ti) => [tiKey(ti), ti]));
  const windowStart = Date.now();
  await page.getByTestId("dry-run-button").click();
  await expect(page.getByTestId("dry-run-result")).toContainText("7 requests will be sent, in 4 waves.");
  await expect(page.getByTestId("dry-run-same")).toHaveText("The orchestrator would run exactly the plan.");
  await expect(page.getByTestId("dry-run-side-effects")).toHaveCount(0);
  await expect(page.getByTestId("dry-run-missing")).toHaveCount(0);
  // Airflow's dry run changed nothing there.
  expect(stateOf(await airflow.taskInstances())).toEqual(stateOf([...before.values()]));
  await shot(page, "6-plan-dry-run");
  await page.getByLabel(/Why this plan/).fill("re-run the failed days and their closure in Airflow; the finance export is not sent again");
  await page.getByRole("button", { name: "Confirm plan →" }).click();

  // 5. Execute: the data problem is fixed first (the control rows go), then the reviewed repair is dispatched.
  await expect(page.getByRole("heading", { name: "5. Execute" })).toBeVisible();
  await expect(page.getByTestId("dry-run-carried")).toContainText("Reviewed at the Plan step");
  lab("lab-control-clear", "control", "airflow", "clear");
  const launched = Date.now();
  await page.getByRole("button", { name: "Dispatch the reviewed repair" }).click();
  await expect(page.getByRole("progressbar", { name: "Repair progress" })).toBeVisible();
  await expect(page.getByTestId("dispatched-lab_orders")).toContainText("runs in airflow");
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 300_000 });
  times.repairInAirflow = Math.round((Date.now() - launched) / 100) / 10;
  const windowEnd = Date.now();
  await expect(page.getByTestId("progress-count")).toHaveText("21 of 21 pairs done · 21 succeeded · 0 failed or blocked");
  await expect(page.getByTestId("pair-lab_orders.stg_orders-2026-08-17")).toContainText(/lab_orders · manual__\S+ · try 2 · success/);
  await expect(page.getByTestId("pair-lab_orders.running_balance-2026-08-31")).toContainText("try 1 · success");
  await shot(page, "7-execute");

  // e. Airflow's own record: the planned task instances ran again, and nothing else did. "Again"
  // is the try number going up: stg_orders had run (try 1 → 2); the instances downstream of the
  // failures had never run (upstream_failed, or waiting on depends_on_past: try 0 → 1).
  const after = await airflow.taskInstances();
  const rerun = after.filter((ti) => ti.try_number > (before.get(tiKey(ti))?.try_number ?? 0));
  result.pairsRerun = rerun.length;
  result.extraRerun = rerun.filter((ti) => !planned.has(tiKey(ti))).length;
  expect(rerun.filter((ti) => ti.state !== "success").map(tiKey)).toEqual([]);
  expect(new Set(rerun.map(tiKey))).toEqual(planned);
  expect(result.extraRerun).toBe(0);
  expect(after.filter((ti) => ti.task_id === "stg_orders" && planned.has(tiKey(ti))).map((ti) => ti.try_number)).toEqual([2, 2]);
  // The side-effecting export was not sent again: still never run on the failed days, once everywhere else.
  const exportsOf = (tis: TaskInstance[]) => stateOf(tis.filter((ti) => ti.task_id === "finance_export"));
  expect(exportsOf(after)).toEqual(exportsOf([...before.values()]));
  expect(exportsOf(after).filter(([, state]) => state !== "success")).toEqual([
    ["finance_export 2026-08-17", "upstream_failed", 0],
    ["finance_export 2026-08-23", "upstream_failed", 0],
  ]);
  // The append ran once on the cleaned unit: one copy of the day's raw orders, no duplicate.
  const raw17 = await rowsOfDay("airflow_lab.raw_orders", "2026-08-17");
  expect(await rowsOfDay("airflow_lab.stg_orders", "2026-08-17")).toEqual({ rows: raw17.rows, distinct: raw17.rows });
  expect(raw17.rows).toBe(43);

  // f. The re-run's events come back through the provider — this time after the declaration (the
  // month's came before it and were refolded): every planned unit is in the ledger again.
  await expect
    .poll(
      async () => {
        const v = await (await api.get(`/api/v1/incidents/${id}/validation`)).json();
        return v.units.filter((u: { checks: { inLedger: boolean } }) => u.checks.inLedger).length;
      },
      { message: "planned units published again from the provider's events", timeout: 60_000 },
    )
    .toBe(21);
  const { entries, text } = await validateAndResolve(page, id, {
    // running_balance reads the table it writes (the provider lists it as an input): that self-read
    // is the unit before, not a newer upstream of every unit.
    verdict: [
      "Validation passes: all 21 units in the ledger, published once, not stale.",
      "21 units were published without a row count: present, but neither counted nor reconciled.",
    ],
    reason: "the 21 units Airflow re-ran are back in the ledger, published once",
    shot: (name) => shot(page, name),
    shots: ["8-validate", "9-close"],
  });
  result.validated = true;

  // f. Every request sent to Airflow is on the record — method, URL, status — as Airflow's own
  // access log has it, and never the password or a token.
  const kinds: string[] = entries.map((e) => e.kind);
  expect(kinds.filter((k) => k === "repair.dispatched")).toHaveLength(4);
  expect(kinds.filter((k) => k === "unit.deduplicated")).toHaveLength(2);
  const recorded: string[] = entries
    .flatMap((e) => (e.after as { calls?: { method: string; url: string; status: number | null }[] } | null)?.calls ?? [])
    // Airflow logs the path decoded (a run id's ':' and '+').
    .map((c: { method: string; url: string; status: number | null }) => `${c.method} ${decodeURIComponent(c.url.replace(AIRFLOW, ""))} ${c.status}`);
  const seenByAirflow = consoleRequestsSeenByAirflow(windowStart, windowEnd);
  expect(recorded.filter((c) => c.includes("/clearTaskInstances"))).not.toHaveLength(0);
  // Nothing is on the record that Airflow did not receive.
  expect(countBy(minus(recorded, seenByAirflow), (c) => c), "recorded, but not in Airflow's access log").toEqual({});
  // A token is reused until Airflow refuses it, not fetched again for every poll: at most one
  // sign-in by the console's request handlers and one by its background repair worker (two module
  // instances in the Next.js server), for a repair that polls Airflow every 3 s.
  const signIns = seenByAirflow.filter((c) => c.startsWith("POST /auth/token "));
  expect(signIns.length, `sign-ins Airflow saw: ${signIns.join(", ")}`).toBeGreaterThanOrEqual(1);
  expect(signIns.length, `sign-ins Airflow saw: ${signIns.join(", ")}`).toBeLessThanOrEqual(2);
  // And everything Airflow received is on the record: the launch's own dry run (repair.previewed)
  // and the polls that changed nothing (written with the next repair.progress entry) included.
  expect(countBy(minus(seenByAirflow, recorded), (c) => c), "sent to Airflow, but not in the audit log").toEqual({});
  expect(text).not.toContain(AIRFLOW_PASSWORD);
  expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}/);

  // An incident names its pipeline by name (lab_orders, as /api/v1/pipelines and the overview do).
  const ofPipeline = await (await api.get(`/api/v1/incidents?status=all&pipeline=${DAG}`)).json();
  expect(ofPipeline.incidents.map((i: { id: string; status: string }) => [i.id, i.status]), "incidents of the pipeline lab_orders").toEqual([[id, "resolved"]]);

  // The overview no longer lists the repaired failures.
  await page.goto("/");
  await expect(page.getByTestId("failure-lab_orders.stg_orders-2026-08-17")).toHaveCount(0);
  await expect(page.getByTestId("failure-lab_orders.stg_orders-2026-08-23")).toHaveCount(0);
  times.journey = Math.round((Date.now() - t0) / 100) / 10;
});
