import crypto from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { buildSchema, parse, validate } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openIncident } from "../incidents/open-incident";
import { receiveLineageRequest } from "../http/ingestion-requests";
import { lineageRequest } from "../ingestion/testing/fixtures";
import { airflowContract } from "@/test/peers/fake-airflow";
import { parseGoModel, validateJson } from "@/test/peers/fake-databricks";
import { type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { previewPlan } from "./preview-plan";
import { OPERATOR, plannedIncident, STG } from "./testing/journey-steps";

const fixture = (...p: string[]) => path.join(process.cwd(), "test/fixtures/peers", ...p);
const noOptions = { replay: [], parameterOverrides: {} };

/**
 * The demo incident's exports — what an operator copies — checked against the peers' own
 * published contracts: Airflow's ClearTaskInstancesBody (3.0 and 3.2), Dagster's schema
 * (graphql-js validates the query and its variables' types), Databricks' RepairRun struct.
 */
describe("the plan's exports for the demo incident", () => {
  let t: TestDatabase;
  let id = "";
  beforeAll(async () => {
    t = await createDemoTestDatabase("sqlite");
    id = await plannedIncident(t.db);
  }, 180_000);
  afterAll(async () => t?.drop());

  it("Airflow: real clears (dry_run false) that both API versions accept, every pipeline's DAG, the side-effecting export left out", async () => {
    const { exports } = await previewPlan(id, { ...noOptions, strategy: "targeted_with_closure" }, new Date(), t.db);
    const { requests, unsupported } = exports.airflow;
    expect(unsupported).toEqual([]);
    expect(requests).toHaveLength(11);
    expect(new Set(requests.map((r) => r.pipeline))).toEqual(new Set(["orders", "ml"]));
    for (const version of ["3.0.0", "3.2.1"] as const) {
      for (const r of requests) expect(airflowContract(version).validateSchema("ClearTaskInstancesBody", r.body)).toEqual([]);
    }
    expect(requests.every((r) => (r.body as { dry_run: boolean }).dry_run === false)).toBe(true);
    expect(requests.flatMap((r) => (r.body as { task_ids: string[] }).task_ids)).not.toContain("weekly_revenue_export");
  });

  it("Dagster: launchPartitionBackfill documents valid against Dagster's schema", async () => {
    const { exports } = await previewPlan(id, { ...noOptions, strategy: "targeted_with_closure" }, new Date(), t.db);
    const schema = buildSchema(readFileSync(fixture("dagster", "schema.graphql"), "utf8"));
    expect(exports.dagster.requests.length).toBeGreaterThan(0);
    for (const r of exports.dagster.requests) {
      const body = r.body as { query: string; variables: { backfillParams: { partitionNames: string[] } } };
      expect(validate(schema, parse(body.query))).toEqual([]);
      expect(body.variables.backfillParams.partitionNames.length).toBeGreaterThan(0);
    }
  });

  it("Databricks: without a job run id nothing is guessed — every task is listed unsupported, saying why", async () => {
    const { exports } = await previewPlan(id, { ...noOptions, strategy: "targeted_with_closure" }, new Date(), t.db);
    expect(exports.databricks.requests).toEqual([]);
    expect(new Set(exports.databricks.unsupported.map((u) => u.name))).toEqual(
      new Set(["stg_orders", "fct_orders", "revenue_daily", "running_balance", "build_order_features", "refresh_executive_dashboard"]),
    );
    expect(exports.databricks.unsupported[0]!.reason).toMatch(/job run id/);
  });

  it("Databricks: with the pipeline's job run id, RepairRun bodies the struct accepts", async () => {
    const orders = (await t.db.pipeline.findFirst({ where: { name: "orders" } }))!;
    await t.db.orchestratorConnection.update({
      where: { pipelineId: orders.id },
      data: {
        kind: "databricks",
        config: JSON.stringify({
          kind: "databricks",
          baseUrl: "https://adb-1.azuredatabricks.net",
          credentials: { env: "REPARO_SECRET_DATABRICKS_TOKEN" },
          jobRunId: 4242,
          tasks: {},
          unitsParameter: "reparo_units",
        }),
      },
    });
    const { exports } = await previewPlan(id, { ...noOptions, strategy: "targeted_with_closure" }, new Date(), t.db);
    const model = parseGoModel(readFileSync(fixture("databricks", "model.go"), "utf8"));
    const ordersRequests = exports.databricks.requests.filter((r) => r.pipeline === "orders");
    expect(ordersRequests.length).toBeGreaterThan(0);
    for (const r of ordersRequests) {
      expect(validateJson(model, { kind: "struct", name: "RepairRun" } as never, r.body, "RepairRun")).toEqual([]);
      expect(r.body).toMatchObject({ run_id: 4242, rerun_dependent_tasks: false });
    }
    // ml has no Databricks run id: still said, not dropped.
    expect(exports.databricks.unsupported.map((u) => u.pipeline)).toEqual(["ml"]);
  });

  it("Databricks: the job run to repair comes from the ingested run facets when the connection names none", async () => {
    const orders = (await t.db.pipeline.findFirst({ where: { name: "orders" } }))!;
    await t.db.orchestratorConnection.update({
      where: { pipelineId: orders.id },
      data: {
        config: JSON.stringify({
          kind: "databricks",
          baseUrl: "https://adb-1.azuredatabricks.net",
          credentials: { env: "REPARO_SECRET_DATABRICKS_TOKEN" },
          tasks: {},
          unitsParameter: "reparo_units",
        }),
      },
    });
    // What OpenLineage's Spark integration on Databricks sends: the cluster's Spark properties.
    const runId = crypto.randomUUID();
    const base = {
      producer: "https://github.com/OpenLineage/OpenLineage/tree/1.20.0/integration/spark",
      schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
      job: { namespace: "orders", name: "stg_orders" },
    };
    const facets = {
      "environment-properties": {
        _producer: "spark",
        _schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunFacet",
        "environment-properties": { "spark.databricks.job.runId": "55501", "spark.databricks.job.parentRunId": "987654321", "spark.databricks.job.id": "77" },
      },
    };
    const res = await receiveLineageRequest(
      lineageRequest(
        JSON.stringify([
          { ...base, eventType: "START", eventTime: "2026-08-02T01:00:00Z", run: { runId, facets } },
          {
            ...base,
            eventType: "COMPLETE",
            eventTime: "2026-08-02T01:05:00Z",
            run: { runId },
            outputs: [
              {
                namespace: "warehouse",
                name: "stg_orders",
                outputFacets: { subset: { outputCondition: { type: "partition", partitions: [{ identifier: "2026-08-01" }] } } },
              },
            ],
          },
        ]),
        { "x-reparo-user": "demo-operator" },
      ),
      t.db,
    );
    expect(res.status).toBe(200);
    const { exports } = await previewPlan(id, { ...noOptions, strategy: "targeted_with_closure" }, new Date(), t.db);
    const ordersRequests = exports.databricks.requests.filter((r) => r.pipeline === "orders");
    expect(ordersRequests.length).toBeGreaterThan(0);
    for (const r of ordersRequests) expect(r.body).toMatchObject({ run_id: 987654321 });
  });

  it("a blocked plan exports nothing runnable", async () => {
    const incident = await openIncident({ taskNodeId: STG, units: ["2026-08-10"], reason: "the duplicated day, not cleaned yet" }, OPERATOR, new Date(), t.db);
    const view = await previewPlan(incident.id, noOptions, new Date(), t.db);
    expect(view.runnable).toBe(false);
    for (const kind of ["airflow", "dagster", "databricks"] as const) {
      expect(view.exports[kind].requests).toEqual([]);
      expect(view.exports[kind].unsupported[0]!.reason).toMatch(/^the plan is blocked/);
    }
  });
});
