import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../testing/test-database";
import { receiveLineageRequest } from "../http/ingestion-requests";
import { tableCounts } from "./testing/db-snapshot";
import { fixtureEvents, fixtureText, lineageRequest } from "./testing/fixtures";

// Expected numbers worked out from the files themselves (test/fixtures/SOURCES.md):
// edges = distinct (job, dataset, read|write) pairs; parent links = runs with a parent facet;
// pipelines = distinct root jobs named by a parent facet; dbt-ol's SQL statements (`<node>.sql.<n>`,
// structured-logs mode) are parts of their node's run, neither tasks nor runs. dbt-ol's tests (jobType TEST) are checks
// of what they read: their store-failures outputs are not datasets (build: 12 of 21, test: 4 of 6).
const CASES = [
  // Airflow sends no row counts: its 10 completed task runs that write a dataset publish it, rows unknown.
  { file: "openlineage/compat_airflow_3dags.ndjson", events: 32, tasks: 16, datasets: 13, runs: 16, edges: 24, pipelines: 3, parentLinks: 13, publishes: 10 },
  {
    file: "openlineage/compat_spark_bigquery_shakespeare.ndjson",
    events: 12,
    tasks: 3,
    datasets: 2,
    runs: 3,
    edges: 3,
    pipelines: 1,
    parentLinks: 2,
    publishes: 1,
  },
  { file: "openlineage/compat_spark_cll.ndjson", events: 9, tasks: 4, datasets: 3, runs: 4, edges: 5, pipelines: 1, parentLinks: 3, publishes: 1 },
  {
    file: "openlineage/compat_spark_dataproc_hive_t1_t2.ndjson",
    events: 16,
    tasks: 6,
    datasets: 2,
    runs: 7,
    edges: 7,
    pipelines: 1,
    parentLinks: 6,
    publishes: 2,
  },
  {
    file: "openlineage/dbt_ol_postgres_build_events.json",
    events: 186,
    // 20 nodes and the command; dbt-ol's 72 SQL statements (`<node>.sql.<n>`) are parts of their node's run.
    tasks: 21,
    datasets: 9,
    runs: 21,
    edges: 28,
    pipelines: 1,
    parentLinks: 20,
    // dbt-ol for PostgreSQL sends empty outputFacets: each model that completed published, rows unknown.
    publishes: 8,
  },
  {
    file: "openlineage/dbt_ol_postgres_failed_run_events.json",
    events: 8,
    tasks: 2,
    datasets: 3,
    runs: 2,
    edges: 3,
    pipelines: 1,
    parentLinks: 1,
    publishes: 0,
  },
  { file: "openlineage/dbt_ol_postgres_test_events.json", events: 26, tasks: 5, datasets: 2, runs: 5, edges: 5, pipelines: 1, parentLinks: 4, publishes: 0 },
  {
    file: "openlineage/ol_client_python_example_full_event.json",
    events: 1,
    tasks: 1,
    datasets: 1,
    runs: 1,
    edges: 2,
    pipelines: 1,
    parentLinks: 1,
    publishes: 1,
  },
  { file: "marquez/apples.ndjson", events: 8, tasks: 5, datasets: 9, runs: 8, edges: 14, pipelines: 0, parentLinks: 0, publishes: 8 },
  { file: "marquez/metadata.json", events: 26, tasks: 13, datasets: 13, runs: 13, edges: 27, pipelines: 0, parentLinks: 0, publishes: 13 },
];

describe.each(providersUnderTest())("OpenLineage fixtures on %s", (provider) => {
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase(provider);
  });
  afterEach(async () => t.drop());
  const post = async (body: string) => receiveLineageRequest(lineageRequest(body), t.db);

  it.each(CASES)("$file ingests into the graph, runs and ledger its data implies", async (c) => {
    const res = await post(fixtureText(c.file));
    expect(res.status).toBe(200);
    const counts = await tableCounts(t.db);
    expect(counts).toMatchObject({
      events: c.events,
      tasks: c.tasks,
      datasets: c.datasets,
      runs: c.runs,
      edges: c.edges,
      pipelines: c.pipelines,
      publishes: c.publishes,
      invalidKeys: 0,
    });
    expect(await t.db.run.count({ where: { parentRunId: { not: null } } })).toBe(c.parentLinks);
    const again = await (await post(fixtureText(c.file))).json();
    expect(again.written.events).toBe(0);
    expect(again.accepted.every((a: { duplicate: boolean }) => a.duplicate)).toBe(true);
    expect(await tableCounts(t.db)).toEqual(counts);
  });

  it("Airflow: three DAG runs own their task runs, every run and attempt succeeded", async () => {
    await post(fixtureText("openlineage/compat_airflow_3dags.ndjson"));
    const pipelines = await t.db.pipeline.findMany({ include: { runs: true, tasks: true }, orderBy: { name: "asc" } });
    expect(pipelines.map((p) => [p.name, p.runs.length, p.tasks.length])).toEqual([
      ["BQ", 4, 4],
      ["dag", 2, 2],
      ["gcs_hook", 10, 10],
    ]);
    const dagRuns = await t.db.run.findMany({ where: { parentRunId: null } });
    expect(dagRuns).toHaveLength(3);
    const children = await t.db.run.findMany({ where: { parentRunId: { not: null } } });
    expect(children.every((r) => dagRuns.some((d) => d.id === r.rootRunId && d.id === r.parentRunId))).toBe(true);
    expect(new Set((await t.db.run.findMany()).map((r) => `${r.kind}/${r.status}`))).toEqual(new Set(["manual/succeeded"]));
    expect(await t.db.attempt.count({ where: { status: "succeeded", unitKey: "*", tryNumber: 1 } })).toBe(16);
  });

  it("Spark: a COMPLETE row count replaces the RUNNING one in the ledger (0 → 1)", async () => {
    await post(fixtureText("openlineage/compat_spark_bigquery_shakespeare.ndjson"));
    const [publish] = await t.db.publish.findMany({ include: { dataset: true } });
    expect(publish).toMatchObject({ rowCount: 1, unitKey: "*" });
    expect(publish!.dataset.name).toBe("/tmp/outputs/1729097570970");
  });

  it("Spark on Dataproc: RUNNING-only statistics publish t1 and t2 with 2 rows each", async () => {
    await post(fixtureText("openlineage/compat_spark_dataproc_hive_t1_t2.ndjson"));
    const rows = await t.db.publish.findMany({ include: { dataset: true }, orderBy: { publishedAt: "asc" } });
    expect(rows.map((p) => [p.dataset.name, p.rowCount])).toEqual([
      ["/user/hive/warehouse/t1", 2],
      ["/user/hive/warehouse/t2", 2],
    ]);
    const drop = await t.db.task.findFirstOrThrow({ where: { name: "cl_i_test_application.drop_table" } });
    expect(await t.db.run.count({ where: { attempts: { some: { taskId: drop.id } } } })).toBe(2);
  });

  it("dbt-ol failed run: the error message reaches the attempt; model and command fail (the query is part of the model's run)", async () => {
    await post(fixtureText("openlineage/dbt_ol_postgres_failed_run_events.json"));
    const attempts = await t.db.attempt.findMany({ include: { task: true } });
    const failed = attempts
      .filter((a) => a.status === "failed")
      .map((a) => a.task.name)
      .sort();
    expect(failed).toEqual(["dbt-run-jaffle_shop", "model.jaffle_shop.orders"]);
    const model = attempts.find((a) => a.task.name === "model.jaffle_shop.orders")!;
    expect(model.error).toContain('syntax error at or near "final"');
    const command = await t.db.run.findFirstOrThrow({ where: { parentRunId: null } });
    expect(command.status).toBe("failed");
    expect(await t.db.run.count({ where: { rootRunId: command.id } })).toBe(1);
  });

  it("dbt-ol build: 2 failures (the accepted_values test and the command), 19 successes", async () => {
    await post(fixtureText("openlineage/dbt_ol_postgres_build_events.json"));
    expect(await t.db.attempt.count({ where: { status: "failed" } })).toBe(2);
    expect(await t.db.attempt.count({ where: { status: "succeeded" } })).toBe(19);
  });

  it("python client full event: nominal time, parent and a 2,000-row publish", async () => {
    await post(fixtureText("openlineage/ol_client_python_example_full_event.json"));
    const run = await t.db.run.findFirstOrThrow();
    expect(run.nominalTime?.toISOString()).toBe("2020-12-17T03:00:00.001Z");
    expect(run.kind).toBe("scheduled");
    expect((await t.db.publish.findFirstOrThrow()).rowCount).toBe(2000);
  });

  it("Marquez metadata.template.json: the raw template is refused (placeholders), the filled template ingests", async () => {
    const raw = await post(fixtureText("marquez/metadata.template.json"));
    expect(raw.status).toBe(400);
    expect((await raw.json()).rejected[0].issues[0].path).toBe("body[0].eventTime");
    const filled = fillMarquezTemplate(fixtureText("marquez/metadata.template.json"), Date.UTC(2026, 7, 17, 2));
    expect((await post(filled)).status).toBe(200);
    expect(await tableCounts(t.db)).toMatchObject({ events: 26, tasks: 13, datasets: 13, runs: 13, edges: 27 });
  });

  it("sending the Airflow file in reverse, event by event, ends in the same graph and runs", async () => {
    const events = fixtureEvents("openlineage/compat_airflow_3dags.ndjson").reverse();
    for (const e of events) expect((await post(JSON.stringify(e))).status).toBe(200);
    expect(await tableCounts(t.db)).toMatchObject({ events: 32, tasks: 16, datasets: 13, runs: 16, edges: 24, pipelines: 3 });
    expect(await t.db.run.count({ where: { status: "succeeded" } })).toBe(16);
  });
});

/** What Marquez's docker/seed.sh does: start times now, end times N minutes later. */
function fillMarquezTemplate(text: string, startMs: number): string {
  return text
    .replaceAll("{{RUN_START_TIME}}", new Date(startMs).toISOString())
    .replace(/\{\{RUN_END_TIME_AFTER_(\d+)_MINUTES\}\}/g, (_, n: string) => new Date(startMs + Number(n) * 60_000).toISOString());
}
