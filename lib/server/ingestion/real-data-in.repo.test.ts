import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as lineageBatch } from "@/app/api/v1/lineage/batch/route";
import { POST as lineage } from "@/app/api/v1/lineage/route";
import { PUT as partitions } from "@/app/api/v1/datasets/[id]/partitions/route";
import { POST as publishes } from "@/app/api/v1/publishes/route";
import { POST as sourceCounts } from "@/app/api/v1/source-counts/route";
import { POST as warehouseCounts } from "@/app/api/v1/warehouse-counts/route";
import { PUT as taskProps } from "@/app/api/v1/tasks/[id]/route";
import { GET as closure } from "@/app/api/v1/closure/route";
import { GET as ingestion } from "@/app/api/v1/ingestion/route";
import { getDb } from "../db/client";
import { docExamples } from "../testing/doc-examples";
import { getRoute, readEveryRoute, serverErrors } from "../testing/read-routes";
import { type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

let t: TestDatabase;
const saved = process.env.DATABASE_URL;

async function send(
  handler: Handler,
  method: string,
  path: string,
  body: string,
  params: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await handler(
    new Request(`http://console.test${path}`, { method, body, headers: { "content-type": "application/json", "x-reparo-user": "demo-operator" } }),
    { params: Promise.resolve(params) },
  );
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}
const postLineage = (events: unknown) => send(lineage, "POST", "/api/v1/lineage", JSON.stringify(events));

/**
 * The demo's blast radius of stg_orders 2026-08-17 (seed 001): the bar that must not move. Its
 * declared consumers (finance ledger, revenue dashboard, churn model team) are listed after the
 * 14 nodes and counted apart: they read the closure, they are not built by it.
 */
async function demoClosureSize(): Promise<number> {
  const r = await getRoute(closure, `/api/v1/closure?nodeId=${encodeURIComponent("job:orders:stg_orders")}&units=2026-08-17`);
  expect(r.status).toBe(200);
  const nodes = (JSON.parse(r.body) as { nodes: { kind: string }[] }).nodes;
  expect(nodes.filter((n) => n.kind === "consumer")).toHaveLength(3);
  return nodes.filter((n) => n.kind !== "consumer").length;
}

const targets = (nodes: string[], datasets: string[], cells: [string, string][]) => ({ nodes, datasets, cells, layout: true });

const event = (over: Record<string, unknown>) => ({
  eventType: "COMPLETE",
  eventTime: "2026-08-18T02:10:00Z",
  producer: "test",
  run: { runId: "0b1e6c3a-3f5e-4c1b-9a57-1f2d3c4b5a01" },
  job: { namespace: "loaders", name: "x" },
  ...over,
});

beforeAll(async () => {
  t = await createDemoTestDatabase("sqlite");
  process.env.DATABASE_URL = t.target.url;
}, 120_000);
afterAll(async () => {
  await getDb().$disconnect();
  process.env.DATABASE_URL = saved;
  await t.drop();
});

describe("real data in: what ordinary producers send never takes a page down", () => {
  it("docs/ingestion.md's examples, run in the order the page gives them on the demo: each accepted, every read 2xx, the demo closure still 14 nodes", async () => {
    const handlers: Record<string, Handler> = {
      "/api/v1/lineage": lineage,
      "/api/v1/publishes": publishes,
      "/api/v1/source-counts": sourceCounts,
      "/api/v1/warehouse-counts": warehouseCounts,
    };
    const examples = docExamples("docs/ingestion.md");
    expect(examples.map((e) => `${e.method} ${e.path.replace(/\/(datasets|tasks)\/[^/]+/, "/$1/{id}")}`)).toEqual([
      "PUT /api/v1/datasets/{id}/partitions",
      "PUT /api/v1/tasks/{id}",
      "POST /api/v1/publishes",
      "POST /api/v1/source-counts",
      "POST /api/v1/warehouse-counts",
      "POST /api/v1/lineage",
    ]);
    for (const e of examples) {
      const id = /\/(?:datasets|tasks)\/([^/]+)/.exec(e.path)?.[1];
      const handler = e.path.startsWith("/api/v1/datasets/") ? partitions : e.path.startsWith("/api/v1/tasks/") ? taskProps : handlers[e.path]!;
      const r = await send(handler, e.method, e.path, e.body, id ? { id: decodeURIComponent(id) } : {});
      // The PUTs declare a dataset and a task no producer has sent yet: they are created.
      expect(r.status, `docs/ingestion.md:${e.line} ${e.method} ${e.path}: ${JSON.stringify(r.json)}`).toBe(200);
    }
    const answers = await readEveryRoute(
      targets(
        ["job:loaders:orders_daily", "dataset:s3://raw:orders", "job:orders:stg_orders"],
        ["dataset:postgres://dwh:5432:public.orders", "dataset:warehouse:revenue_daily"],
        [
          ["dataset:postgres://dwh:5432:public.orders", "2026-08-17"],
          ["dataset:warehouse:revenue_daily", "2026-08-10"],
        ],
      ),
    );
    expect(serverErrors(answers)).toEqual([]);
    expect(
      answers.every((a) => a.status === 200),
      answers
        .filter((a) => a.status !== 200)
        .map((a) => `${a.status} ${a.path} ${a.body.slice(0, 200)}`)
        .join("\n"),
    ).toBe(true);
    expect(await demoClosureSize()).toBe(14);
  });

  it("a self-read job (MERGE), a cycle across two jobs, an unpartitioned input of a daily job and a year-9999 event: every read 2xx, the event refused", async () => {
    const selfRead = event({
      job: { namespace: "dbt", name: "model.shop.orders_incremental" },
      inputs: [
        { namespace: "pg", name: "shop.orders" },
        { namespace: "pg", name: "shop.raw" },
      ],
      outputs: [{ namespace: "pg", name: "shop.orders" }],
    });
    const a = event({
      run: { runId: "0b1e6c3a-3f5e-4c1b-9a57-1f2d3c4b5a02" },
      job: { namespace: "loop", name: "a" },
      inputs: [{ namespace: "loop", name: "y" }],
      outputs: [{ namespace: "loop", name: "x" }],
    });
    const b = event({
      run: { runId: "0b1e6c3a-3f5e-4c1b-9a57-1f2d3c4b5a03" },
      eventTime: "2026-08-18T02:11:00Z",
      job: { namespace: "loop", name: "b" },
      inputs: [{ namespace: "loop", name: "x" }],
      outputs: [{ namespace: "loop", name: "y" }],
    });
    expect((await postLineage([selfRead, a, b])).status).toBe(200);
    await send(
      partitions,
      "PUT",
      "/x",
      JSON.stringify({ partitionDef: { kind: "time", grain: "day", start: "2026-08-01", timezone: "UTC" }, reason: "daily" }),
      { id: "dataset:pg:shop.orders" },
    );
    await send(
      partitions,
      "PUT",
      "/x",
      JSON.stringify({ partitionDef: { kind: "time", grain: "month", start: "2026-01", timezone: "UTC" }, reason: "monthly" }),
      { id: "dataset:loop:y" },
    );
    await send(
      partitions,
      "PUT",
      "/x",
      JSON.stringify({ partitionDef: { kind: "time", grain: "day", start: "2026-08-01", timezone: "UTC" }, reason: "daily" }),
      { id: "dataset:loop:x" },
    );
    const future = await postLineage(event({ eventTime: "9999-12-31T00:00:00Z", run: { runId: "0b1e6c3a-3f5e-4c1b-9a57-1f2d3c4b5a04" } }));
    expect(future.status).toBe(400);
    expect(String(future.json.message)).toMatch(/^body\.eventTime: is more than a day ahead of the server clock/);

    const answers = await readEveryRoute(
      targets(
        ["job:dbt:model.shop.orders_incremental", "job:loop:a", "dataset:loop:y", "dataset:pg:shop.raw"],
        ["dataset:pg:shop.orders", "dataset:loop:x", "dataset:loop:y"],
        [
          ["dataset:pg:shop.orders", "2026-08-17"],
          ["dataset:loop:y", "2026-08"],
          ["dataset:pg:shop.raw", "*"],
        ],
      ),
    );
    expect(serverErrors(answers)).toEqual([]);
    const selfClosure = answers.find((x) => x.path.includes("closure?nodeId=job%3Adbt%3Amodel.shop.orders_incremental") && !x.path.includes("upstream"))!;
    expect(selfClosure.status).toBe(200);
    expect((JSON.parse(selfClosure.body) as { nodes: { nodeId: string }[] }).nodes.map((n) => n.nodeId).sort()).toEqual([
      "dataset:pg:shop.orders",
      "job:dbt:model.shop.orders_incremental",
    ]);
    const problems = (JSON.parse((await getRoute(ingestion, "/api/v1/ingestion")).body) as { lineageProblems: { code: string; message: string }[] })
      .lineageProblems;
    // a reads monthly y into daily x, b daily x into monthly y: identity relates neither, and the loop is cut once
    expect(problems.map((p) => p.code).sort()).toEqual(["cycle_cut", "degraded_edge", "degraded_edge"]);
    expect(problems.find((p) => p.code === "cycle_cut")!.message).toMatch(/job:loop:(a|b) reading dataset:loop:(x|y) is left out of closures/);
    expect(await demoClosureSize()).toBe(14);
  });

  it("the closure's answer does not depend on which instant was asked first (asOf keyed by the lineage's change points)", async () => {
    // A job first seen at a millisecond instant: just before it, it is not in the lineage; at it, it is.
    const at = "2026-08-19T10:00:24.201Z";
    expect(
      (
        await postLineage(
          event({
            eventTime: at,
            run: { runId: "0b1e6c3a-3f5e-4c1b-9a57-1f2d3c4b5a05" },
            job: { namespace: "ms", name: "edge" },
            outputs: [{ namespace: "ms", name: "out" }],
          }),
        )
      ).status,
    ).toBe(200);
    const ask = async (asOf: string) => (await getRoute(closure, `/api/v1/closure?nodeId=${encodeURIComponent("job:ms:edge")}&asOf=${asOf}`)).status;
    expect([await ask("2026-08-19T10:00:24.200Z"), await ask(at)]).toEqual([404, 200]);
    expect([await ask(at), await ask("2026-08-19T10:00:24.200Z")]).toEqual([200, 404]);
  });

  it("DatasetEvents and JobEvents of spec 2-0-2 are accepted; a JobEvent's inputs and outputs are lineage from its time", async () => {
    const datasetEvent = {
      eventTime: "2026-08-18T00:00:00Z",
      producer: "https://example.com/p",
      schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/DatasetEvent",
      dataset: { namespace: "static", name: "customers", facets: {} },
    };
    const jobEvent = {
      eventTime: "2026-08-18T00:00:00Z",
      producer: "https://example.com/p",
      schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/JobEvent",
      job: { namespace: "static", name: "build_customers" },
      inputs: [{ namespace: "static", name: "customers" }],
      outputs: [{ namespace: "static", name: "customers_clean" }],
    };
    const r = await postLineage([datasetEvent, jobEvent]);
    expect(r.status).toBe(200);
    const up = await getRoute(closure, `/api/v1/closure?nodeId=${encodeURIComponent("dataset:static:customers_clean")}&direction=upstream`);
    expect((JSON.parse(up.body) as { nodes: { nodeId: string }[] }).nodes.map((n) => n.nodeId)).toEqual([
      "dataset:static:customers",
      "job:static:build_customers",
      "dataset:static:customers_clean",
    ]);
  });

  it("POST /api/v1/lineage/batch answers in the batch proposal's shape: partial success names the failed event; all refused is a 400", async () => {
    const good = event({ run: { runId: "0b1e6c3a-3f5e-4c1b-9a57-1f2d3c4b5a06" }, job: { namespace: "batch", name: "ok" } });
    const bad = { ...good, eventTime: "yesterday" };
    const partial = await send(lineageBatch, "POST", "/api/v1/lineage/batch", JSON.stringify([good, bad]));
    expect(partial.status).toBe(200);
    expect(partial.json).toMatchObject({ status: "partial_success", summary: { received: 2, successful: 1, failed: 1, retriable: 0, non_retriable: 1 } });
    expect(partial.json.failed_events as { index: number; reason: string; retriable: boolean }[]).toEqual([
      { index: 1, reason: expect.stringMatching(/^body\[1\]\.eventTime: must match format "date-time"/), retriable: false },
    ]);
    expect((await send(lineageBatch, "POST", "/api/v1/lineage/batch", JSON.stringify([good]))).json).toMatchObject({
      status: "success",
      summary: { received: 1, successful: 1, failed: 0 },
    });
    expect((await send(lineageBatch, "POST", "/api/v1/lineage/batch", JSON.stringify([bad]))).status).toBe(400);
    const notArray = await send(lineageBatch, "POST", "/api/v1/lineage/batch", JSON.stringify(good));
    expect([notArray.status, notArray.json.message]).toEqual([400, "body: the batch endpoint takes a JSON array of OpenLineage events"]);
  });

  it("Airflow 3.2's partition_key names the unit of a partitioned DAG run, and its try_number the try", async () => {
    await send(partitions, "PUT", "/x", JSON.stringify({ partitionDef: { kind: "static", keys: ["eu", "us"] }, reason: "by region" }), {
      id: "dataset:af:sales",
    });
    const airflow = (eventType: string, tryNumber: number, eventTime: string) =>
      event({
        eventType,
        eventTime,
        run: {
          runId: "01936893-9751-7150-bbde-00000000aa01",
          facets: { airflow: { dagRun: { partition_key: "eu" }, taskInstance: { try_number: tryNumber } } },
        },
        job: { namespace: "af", name: "sales.load" },
        outputs: [{ namespace: "af", name: "sales", outputFacets: { outputStatistics: { rowCount: 7 } } }],
      });
    expect(
      (
        await postLineage([
          airflow("START", 1, "2026-08-18T01:00:00Z"),
          airflow("FAIL", 1, "2026-08-18T01:01:00Z"),
          airflow("START", 2, "2026-08-18T01:02:00Z"),
          airflow("COMPLETE", 2, "2026-08-18T01:03:00Z"),
        ])
      ).status,
    ).toBe(200);
    const task = await t.db.task.findUniqueOrThrow({ where: { nodeId: "job:af:sales.load" } });
    const attempts = await t.db.attempt.findMany({ where: { taskId: task.id }, orderBy: { tryNumber: "asc" } });
    expect(attempts.map((x) => [x.unitKey, x.tryNumber, x.status])).toEqual([
      ["eu", 1, "failed"],
      ["eu", 2, "succeeded"],
    ]);
    expect((await t.db.publish.findMany({ where: { dataset: { nodeId: "dataset:af:sales" } } })).map((p) => [p.unitKey, p.rowCount])).toEqual([["eu", 7]]);
  });

  it("an unknown key in an input's subset facet is reported as an invalid key of that input, never dropped", async () => {
    await send(
      partitions,
      "PUT",
      "/x",
      JSON.stringify({ partitionDef: { kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-31", timezone: "UTC" }, reason: "daily" }),
      { id: "dataset:sub:raw" },
    );
    const r = await postLineage(
      event({
        run: { runId: "0b1e6c3a-3f5e-4c1b-9a57-1f2d3c4b5a07" },
        job: { namespace: "sub", name: "j" },
        inputs: [
          {
            namespace: "sub",
            name: "raw",
            inputFacets: { subset: { inputCondition: { type: "partition", partitions: [{ identifier: "2026-08-17" }, { identifier: "2026-13-01" }] } } },
          },
        ],
      }),
    );
    expect(r.status).toBe(200);
    expect((await t.db.invalidKey.findMany({ where: { nodeId: "dataset:sub:raw" } })).map((k) => [k.unitKey, k.reason])).toEqual([
      ["2026-13-01", expect.stringMatching(/^read by job:sub:j: "2026-13-01" is not a day key/)],
    ]);
  });
});
