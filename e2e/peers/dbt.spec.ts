import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { PEERS_URL } from "../../playwright.peers.config";
import { expect, test } from "../fixtures";
import { LAB_RUN, ROOT, WAREHOUSE_URL, daysBetween, emptyResult, ingestedEvents, labSpec, poster, validateAndResolve, writeResult } from "./lab-support";

/**
 * The dbt closed loop against the REAL dbt 1.12 + openlineage-dbt 1.54 of the peers lab (issue 31,
 * item 3). Nothing here plays dbt: the lab project (peers/dbt/lab_project) builds August through
 * `dbt-ol build --consume-structured-logs`, a control row fails the microbatch model's batches of
 * 2026-08-17 and 2026-08-23 (a partial success; its children are skipped), dbt-ol's events are
 * the console's only news of it, the team's declaration file (peers/dbt/reparo.yaml) is applied
 * with a declare token, an admin connects the pipeline to dbt, and a commander repairs it in the
 * browser. dbt has no API Reparo could call: the Execute step shows the command, and the test runs
 * exactly what the page shows, in the lab project's environment — the microbatch batches rebuilt
 * with dbt's own --event-time-start/--event-time-end — and reads what dbt re-ran from dbt's own
 * record, target/run_results.json. Then the events of that run come back through dbt-ol, the
 * repair's progress follows them, validation passes and the incident resolves.
 */
test.describe.configure({ mode: "serial" });

const PROJECT = "reparo_lab_orders";
const PROJECT_DIR = path.join(ROOT, "peers/dbt/lab_project");
const RUN_RESULTS = path.join(PROJECT_DIR, "target/run_results.json");
const PIPELINE = `dbt-run-${PROJECT}`;
const JOB_NS = "dbt-lab";
const MODEL = (name: string) => `model.${PROJECT}.${name}`;
const REVENUE = MODEL("revenue_daily");
const FIRST = "2026-08-01";
const LAST = "2026-08-31";
const FAILED_DAYS = ["2026-08-17", "2026-08-23"];

const spec = labSpec("dbt");
const { times, sh, lab, timed, shot } = spec;

let ingestToken = "";
let declareToken = "";
const result = emptyResult();

// ---------------------------------------------------------------- dbt's own record
interface RunResult {
  unique_id: string;
  status: string;
  batch_results?: { successful: [string, string][]; failed: [string, string][] } | null;
}

/**
 * The (model, unit) pairs one dbt invocation ran, from its target/run_results.json: a microbatch
 * model's batches by their day, any other model as its one unit `*` (tests and hooks are not pairs).
 */
function pairsOfRunResults(): { ran: string[]; failed: string[] } {
  const results = (JSON.parse(fs.readFileSync(RUN_RESULTS, "utf8")) as { results: RunResult[] }).results.filter((r) => r.unique_id.startsWith("model."));
  const name = (r: RunResult) => r.unique_id.split(".").at(-1)!;
  const ran: string[] = [];
  const failed: string[] = [];
  for (const r of results) {
    const b = r.batch_results;
    if (b && (b.successful.length > 0 || b.failed.length > 0)) {
      ran.push(...[...b.successful, ...b.failed].map(([start]) => `${name(r)} ${start.slice(0, 10)}`));
      failed.push(...b.failed.map(([start]) => `${name(r)} ${start.slice(0, 10)}`));
    } else if (r.status !== "skipped") {
      ran.push(`${name(r)} *`);
      if (r.status !== "success") failed.push(`${name(r)} *`);
    }
  }
  return { ran, failed };
}

const statusesOf = (file: string) =>
  Object.fromEntries(
    (JSON.parse(fs.readFileSync(file, "utf8")) as { results: RunResult[] }).results
      .filter((r) => r.unique_id.startsWith("model."))
      .map((r) => [r.unique_id.split(".").at(-1)!, r.status]),
  );

/** How many events dbt-ol says it sent (its last lines: "Emitted N OpenLineage events"). */
function emittedEvents(log: string): number {
  const m = [...log.matchAll(/Emitted (\d+) OpenLineage events/g)].at(-1);
  expect(m, "dbt-ol's count of the events it emitted").toBeTruthy();
  return Number(m![1]);
}

async function revenueRows(): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: WAREHOUSE_URL });
  await client.connect();
  try {
    const r = await client.query<{ day: string; rows: number }>(
      `SELECT to_char(order_day, 'YYYY-MM-DD') AS day, count(*)::int AS rows FROM dbt_lab.revenue_daily GROUP BY 1 ORDER BY 1`,
    );
    return Object.fromEntries(r.rows.map((x) => [x.day, x.rows]));
  } finally {
    await client.end();
  }
}

/**
 * Runs one command an operator copied from the Execute step, in the lab project's environment
 * (peers/lab.sh's env.sh: the venv on PATH, the profile, OPENLINEAGE_URL and the ingest token).
 */
function runAsOperator(label: string, command: string): { status: number | null; log: string } {
  const r = sh(label, "bash", ["-c", `source "${LAB_RUN}/dbt/env.sh" && ${command}`], {}, "output", { allowFailure: true, cwd: PROJECT_DIR });
  const log = fs.readFileSync(path.join(spec.shots, `${label}.log`), "utf8");
  // --consume-structured-logs leaves its log folder in the working directory (.gitignore'd there).
  for (const d of fs.readdirSync(PROJECT_DIR)) if (d.startsWith("dbt-logs-")) fs.rmSync(path.join(PROJECT_DIR, d), { recursive: true, force: true });
  return { status: r.status, log };
}

// ---------------------------------------------------------------- a. dbt builds the month, its events reach the console through dbt-ol
let monthEvents = 0;

test.beforeAll(async ({ playwright }, testInfo) => {
  spec.begin(testInfo, 600_000);
  ingestToken = spec.token("ingest", "dbt-lab", "dbt-ol's OpenLineage events");
  declareToken = spec.token("declare", "dbt-declarations", "the team's declaration file");

  // dbt has no server: `up` installs (cached), writes env.sh pointing dbt-ol at this console with the token.
  timed("dbtUp", () => sh("lab-up", "bash", ["peers/lab.sh", "up", "dbt"], { REPARO_URL: PEERS_URL, REPARO_TOKEN: ingestToken }));
  result.version = /installed:\s*(\S+)/.exec(sh("dbt-version", "bash", ["-c", `source "${LAB_RUN}/dbt/env.sh" && dbt --version`]).stdout)?.[1] ?? null;
  expect(result.version).toBe("1.12.6");
  lab("lab-warehouse", "warehouse", "dbt");
  lab("lab-control-seed", "control", "dbt", "seed");
  // The console may hold other peers' events already (the specs share it): count from here.
  const request = await playwright.request.newContext({ baseURL: PEERS_URL });
  const before = await ingestedEvents(request);
  timed("schedule", () => lab("lab-schedule", "schedule", "dbt", FIRST, LAST));

  // dbt did what the lab is built for: a partial success of the microbatch model, its children skipped.
  expect(statusesOf(RUN_RESULTS)).toEqual({
    raw_orders: "success",
    stg_orders: "success",
    stg_duplicates: "success",
    fct_orders: "success",
    revenue_daily: "partial success",
    finance_export: "skipped",
    running_balance: "skipped",
  });
  expect(pairsOfRunResults().failed).toEqual(FAILED_DAYS.map((d) => `revenue_daily ${d}`));
  expect(Object.keys(await revenueRows())).toEqual(daysBetween(FIRST, LAST).filter((d) => !FAILED_DAYS.includes(d)));

  // Every event dbt-ol sent (while dbt ran) reached the console.
  monthEvents = emittedEvents(fs.readFileSync(path.join(LAB_RUN, "dbt/build.log"), "utf8"));
  expect(monthEvents).toBeGreaterThan(400);
  await expect.poll(() => ingestedEvents(request), { message: "dbt-ol's events stored by the console", timeout: 60_000 }).toBe(before + monthEvents);
  await request.dispose();
});

test.afterAll(() => {
  if (!spec.underPeersConfig()) return;
  writeResult("dbt", result, times);
});

// ---------------------------------------------------------------- b. the team's declaration file
test("the team's declaration file, applied after dbt ran: each microbatch batch is its day, from dbt-ol's events alone", async ({ request }) => {
  const declare = (label: string, ...flags: string[]) =>
    sh(label, "npx", ["tsx", "scripts/declare.ts", "peers/dbt/reparo.yaml", ...flags], { REPARO_URL: PEERS_URL, REPARO_TOKEN: declareToken }).stdout;
  const applied = timed("declare", () => declare("declare-apply", "--apply"));
  expect(applied).toContain(`${PEERS_URL}: 29 facts changed, 0 already held`);
  expect(declare("declare-again", "--apply")).toContain(`${PEERS_URL}: 0 facts changed, 29 already held`);

  // The failed batches are days, with what dbt-ol says of them; the skipped children are their whole tables.
  const overview = await (await request.get("/api/v1/overview")).json();
  const ofDbt = overview.failures
    .filter((f: { pipeline: string }) => f.pipeline === PIPELINE)
    .map((f: { taskName: string; unitKey: string; tries: number; error: string }) => [f.taskName, f.unitKey, f.tries, f.error])
    .sort((a: unknown[], b: unknown[]) => String(a).localeCompare(String(b)));
  expect(ofDbt).toEqual([
    [MODEL("finance_export"), "*", 1, "run aborted"],
    [REVENUE, "2026-08-17", 1, "ERROR"],
    [REVENUE, "2026-08-23", 1, "ERROR"],
    [MODEL("running_balance"), "*", 1, "run aborted"],
  ]);
  // dbt-ol reports every SQL statement as a job of its own: part of its model's run, not a task.
  const graph = await (await request.get("/api/v1/lineage-graph")).json();
  const jobs = (graph.nodes as { id: string }[]).map((n) => n.id).filter((id) => id.startsWith(`job:${JOB_NS}:`));
  expect(jobs.filter((id) => id.includes(".sql."))).toEqual([]);
  expect(jobs).toContain(`job:${JOB_NS}:${REVENUE}`);
});

// ---------------------------------------------------------------- c. an admin connects the pipeline to dbt
test("an admin connects the dbt pipeline: dbt-ol in the lab project, so the repair's runs report back", async ({ request }) => {
  await spec.signInAdmin(request);
  const res = await request.put(`/api/v1/pipelines/${PIPELINE}/orchestrator`, {
    headers: { origin: PEERS_URL },
    data: {
      connection: { kind: "dbt", projectDir: PROJECT_DIR, executable: "dbt-ol", flags: ["--consume-structured-logs"] },
      reason: "the lab project's repairs run with dbt-ol, so their events come back",
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  expect(await res.json()).toMatchObject({
    pipeline: PIPELINE,
    namespace: JOB_NS,
    connection: { kind: "dbt", projectDir: PROJECT_DIR, executable: "dbt-ol", flags: ["--consume-structured-logs"] },
  });
});

// ---------------------------------------------------------------- d. the commander's repair, in the browser, run by the operator in dbt
test("the commander repairs revenue_daily 2026-08-17 and 08-23: the command shown, run as shown, exactly the plan re-run, validated", async ({ page }) => {
  test.setTimeout(600_000);
  const t0 = Date.now();
  const api = page.request;
  const post = poster(api);

  await spec.signInCommander(page);

  // The overview: the two batches dbt failed, as dbt-ol reports them (no text beyond "ERROR", no row counts).
  await page.goto("/");
  const f17 = page.getByTestId(`failure-${REVENUE}-2026-08-17`);
  await expect(f17).toContainText("ERROR");
  await expect(f17.getByTestId("failure-tries")).toHaveText("1");
  await expect(f17.getByTestId("partial-write")).toHaveText("rows unknown: its producer reports no row counts");
  await expect(page.getByTestId(`failure-${REVENUE}-2026-08-23`)).toBeVisible();
  await shot(page, "1-overview");

  await f17.getByRole("link", { name: "Plan a repair →" }).click();
  await expect(page.getByLabel("Failed task (node id)")).toHaveValue(`job:${JOB_NS}:${REVENUE}`);
  await page.getByLabel(/Why you are opening it/).fill("dbt: revenue_daily's batch of 2026-08-17 failed");
  await page.getByRole("button", { name: "Open the incident" }).click();
  await expect(page).toHaveURL(/\/incidents\/[a-z0-9]+$/);
  const id = page.url().split("/").pop()!;

  // 1. Scope: the batch and its closure; the other failed batch, which running_balance also reads.
  await expect(page.getByTestId("incident-status")).toHaveText("open");
  await shot(page, "2-scope");
  const waitsOn = page.getByTestId("waits-on");
  await expect(waitsOn).toContainText(`${REVENUE} 2026-08-23`);
  await expect(waitsOn.getByRole("checkbox", { name: `Add ${REVENUE} 2026-08-23 to this incident` })).toBeChecked();
  await page.getByLabel(/Why this scope/).fill("running_balance cannot be rebuilt without 2026-08-23 either");
  await page.getByRole("button", { name: "Add and re-scope" }).click();

  // 2. Preconditions.
  await expect(page.getByRole("heading", { name: "2. Preconditions" })).toBeVisible();
  await shot(page, "3-preconditions");
  await page.getByLabel(/Review note/).fill("revenue_daily replaces its batch; the finance export stays out");
  await page.getByRole("button", { name: "Record review →" }).click();

  // 3. Response: nothing appends in the closure, so nothing to clean; the export stays out.
  await expect(page).toHaveURL(new RegExp(`/incidents/${id}/response$`));
  await expect(page.getByTestId(`excluded-${MODEL("finance_export")}`)).toContainText("excluded by default");
  await expect(page.getByTestId("no-blockers")).toBeVisible();
  await shot(page, "4-response");
  await page.getByRole("button", { name: "Preview the plan →" }).click();

  // 4. Plan: the two batches, then running_balance whole; the dry run is the commands.
  await expect(page).toHaveURL(new RegExp(`/incidents/${id}/plan$`));
  const plan = await post(`/api/v1/incidents/${id}/plan/preview`, {});
  const planned = new Set<string>(
    plan.waves.flat().flatMap((t: { name: string; keyRanges: [string, string][] }) =>
      t.keyRanges.flatMap(([a, b]) => (a === "*" ? ["*"] : daysBetween(a, b)).map((d) => `${t.name.split(".").at(-1)} ${d}`)),
    ),
  );
  result.pairsPlanned = planned.size;
  expect([...planned].sort()).toEqual(["revenue_daily 2026-08-17", "revenue_daily 2026-08-23", "running_balance *"]);
  await page.getByTestId("dry-run-button").click();
  await expect(page.getByTestId("dry-run-result")).toContainText("3 requests will be sent, in 2 waves.");
  await expect(page.getByTestId("dry-run-same")).toHaveText("The orchestrator would run exactly the plan.");
  await shot(page, "6-plan-dry-run");
  await page.getByLabel(/Why this plan/).fill("rebuild the two batches with dbt, then the balance; the finance export is not sent again");
  await page.getByRole("button", { name: "Confirm plan →" }).click();

  // 5. Execute: the data problem is fixed first (the control rows go), then the repair is handed out.
  await expect(page.getByRole("heading", { name: "5. Execute" })).toBeVisible();
  lab("lab-control-clear", "control", "dbt", "clear");
  const launched = Date.now();
  await page.getByRole("button", { name: "Dispatch the reviewed repair" }).click();
  await expect(page.getByRole("progressbar", { name: "Repair progress" })).toBeVisible();
  const dispatched = page.getByTestId(`dispatched-${PIPELINE}`);
  const shown = dispatched.getByTestId("dbt-command");
  const base = `dbt-ol build --consume-structured-logs`;
  const wave1 = [
    `${base} --select revenue_daily --event-time-start 2026-08-17 --event-time-end 2026-08-18 --project-dir ${PROJECT_DIR}`,
    `${base} --select revenue_daily --event-time-start 2026-08-23 --event-time-end 2026-08-24 --project-dir ${PROJECT_DIR}`,
  ].join(" && ");
  const wave2 = `${base} --select running_balance --project-dir ${PROJECT_DIR}`;
  await expect(shown).toHaveText(wave1);
  await shot(page, "7-execute-wave-1");

  // The operator runs what the page shows, exactly; dbt's run_results.json says what it re-ran.
  const rerun: string[] = [];
  const runShown = async (label: string) => {
    const command = (await shown.textContent())!;
    // One invocation at a time (the line joins them with &&), to read each one's run_results.json.
    command.split(" && ").forEach((one, i) => {
      const { status, log } = runAsOperator(`${label}-${i + 1}`, one);
      expect(status, `${one}:\n${log.slice(-2000)}`).toBe(0);
      const { ran, failed } = pairsOfRunResults();
      expect(failed).toEqual([]);
      rerun.push(...ran);
    });
  };
  await runShown("operator-wave-1");
  await expect(shown).toHaveText(wave2, { timeout: 120_000 });
  await shot(page, "8-execute-wave-2");
  await runShown("operator-wave-2");
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 120_000 });
  times.repairInDbt = Math.round((Date.now() - launched) / 100) / 10;
  await expect(page.getByTestId("progress-count")).toHaveText("3 of 3 pairs done · 3 succeeded · 0 failed or blocked");
  await shot(page, "9-execute-done");

  // dbt's own record: exactly the planned pairs, each once; the export not sent again.
  result.pairsRerun = rerun.length;
  result.extraRerun = rerun.filter((p) => !planned.has(p)).length;
  expect(rerun.sort()).toEqual([...planned].sort());
  expect(result.extraRerun).toBe(0);
  expect(Object.keys(await revenueRows())).toEqual(daysBetween(FIRST, LAST));

  // 6. Validate: the batches' events came back through dbt-ol; the ledger says they and the balance are there.
  const { entries, text } = await validateAndResolve(page, id, {
    verdict: ["Validation passes: all 3 units in the ledger, published once, not stale."],
    reason: "dbt rebuilt the two batches and the balance; all three are back in the ledger",
    shot: (name) => shot(page, name),
    shots: ["10-validate", "11-close"],
  });
  result.validated = true;

  // On the record: the commands handed out, wave by wave.
  expect(entries.filter((e) => e.kind === "repair.dispatched")).toHaveLength(2);
  expect(text).not.toContain(ingestToken);
  const ofPipeline = await (await api.get(`/api/v1/incidents?status=all&pipeline=${PIPELINE}`)).json();
  expect(ofPipeline.incidents.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([[id, "resolved"]]);

  // The overview no longer lists the repaired batches (the skipped export is the finance team's call).
  await page.goto("/");
  await expect(page.getByTestId(`failure-${REVENUE}-2026-08-17`)).toHaveCount(0);
  await expect(page.getByTestId(`failure-${REVENUE}-2026-08-23`)).toHaveCount(0);
  await expect(page.getByTestId(`failure-${MODEL("running_balance")}-*`)).toHaveCount(0);
  times.journey = Math.round((Date.now() - t0) / 100) / 10;
});
