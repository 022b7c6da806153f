import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DbtImportBodySchema } from "@/lib/contracts/ingestion-dbt";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { readAlertConfig } from "../alerts/alert-config";
import { evaluateAlertsNow } from "../alerts/evaluate-alerts-now";
import { getCompleteness } from "../completeness/get-completeness";
import { errorResponse } from "../http/route";
import { getOverview } from "../overview/get-overview";
import { setDatasetPartitions } from "./set-dataset-partitions";
import { importDbtArtifacts } from "./import-dbt-artifacts";

const NOW = new Date("2026-12-01T12:00:00Z");
import { receiveLineageRequest } from "../http/ingestion-requests";
import { tableCounts } from "./testing/db-snapshot";
import { fixtureText, lineageRequest } from "./testing/fixtures";

const body = (dir: string, options: { namespace?: string; datasetNamespace?: string } = {}) => {
  const read = (f: string) => {
    try {
      return JSON.parse(fixtureText(`dbt/${dir}/${f}`));
    } catch {
      return undefined;
    }
  };
  return DbtImportBodySchema.parse({ manifest: read("manifest.json"), run_results: read("run_results.json"), ...options });
};

// Worked out from the files (test/fixtures/SOURCES.md): nodes by resource type; tasks = models +
// seeds + snapshots + tests (checks); datasets = the relations models, seeds and snapshots build +
// sources (a test builds nothing to complete); dependencies = parent_map edges; edges =
// dependencies (reads) + one write per model, seed and snapshot; run_results statuses; publishes =
// successful models/seeds/snapshots (with rows_affected when the adapter reports one, else rows
// unknown: a view). Units never published: only the models that failed or were skipped in
// run_results (fail: the broken view and the table downstream of it); a seed or table the run did
// not build, and a source, are not holes: no definition is declared, so their expected units are unknown.
const CASES = [
  {
    dir: "ol_fixture_fail",
    version: 2,
    nodes: { model: 4, source: 1 },
    tasks: 4,
    datasets: 5,
    dependencies: 4,
    edges: 8,
    run: "failed",
    attempts: { failed: 1, succeeded: 2, upstream_failed: 1 },
    publishes: 2,
    dangling: 10,
    neverPublished: 2,
  },
  {
    dir: "ol_fixture_jaffle_postgres_run",
    version: 7,
    nodes: { model: 5, seed: 3, test: 20 },
    tasks: 28,
    datasets: 8,
    dependencies: 29,
    edges: 37,
    run: "succeeded",
    attempts: { succeeded: 5 },
    publishes: 5,
    dangling: 0,
    neverPublished: 0,
  },
  {
    dir: "ol_fixture_jaffle_spark_build",
    version: 4,
    nodes: { model: 5, seed: 3, test: 20 },
    tasks: 28,
    datasets: 8,
    dependencies: 29,
    edges: 37,
    run: "succeeded",
    attempts: { succeeded: 28 },
    publishes: 8,
    dangling: 0,
    neverPublished: 0,
  },
  {
    dir: "ol_fixture_test_failures",
    version: 2,
    nodes: { model: 4, test: 14, source: 2 },
    tasks: 18,
    datasets: 6,
    dependencies: 18,
    edges: 22,
    run: "failed",
    attempts: { failed: 4, succeeded: 10 },
    publishes: 0,
    dangling: 0,
    neverPublished: 0,
  },
  {
    dir: "ol_structured_logs_postgres_build",
    version: 12,
    nodes: { model: 5, seed: 3, snapshot: 1, test: 21 },
    tasks: 30,
    datasets: 9,
    dependencies: 31,
    edges: 40,
    run: null,
    attempts: null,
    publishes: 0,
    dangling: 0,
    neverPublished: 0,
  },
];

describe.each(providersUnderTest())("dbt import on %s", (provider) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(provider);
  });
  afterEach(async () => t.drop());

  it.each(CASES)("$dir (manifest v$version) imports to the graph and run its data implies", async (c) => {
    const r = await importDbtArtifacts(t.db, body(c.dir));
    expect(r).toMatchObject({ manifestVersion: c.version, nodes: c.nodes, tasks: c.tasks, datasets: c.datasets, dependencies: c.dependencies });
    expect(r.dangling).toHaveLength(c.dangling);
    expect(r.run?.status ?? null).toBe(c.run);
    expect(r.run?.attempts ?? null).toEqual(c.attempts);
    const counts = await tableCounts(t.db);
    expect(counts).toMatchObject({
      tasks: c.tasks,
      datasets: c.datasets,
      edges: c.edges,
      runs: c.run ? 1 : 0,
      publishes: c.publishes,
      pipelines: 1,
      invalidKeys: 0,
    });
    expect(await t.db.lineageEdge.count({ where: { direction: "read" } })).toBe(c.dependencies);
    expect((await getOverview(NOW, t.db)).counts.missingUnits).toBe(c.neverPublished);
    expect(await t.db.task.count({ where: { kind: "check" } })).toBe(c.nodes.test ?? 0);
    const again = await importDbtArtifacts(t.db, body(c.dir));
    expect(again.written).toEqual({ tasks: 0, datasets: 0, edges: 0, runs: 0, attempts: 0, publishes: 0, invalidKeys: 0 });
    expect(await tableCounts(t.db)).toEqual(counts);
  });

  it("a trimmed manifest: the ten tests child_map names but nodes lacks are reported; the failed model blocks its child", async () => {
    const r = await importDbtArtifacts(t.db, body("ol_fixture_fail"));
    expect(r.dangling).toEqual([
      "test.dbt_bigquery_test.not_null_test_first_dbt_model_id.a8c5d0180a",
      "test.dbt_bigquery_test.not_null_test_second_dbt_model_id.6458075b2a",
      "test.dbt_bigquery_test.not_null_test_second_parallel_dbt_model_id.92c37ea38b",
      "test.dbt_bigquery_test.not_null_test_third_dbt_model_id.ee37a1e1fb",
      "test.dbt_bigquery_test.not_null_test_third_dbt_model_second_id.808ed9e604",
      "test.dbt_bigquery_test.unique_test_first_dbt_model_id.1f3ee5c4a1",
      "test.dbt_bigquery_test.unique_test_second_dbt_model_id.ba8cd8dfe1",
      "test.dbt_bigquery_test.unique_test_second_parallel_dbt_model_id.d59ed1725f",
      "test.dbt_bigquery_test.unique_test_third_dbt_model_id.66d6711da6",
      "test.dbt_bigquery_test.unique_test_third_dbt_model_second_id.f3c38f3b89",
    ]);
    const attempts = await t.db.attempt.findMany({ include: { task: true }, orderBy: { task: { name: "asc" } } });
    expect(attempts.map((a) => [a.task.name.split(".")[2], a.status, a.unitKey])).toEqual([
      ["test_first_dbt_model", "succeeded", "*"],
      ["test_second_dbt_model", "succeeded", "*"],
      ["test_second_parallel_dbt_model", "failed", "*"],
      ["test_third_dbt_model", "upstream_failed", "*"],
    ]);
    expect(attempts[2]!.error).toMatch(
      /^Database Error in model test_second_parallel_dbt_model .*Syntax error: Expected end of input but got identifier "bork"/s,
    );
    const [publish] = await t.db.publish.findMany({ include: { dataset: true } });
    expect([publish!.dataset.nodeId, publish!.rowCount, publish!.unitKey]).toEqual([
      "dataset:bigquery:random-gcp-project.dbt_test1.test_first_dbt_model",
      2,
      "*",
    ]);
    // The datasets dbt-ol's expected events name for this project (expected_ol_events.json).
    const names = (await t.db.dataset.findMany({ orderBy: { name: "asc" } })).map((d) => `${d.namespace}|${d.name}|${d.kind}`);
    expect(names).toContain("bigquery|random-gcp-project.dbt_test1.source_table|source");
    expect(names).toContain("bigquery|random-gcp-project.dbt_test1.test_second_parallel_dbt_model|table");
  });

  it("test failures: four tests failed with dbt's message; writes modes come from materializations", async () => {
    await importDbtArtifacts(t.db, body("ol_fixture_test_failures"));
    const failed = await t.db.attempt.findMany({ where: { status: "failed" }, include: { task: true }, orderBy: { task: { name: "asc" } } });
    expect(failed.map((a) => [a.task.name.slice(0, 60), a.error])).toEqual([
      ["test.dbt_bigquery_test.dbt_expectations_expect_column_median", "Got 6 results, configured to fail if != 0"],
      ["test.dbt_bigquery_test.dbt_expectations_expect_column_quanti", "Got 6 results, configured to fail if != 0"],
      ["test.dbt_bigquery_test.unique_test_first_dbt_model_id.1f3ee5", "Got 1 result, configured to fail if != 0"],
      ["test.dbt_bigquery_test.unique_test_second_dbt_model_id.ba8cd", "Got 1 result, configured to fail if != 0"],
    ]);
    // Two table and two view models: a rebuild replaces the relation; tests build nothing repairable.
    const modes = await t.db.task.groupBy({ by: ["writeMode"], _count: true, orderBy: { writeMode: "asc" } });
    expect(modes.map((m) => [m.writeMode, m._count])).toEqual(
      expect.arrayContaining([
        ["replace", 4],
        [null, 14],
      ]),
    );
    expect(modes).toHaveLength(2);
  });

  it("v12: the snapshot merges, seeds, tables and views replace", async () => {
    await importDbtArtifacts(t.db, body("ol_structured_logs_postgres_build"));
    const tasks = await t.db.task.findMany({ where: { NOT: { name: { startsWith: "test." } } }, orderBy: { name: "asc" } });
    expect(tasks.map((x) => `${x.name}:${x.writeMode}`)).toEqual([
      "model.jaffle_shop.customers:replace",
      "model.jaffle_shop.orders:replace",
      "model.jaffle_shop.stg_customers:replace",
      "model.jaffle_shop.stg_orders:replace",
      "model.jaffle_shop.stg_payments:replace",
      "seed.jaffle_shop.raw_customers:replace",
      "seed.jaffle_shop.raw_orders:replace",
      "seed.jaffle_shop.raw_payments:replace",
      "snapshot.jaffle_shop.orders_snapshot:merge",
    ]);
  });

  it("the v12 manifest and dbt-ol's events for the same build land on the same nodes", async () => {
    const r = await importDbtArtifacts(
      t.db,
      body("ol_structured_logs_postgres_build", { namespace: "dbt-test-namespace", datasetNamespace: "postgres://postgres:5432" }),
    );
    expect(r.warnings).toEqual([]);
    const before = await tableCounts(t.db);
    expect((await receiveLineageRequest(lineageRequest(fixtureText("openlineage/dbt_ol_postgres_build_events.json")), t.db)).status).toBe(200);
    const after = await tableCounts(t.db);
    // dbt-ol adds only what a manifest does not hold: the command's job (its 72 per-query `.sql.N`
    // jobs are parts of their node's run, not tasks).
    expect(after.datasets).toBe(before.datasets);
    expect(after.tasks - before.tasks).toBe(1);
    expect(await t.db.task.count({ where: { name: { contains: ".sql." } } })).toBe(0);
    expect(after.pipelines).toBe(1);
    const added = await t.db.task.findMany({ orderBy: { name: "asc" } });
    expect(added.length).toBe(31);
    expect(added.filter((x) => !x.name.includes("jaffle_shop.")).map((x) => x.nodeId)).toEqual(["job:dbt-test-namespace:dbt-run-jaffle_shop"]);
    expect(
      await t.db.attempt.findFirst({ where: { task: { name: { startsWith: "test.jaffle_shop.accepted_values_customers_first_name__Jane" } } } }),
    ).toMatchObject({ status: "failed" });
  });

  it("a failing test is a check of the model it reads: a check_failed data alert on that dataset names the test and dbt's message", async () => {
    await importDbtArtifacts(t.db, body("ol_fixture_test_failures"));
    const alerts = (await evaluateAlertsNow(t.db, NOW, readAlertConfig())).filter((a) => a.rule === "check_failed");
    expect(alerts.map((a) => [a.datasetName, a.details.length])).toEqual([
      ["random-gcp-project.dbt_test1.test_first_dbt_model", 3],
      ["random-gcp-project.dbt_test1.test_second_dbt_model", 1],
    ]);
    expect(alerts[0]!.details.every((d) => / Got \d+ results?, configured to fail if != 0$/.test(d))).toBe(true);
    // Tests build nothing to complete: no dataset for a store-failures table.
    expect(await t.db.dataset.count({ where: { name: { contains: "dbt_test__audit" } } })).toBe(0);
  });

  it("a microbatch model: each batch is an attempt on the unit holding its start, a failed batch a failed unit; partial success fails the model", async () => {
    const b = body("ol_fixture_jaffle_postgres_run");
    await importDbtArtifacts(t.db, DbtImportBodySchema.parse({ manifest: b.manifest }));
    const orders = "dataset:postgres://localhost:5432:postgres.public.orders";
    await setDatasetPartitions(
      orders,
      { partitionDef: { kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-31", timezone: "UTC" }, reason: "daily microbatches" },
      { id: "ola", role: "operator", source: "proxy", namespaces: [] },
      t.db,
      NOW,
    );
    const microbatch = {
      ...b.run_results!,
      metadata: { ...b.run_results!.metadata, dbt_schema_version: "https://schemas.getdbt.com/dbt/run-results/v6.json", invocation_id: "mb-1" },
      results: [
        {
          unique_id: "model.jaffle_shop.orders",
          status: "partial success",
          message: "PARTIAL SUCCESS (2/3)",
          failures: null,
          timing: [{ name: "execute", started_at: "2026-08-20T01:00:00Z", completed_at: "2026-08-20T01:05:00Z" }],
          adapter_response: { rows_affected: 300 },
          batch_results: {
            successful: [
              ["2026-08-17T00:00:00+00:00", "2026-08-18T00:00:00+00:00"],
              ["2026-08-18T00:00:00+00:00", "2026-08-19T00:00:00+00:00"],
            ],
            failed: [["2026-08-19T00:00:00+00:00", "2026-08-20T00:00:00+00:00"]],
          },
        },
      ],
    };
    const r = await importDbtArtifacts(t.db, DbtImportBodySchema.parse({ manifest: b.manifest, run_results: microbatch }));
    expect(r.run).toMatchObject({ status: "failed", attempts: { succeeded: 2, failed: 1 } });
    const attempts = await t.db.attempt.findMany({ where: { task: { nodeId: "job:default:model.jaffle_shop.orders" } }, orderBy: { unitKey: "asc" } });
    expect(attempts.map((a) => [a.unitKey, a.status])).toEqual([
      ["2026-08-17", "succeeded"],
      ["2026-08-18", "succeeded"],
      ["2026-08-19", "failed"],
    ]);
    expect(attempts[2]!.error).toBe("PARTIAL SUCCESS (2/3)");
    // Each successful batch published its day; one rows_affected for two batches cannot be split: rows unknown.
    const publishes = await t.db.publish.findMany({ where: { dataset: { nodeId: orders } }, orderBy: { unitKey: "asc" } });
    expect(publishes.map((p) => [p.unitKey, p.rowCount])).toEqual([
      ["2026-08-17", null],
      ["2026-08-18", null],
    ]);
  });

  it("completeness of a relation nobody declared units for says so (422), never 'missing'; a view that built is present, rows unknown", async () => {
    await importDbtArtifacts(t.db, body("ol_fixture_jaffle_postgres_run"));
    const source = "dataset:postgres://localhost:5432:postgres.public.raw_customers";
    const r = await getCompleteness({ dataset: source }, NOW, t.db).catch(errorResponse);
    expect((r as Response).status).toBe(422);
    expect(((await (r as Response).json()) as { message: string }).message).toMatch(
      /^query\.dataset: .*raw_customers has no declared partition definition, so its expected units are unknown/,
    );
    // dbt reports no rows for a view: it built, so its unit is published, rows unknown — present, not counted.
    const view = await getCompleteness({ dataset: "dataset:postgres://localhost:5432:postgres.public.stg_orders" }, NOW, t.db);
    expect([view.verdict, view.expectedUnits]).toEqual(["complete", 1]);
    expect(JSON.stringify(view)).toContain("published without a row count");
    // A table that published its unit is judged on it: complete.
    const table = await getCompleteness({ dataset: "dataset:postgres://localhost:5432:postgres.public.customers" }, NOW, t.db);
    expect([table.verdict, table.expectedUnits]).toEqual(["complete", 1]);
  });
});
