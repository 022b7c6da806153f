import fs from "node:fs";
import path from "node:path";
import { PEERS_SECRET_DIR, PEERS_URL } from "../../playwright.peers.config";
import { expect, test } from "../fixtures";
import { WAREHOUSE_URL, daysBetween, emptyResult, ingestedEvents, labSpec, poster, rowsOfDay, validateAndResolve, writeResult } from "./lab-support";

/**
 * The Dagster closed loop against the REAL Dagster 1.13 of the peers lab (issue 31, item 3).
 * Nothing here plays Dagster: the lab's code location (peers/dagster/lab_orders.py) runs its days
 * as real runs in the lab instance, two of them failing on stg_orders from the control table (one
 * after writing half its rows); the console learns it only through Reparo's own Dagster source
 * (the `dagster-poll` job reading Dagster's GraphQL API) once an admin connects the asset group
 * `lab_orders`, as docs/dagster-source.md tells a team; the team's declaration file (peers/dagster/
 * reparo.yaml) is applied with a declare token; a commander repairs it in the browser — the
 * half-written unit cleaned in the real table, the plan, Dagster's own read of it beside it, the
 * launch — and Dagster's backfill daemon re-runs exactly the planned (asset, partition) pairs,
 * checked from Dagster's records (its backfills' runs and partitions). The re-run comes back
 * through the source; validation; every request sent to Dagster on the record.
 *
 * The window is shorter than Airflow's (docs/peers-lab.md, "Dagster: the closed loop's budget"):
 * 2026-08-26 … 08-31, stg_orders failing on 08-29 (half) and 08-30 (clean), so running_balance —
 * which the backfill daemon advances one partition per iteration — is repaired over 3 days.
 */
test.describe.configure({ mode: "serial" });

const DAGSTER = "http://127.0.0.1:23070";
const NS = "dagster-lab";
const GROUP = "lab_orders";
const PIPELINE = `${NS}/${GROUP}`;
const STG = `job:${NS}:stg_orders`;
const FIRST = "2026-08-26";
const LAST = "2026-08-31";
const HALF = "2026-08-29";
const CLEAN = "2026-08-30";
const DAYS = daysBetween(FIRST, LAST);

const spec = labSpec("dagster");
const { times, sh, lab, timed, shot } = spec;

let declareToken = "";
const result = emptyResult();

// ---------------------------------------------------------------- the real Dagster's own records
async function gql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${DAGSTER}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, variables }) });
  expect(res.status, `Dagster GraphQL ${query.slice(0, 60)}`).toBe(200);
  const body = (await res.json()) as { data?: T; errors?: unknown[] };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!;
}

interface DagsterRun {
  runId: string;
  status: string;
  creationTime: number;
  tags: { key: string; value: string }[];
  assetSelection: { path: string[] }[] | null;
  stepStats: { stepKey: string; status: string | null }[];
}
const RUN_FIELDS = "runId status creationTime tags { key value } assetSelection { path } stepStats { stepKey status }";
const tagOf = (r: DagsterRun, key: string) => r.tags.find((t) => t.key === key)?.value;

/** Every run the lab instance holds, oldest first. */
async function runs(filter: Record<string, unknown> = {}): Promise<DagsterRun[]> {
  const data = await gql<{ runsOrError: { results: DagsterRun[] } }>(
    `query Runs($filter: RunsFilter) { runsOrError(filter: $filter, limit: 1000) { __typename ... on Runs { results { ${RUN_FIELDS} } } } }`,
    { filter },
  );
  return [...data.runsOrError.results].sort((a, b) => a.creationTime - b.creationTime);
}

/** The (asset, partition) pairs a run executed: its executed steps (the op is the asset's name) × its partition. */
const pairsOfRun = (r: DagsterRun): string[] =>
  r.stepStats.filter((s) => s.status === "SUCCESS" || s.status === "FAILURE").map((s) => `${s.stepKey} ${tagOf(r, "dagster/partition")}`);

interface Backfill {
  id: string;
  status: string;
  title: string | null;
  partitionNames: string[] | null;
  assetSelection: { path: string[] }[] | null;
  runs: DagsterRun[];
}
async function repairBackfills(): Promise<Backfill[]> {
  const data = await gql<{ partitionBackfillsOrError: { results: Backfill[] } }>(
    `{ partitionBackfillsOrError(limit: 100) { __typename ... on PartitionBackfills { results { id status title partitionNames assetSelection { path } runs(limit: 200) { ${RUN_FIELDS} } } } } }`,
  );
  return data.partitionBackfillsOrError.results;
}

/** Events the Dagster source makes of runs: the run's START and end, a START and an end per executed step. */
const expectedEvents = (rs: DagsterRun[]) => rs.reduce((n, r) => n + 2 + 2 * pairsOfRun(r).length, 0);

// ---------------------------------------------------------------- a. the lab's days run in the real Dagster
let monthRuns: DagsterRun[] = [];

test.beforeAll(async ({}, testInfo) => {
  spec.begin(testInfo, 600_000);
  declareToken = spec.token("declare", "dagster-declarations", "the team's declaration file");

  // A clean Dagster. No token to give it: Reparo reads Dagster, Dagster sends nothing.
  timed("dagsterUp", () => {
    lab("lab-down", "down", "dagster");
    lab("lab-up", "up", "dagster");
  });
  result.version = (await gql<{ version: string }>("{ version }")).version;
  expect(result.version).toBe("1.13.27");
  lab("lab-warehouse", "warehouse", "dagster");
  lab("lab-control-half", "control", "dagster", "set", "stg_orders", HALF, "half");
  lab("lab-control-clean", "control", "dagster", "set", "stg_orders", CLEAN, "clean");
  timed("schedule", () => lab("lab-schedule", "schedule", "dagster", FIRST, LAST));

  // Dagster's own record: one run per day, the two failed on stg_orders, nothing after it ran those days.
  monthRuns = await runs();
  expect(monthRuns.map((r) => tagOf(r, "dagster/partition"))).toEqual(DAYS);
  expect(monthRuns.filter((r) => r.status === "FAILURE").map((r) => tagOf(r, "dagster/partition"))).toEqual([HALF, CLEAN]);
  for (const r of monthRuns.filter((x) => x.status === "FAILURE")) expect(pairsOfRun(r).sort()).toEqual([`raw_orders ${tagOf(r, "dagster/partition")}`, `stg_orders ${tagOf(r, "dagster/partition")}`]);
  expect(monthRuns.filter((r) => r.status === "SUCCESS")).toHaveLength(DAYS.length - 2);
  // The half write stayed in the real table.
  expect(await rowsOfDay("dagster_lab.stg_orders", HALF)).toEqual({ rows: 20, distinct: 20 });
  expect(await rowsOfDay("dagster_lab.stg_orders", CLEAN)).toEqual({ rows: 0, distinct: 0 });
});

test.afterAll(() => {
  if (!spec.underPeersConfig()) return;
  writeResult("dagster", result, times);
  if (process.env.REPARO_PEERS_KEEP !== "1") lab("lab-down-end", "down", "dagster");
});

// ---------------------------------------------------------------- b. an admin connects the asset group; the source reads it
test("an admin connects the asset group lab_orders to the lab's Dagster: the dagster-poll job reads every run; the declaration file folds them onto days", async ({
  request,
}) => {
  await spec.signInAdmin(request);
  const asAdmin = { origin: PEERS_URL };
  const before = await ingestedEvents(request);

  // As docs/dagster-source.md has it: the pipeline is `<namespace>/<asset group>`, an open OSS webserver needs no token.
  const connected = await request.put(`/api/v1/pipelines/${encodeURIComponent(PIPELINE)}/orchestrator`, {
    headers: asAdmin,
    data: { connection: { kind: "dagster", baseUrl: DAGSTER }, reason: "lab_orders runs on the lab's Dagster" },
  });
  expect(connected.status(), await connected.text()).toBe(200);
  expect(await connected.json()).toMatchObject({ pipeline: GROUP, namespace: NS, connection: { kind: "dagster", baseUrl: DAGSTER } });

  // The source's polls bring every run: its START and end, and a START and an end per executed step.
  const t0 = Date.now();
  await expect
    .poll(() => ingestedEvents(request), { message: "events the Dagster source made of the lab's runs", timeout: 90_000, intervals: [1_000] })
    .toBe(before + expectedEvents(monthRuns));
  times.sourceRead = Math.round((Date.now() - t0) / 100) / 10;

  // The warehouse of the namespace, once its datasets are known (from the source's events).
  fs.mkdirSync(PEERS_SECRET_DIR, { recursive: true });
  const warehouseFile = path.join(PEERS_SECRET_DIR, "lab-warehouse-url");
  fs.writeFileSync(warehouseFile, `${WAREHOUSE_URL}\n`, { mode: 0o600 });
  const warehouse = await request.put(`/api/v1/warehouses/${encodeURIComponent(NS)}`, {
    headers: asAdmin,
    data: {
      connection: { kind: "postgresql", url: { file: warehouseFile }, tables: { stg_orders: { table: "dagster_lab.stg_orders", unitColumn: "order_day" } } },
      reason: "the lab's assets live in reparo_lab_warehouse",
    },
  });
  expect(warehouse.status(), await warehouse.text()).toBe(200);

  const declare = (label: string, ...flags: string[]) =>
    sh(label, "npx", ["tsx", "scripts/declare.ts", "peers/dagster/reparo.yaml", ...flags], { REPARO_URL: PEERS_URL, REPARO_TOKEN: declareToken }).stdout;
  const applied = timed("declare", () => declare("declare-apply", "--apply"));
  expect(applied).toMatch(new RegExp(`${PEERS_URL}: \\d+ facts changed, 0 already held`));
  expect(applied).toContain("stored runs folded again");

  // The failures are days, with the user code's own error (the cause Dagster keeps under its step error).
  const overview = await (await request.get("/api/v1/overview")).json();
  const ofDagster = overview.failures.filter((f: { pipeline: string }) => f.pipeline === GROUP);
  expect(ofDagster.map((f: { taskNodeId: string; unitKey: string }) => `${f.taskNodeId} ${f.unitKey}`)).toEqual([`${STG} ${HALF}`, `${STG} ${CLEAN}`]);
  expect(ofDagster[0].error).toContain(`lab_control: dagster.stg_orders failed for ${HALF} after writing half of the rows (mode half)`);
});

// ---------------------------------------------------------------- c. the commander's repair, run by Dagster's backfill daemon
test("the commander repairs stg_orders 08-29 and 08-30 through Dagster's backfill daemon: cleaned for real, exactly the plan re-run, validated, on the record", async ({
  page,
}) => {
  test.setTimeout(720_000);
  const t0 = Date.now();
  const api = page.request;
  const post = poster(api);
  await spec.signInCommander(page);

  // The overview: the two failures Dagster recorded; 08-29 wrote half its rows before failing.
  await page.goto("/");
  const fHalf = page.getByTestId(`failure-stg_orders-${HALF}`);
  await expect(fHalf).toContainText(`lab_control: dagster.stg_orders failed for ${HALF} after writing half of the rows (mode half)`);
  await expect(fHalf.getByTestId("failure-tries")).toHaveText("1");
  await expect(page.getByTestId(`failure-stg_orders-${CLEAN}`)).toContainText("before writing anything (mode clean)");
  await shot(page, "1-overview");

  await fHalf.getByRole("link", { name: "Plan a repair →" }).click();
  await expect(page.getByLabel("Failed task (node id)")).toHaveValue(STG);
  await page.getByLabel(/Why you are opening it/).fill(`Dagster: stg_orders failed on ${HALF} after writing half its rows`);
  await page.getByRole("button", { name: "Open the incident" }).click();
  await expect(page).toHaveURL(/\/incidents\/[a-z0-9]+$/);
  const id = page.url().split("/").pop()!;

  // 1. Scope: the closure, running_balance forward to the end of the month, the other failure it waits on.
  await expect(page.getByTestId("incident-status")).toHaveText("open");
  await expect(page.getByTestId("scope-running_balance-dataset")).toContainText(`${HALF} → ${LAST} (3)`);
  const waitsOn = page.getByTestId("waits-on");
  await expect(waitsOn).toContainText(`stg_orders ${CLEAN}`);
  await expect(waitsOn.getByRole("checkbox", { name: `Add stg_orders ${CLEAN} to this incident` })).toBeChecked();
  await shot(page, "2-scope");
  await page.getByLabel(/Why this scope/).fill(`running_balance cannot be rebuilt past ${CLEAN} without it`);
  await page.getByRole("button", { name: "Add and re-scope" }).click();

  // 2. Preconditions.
  await expect(page.getByRole("heading", { name: "2. Preconditions" })).toBeVisible();
  const verdict = (testId: string) => page.getByTestId(testId).getByRole("cell").nth(1);
  await expect(verdict("check-stg_orders-idempotent")).toHaveText("no — unsafe");
  await expect(verdict("check-finance_export-side_effects")).toHaveText("no — unsafe");
  await shot(page, "3-preconditions");
  await page.getByLabel(/Review note/).fill("stg_orders appends, running_balance is sequential, the finance export stays out");
  await page.getByRole("button", { name: "Record review →" }).click();

  // 3. Response: the append blocker with the rows PostgreSQL counts; clean them for real.
  await expect(page).toHaveURL(new RegExp(`/incidents/${id}/response$`));
  await expect(page.getByTestId("excluded-finance_export")).toContainText("excluded by default");
  const blocker = page.getByTestId("blocker-append_unresolved");
  await expect(blocker.getByTestId(`append-unit-${HALF}`).getByTestId("rows-in-unit")).toHaveText("20 rows already in the unit");
  await expect(blocker.getByTestId(`append-unit-${CLEAN}`).getByTestId("rows-in-unit")).toHaveText("0 rows already in the unit");
  await shot(page, "4-response-blocked");
  const otherDaysBefore = await Promise.all(DAYS.filter((d) => d !== HALF).map((d) => rowsOfDay("dagster_lab.stg_orders", d)));
  for (const [day, reason] of [
    [HALF, "remove the 20 rows the failed run left before the append runs again"],
    [CLEAN, "its run failed before writing: nothing to remove, checked by the count"],
  ] as const) {
    await page.getByTestId(`clean-${day}-open`).click();
    await page.getByTestId(`clean-${day}`).getByLabel(/Why/).fill(reason);
    await page
      .getByTestId(`clean-${day}`)
      .getByRole("button", { name: /^Confirm:/ })
      .click();
    await expect(page.getByTestId(`append-unit-${day}`)).toHaveCount(0);
  }
  await expect(page.getByTestId("no-blockers")).toBeVisible();
  expect(await rowsOfDay("dagster_lab.stg_orders", HALF)).toEqual({ rows: 0, distinct: 0 });
  expect(await Promise.all(DAYS.filter((d) => d !== HALF).map((d) => rowsOfDay("dagster_lab.stg_orders", d)))).toEqual(otherDaysBefore);
  await shot(page, "5-response-clean");
  await page.getByRole("button", { name: "Preview the plan →" }).click();

  // 4. Plan: exact pairs by wave, the export excluded; Dagster's own read of it beside it.
  await expect(page).toHaveURL(new RegExp(`/incidents/${id}/plan$`));
  const plan = await post(`/api/v1/incidents/${id}/plan/preview`, {});
  const planned = new Set<string>(
    plan.waves.flat().flatMap((t: { name: string; keyRanges: [string, string][] }) => t.keyRanges.flatMap(([a, b]) => daysBetween(a, b).map((d) => `${t.name} ${d}`))),
  );
  result.pairsPlanned = planned.size;
  expect([...planned].sort()).toEqual(
    [
      ...["stg_orders", "fct_orders", "revenue_daily"].flatMap((t) => [`${t} ${HALF}`, `${t} ${CLEAN}`]),
      ...daysBetween(HALF, LAST).map((d) => `running_balance ${d}`),
    ].sort(),
  );
  await expect(page.getByTestId("plan-excluded-finance_export")).toContainText(`finance_export ${HALF} → ${CLEAN}`);
  await page.getByTestId("dry-run-button").click();
  await expect(page.getByTestId("dry-run-result")).toContainText("4 requests will be sent, in 4 waves.");
  await expect(page.getByTestId("dry-run-same")).toHaveText("The orchestrator would run exactly the plan.");
  await expect(page.getByTestId("dry-run-missing")).toHaveCount(0);
  await shot(page, "6-plan-dry-run");
  await page.getByLabel(/Why this plan/).fill("re-run the failed days and their closure in Dagster; the finance export is not sent again");
  await page.getByRole("button", { name: "Confirm plan →" }).click();

  // 5. Execute: the data problem is fixed first (the control rows go), then the reviewed repair is dispatched.
  await expect(page.getByRole("heading", { name: "5. Execute" })).toBeVisible();
  lab("lab-control-clear", "control", "dagster", "clear");
  const launchedAt = Date.now() / 1000;
  const launched = Date.now();
  await page.getByRole("button", { name: "Dispatch the reviewed repair" }).click();
  await expect(page.getByRole("progressbar", { name: "Repair progress" })).toBeVisible();
  await expect(page.getByTestId(`dispatched-${GROUP}`)).toContainText("runs in dagster");
  await expect(page.getByTestId("run-status")).toHaveText("succeeded", { timeout: 540_000 });
  times.repairInDagster = Math.round((Date.now() - launched) / 100) / 10;
  await expect(page.getByTestId("progress-count")).toHaveText(`${planned.size} of ${planned.size} pairs done · ${planned.size} succeeded · 0 failed or blocked`);
  await shot(page, "7-execute");

  // Dagster's own record: the repair's backfills, their runs and partitions — exactly the plan; no other run since the launch.
  // Reparo counts a pair done once Dagster's counts say materialized; the backfill itself is marked
  // complete by the daemon's next iteration.
  const ofRepair = async () => (await repairBackfills()).filter((b) => b.title?.startsWith("Reparo repair"));
  await expect
    .poll(async () => (await ofRepair()).map((b) => b.status), { message: "the repair's backfills, as Dagster holds them", timeout: 60_000 })
    .toEqual(["COMPLETED_SUCCESS", "COMPLETED_SUCCESS", "COMPLETED_SUCCESS", "COMPLETED_SUCCESS"]);
  const backfills = await ofRepair();
  const rerun = backfills.flatMap((b) => b.runs.flatMap(pairsOfRun));
  result.pairsRerun = rerun.length;
  result.extraRerun = rerun.filter((x) => !planned.has(x)).length;
  expect(rerun.sort()).toEqual([...planned].sort());
  expect(result.extraRerun).toBe(0);
  const since = await runs({ createdAfter: launchedAt });
  const ofBackfills = new Set(backfills.flatMap((b) => b.runs.map((r) => r.runId)));
  expect(since.filter((r) => !ofBackfills.has(r.runId)).map((r) => r.runId), "runs since the launch that no repair backfill made").toEqual([]);
  expect(since.flatMap(pairsOfRun).filter((x) => x.startsWith("finance_export "))).toEqual([]);
  // The append ran once on the cleaned unit: one copy of the day's raw orders.
  const raw = await rowsOfDay("dagster_lab.raw_orders", HALF);
  expect(await rowsOfDay("dagster_lab.stg_orders", HALF)).toEqual({ rows: raw.rows, distinct: raw.rows });

  // 6. The re-run comes back through the source: every planned unit in the ledger again, then validation.
  await expect
    .poll(
      async () => {
        const v = await (await api.get(`/api/v1/incidents/${id}/validation`)).json();
        return v.units.filter((u: { checks: { inLedger: boolean } }) => u.checks.inLedger).length;
      },
      { message: "planned units published again, read by the Dagster source", timeout: 90_000 },
    )
    .toBe(planned.size);
  const { entries, text } = await validateAndResolve(page, id, {
    // Dagster's materializations carry dagster/partition_row_count: the units are counted, non-empty;
    // the lab declares no source count to reconcile them against.
    verdict: [
      `Validation passes: all ${planned.size} units in the ledger, published once, non-empty, not stale.`,
      `${planned.size} units had no source count to reconcile against.`,
    ],
    reason: "Dagster's backfills re-ran the planned partitions; they are back in the ledger",
    shot: (name) => shot(page, name),
    shots: ["8-validate", "9-close"],
  });
  result.validated = true;

  // Every request sent to Dagster is on the record, with the backfill ids Dagster holds — and no secret.
  const calls = entries.flatMap((e) => (e.after as { calls?: { method: string; url: string; status: number | null; ids?: Record<string, unknown> }[] } | null)?.calls ?? []);
  expect(calls.length).toBeGreaterThan(0);
  expect(calls.every((c) => c.method === "POST" && c.url === `${DAGSTER}/graphql`)).toBe(true);
  const launchedIds = entries
    .filter((e) => e.kind === "repair.dispatched")
    .flatMap((e) => ((e.after as { calls?: { ids?: { backfillId?: string } }[] }).calls ?? []).map((c) => c.ids?.backfillId));
  expect(launchedIds.sort()).toEqual(backfills.map((b) => b.id).sort());
  expect(text).not.toContain(WAREHOUSE_URL);
  expect(text).not.toContain(declareToken);

  const ofPipeline = await (await api.get(`/api/v1/incidents?status=all&pipeline=${GROUP}`)).json();
  // (Airflow's loop, on the same console, has a pipeline of the same name in its own namespace.)
  expect(ofPipeline.incidents.map((i: { id: string; status: string }) => [i.id, i.status])).toContainEqual([id, "resolved"]);
  await page.goto("/");
  await expect(page.getByTestId(`failure-stg_orders-${HALF}`)).toHaveCount(0);
  await expect(page.getByTestId(`failure-stg_orders-${CLEAN}`)).toHaveCount(0);
  times.journey = Math.round((Date.now() - t0) / 100) / 10;
});
