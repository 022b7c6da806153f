import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { buildSchema, parse, validate } from "graphql";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/roles";
import { applyDeclarations } from "../../ingestion/apply-declarations";
import { setPipelineConnection } from "../../pipelines/orchestrator-connections";
import { readSourceCursor } from "../../repositories/sources/source-cursors";
import { getUnitDetail } from "../../units/get-unit-detail";
import { formatNodeId } from "@/lib/domain/ids";
import { createTestDatabase, providersUnderTest, type TestDatabase } from "../../testing/test-database";
import { pollDagsterSources } from "./poll-dagster-sources";

/**
 * The `dagster-poll` job against a webserver that answers what the REAL Dagster 1.13.27 answered
 * the same requests (test/fixtures/peers/dagster/source/, recorded from the peers lab: stg_orders
 * 2026-08-30 half-written then failed, 2026-08-31 failed clean, 2026-08-29 whole), every request
 * validated against Dagster's schema: the pipeline connected to Dagster gets its runs, attempts
 * with Dagster's errors and publishes with partition keys and row counts; polling again writes
 * nothing; a hostile answer is refused whole and kept as the poll's error, never thrown.
 */
const FIXTURES = path.resolve(__dirname, "../../../../test/fixtures/peers/dagster");
const read = (name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, "source", name), "utf8"));
const schema = buildSchema(fs.readFileSync(path.join(FIXTURES, "schema-1.13.27.graphql"), "utf8"));
const NOW = new Date(1796427100_000);
/** A poll that takes no time: the cursor is the newest update time read (dagster-cursor.ts). */
const FROZEN = () => 0;
const ADMIN: Actor = { id: "ada", role: "admin", source: "session", namespaces: [] };

const recordedRuns: { runId: string; updateTime: number }[] = read("runs.json")[0].response.data.runsOrError.results;

/** What the fake answers instead of the recording, when set; `instance`: its runs, newest-created first. */
interface Hostile {
  runs: unknown | null;
  failures: unknown | null;
  instance: { runId: string; updateTime: number }[];
}

/** The lab's Dagster as recorded: runs filtered by updatedAfter and paged after a run id as Dagster does, failures by run id. */
function fakeDagster(): { server: Server; requests: string[]; violations: string[]; hostile: Hostile } {
  const requests: string[] = [];
  const violations: string[] = [];
  const hostile: Hostile = { runs: null, failures: null, instance: recordedRuns };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const { query, variables } = JSON.parse(body) as { query: string; variables: Record<string, unknown> };
      const errors = validate(schema, parse(query)).map((e) => e.message);
      violations.push(...errors);
      const operation = /query (\w+)/.exec(query)?.[1] ?? "?";
      requests.push(operation);
      let data: unknown;
      if (operation === "ReparoSourceAssets") data = read("assets.json").response.data;
      else if (operation === "ReparoSourceRuns") {
        const after = (variables.filter as { updatedAfter?: number }).updatedAfter ?? -1;
        const changed = hostile.instance.filter((r) => r.updateTime > after);
        // Dagster's cursor: the runs created before that run (storage id below its id); none if it is unknown.
        const from = typeof variables.cursor === "string" ? hostile.instance.findIndex((r) => r.runId === variables.cursor) : -1;
        const page = (from >= 0 ? changed.filter((r) => hostile.instance.indexOf(r) > from) : typeof variables.cursor === "string" ? [] : changed).slice(
          0,
          Number(variables.limit),
        );
        data = hostile.runs ?? { runsOrError: { __typename: "Runs", results: page } };
      } else if (operation === "ReparoSourceRunFailures") data = hostile.failures ?? read(`failures-${String(variables.runId)}.json`).response.data;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(data === undefined ? { errors: [{ message: `no recording for ${operation}` }] } : { data }));
    });
  });
  return { server, requests, violations, hostile };
}

describe.each(providersUnderTest())("the Dagster source on %s", (provider) => {
  let t: TestDatabase;
  let fake: ReturnType<typeof fakeDagster>;
  let baseUrl = "";
  const saved = process.env.DATABASE_URL;

  beforeAll(async () => {
    fake = fakeDagster();
    await new Promise<void>((r) => fake.server.listen(0, "127.0.0.1", r));
    baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => fake.server.close(r));
    process.env.DATABASE_URL = saved;
  });
  beforeEach(async () => {
    t = await createTestDatabase(provider);
    process.env.DATABASE_URL = t.target.url;
    await t.db.user.create({ data: { id: "ada", displayName: "Ada", role: "admin" } });
    fake.requests.length = 0;
    fake.hostile.runs = null;
    fake.hostile.failures = null;
    fake.hostile.instance = recordedRuns;
  });
  afterEach(async () => t.drop());

  async function connect(): Promise<string> {
    // Reparo has seen nothing of this pipeline yet: the connection names it (namespace/asset group).
    const view = await setPipelineConnection(
      "dagster-lab/lab_orders",
      { connection: { kind: "dagster", baseUrl, assets: {} }, reason: "lab_orders runs in the lab's Dagster" },
      ADMIN,
      NOW,
      t.db,
    );
    expect(view).toMatchObject({ pipeline: "lab_orders", namespace: "dagster-lab", connection: { kind: "dagster", baseUrl } });
    await applyDeclarations(
      { declarations: fs.readFileSync(path.resolve(__dirname, "../../../../peers/dagster/reparo.yaml"), "utf8"), reason: "the team's file", dryRun: false },
      ADMIN,
      t.db,
      NOW,
    );
    return view.pipelineId;
  }

  const attempts = async () =>
    (await t.db.attempt.findMany({ include: { task: true } }))
      .map((a) => `${a.task.name} ${a.unitKey} ${a.status}${a.error ? `: ${a.error}` : ""}`)
      .filter((a) => a.split(" ")[1] !== "*")
      .sort();
  const publishes = async () =>
    (await t.db.publish.findMany({ include: { dataset: true } })).map((p) => `${p.dataset.name} ${p.unitKey} ${p.rowCount ?? "rows unknown"}`).sort();

  it("the first poll writes the runs, attempts and publishes Dagster recorded; a second writes nothing", async () => {
    const pipelineId = await connect();
    const [first] = await pollDagsterSources(t.db, NOW, FROZEN);
    expect(first).toMatchObject({ pipeline: "lab_orders", runsRead: 4, runsOfPipeline: 4, events: 28, stored: 28, error: null });
    expect(first!.cursor).toEqual({ after: Math.max(...recordedRuns.map((r) => r.updateTime)), page: null, high: null, since: null });
    expect(fake.violations).toEqual([]);
    expect(fake.requests).toEqual(["ReparoSourceAssets", "ReparoSourceRuns", "ReparoSourceRunFailures", "ReparoSourceRunFailures"]);
    expect(await attempts()).toEqual([
      "fct_orders 2026-08-29 succeeded",
      "finance_export 2026-08-29 succeeded",
      "raw_orders 2026-08-29 succeeded",
      "raw_orders 2026-08-30 succeeded",
      "raw_orders 2026-08-31 succeeded",
      "revenue_daily 2026-08-29 succeeded",
      "running_balance 2026-08-29 succeeded",
      "stg_orders 2026-08-29 succeeded",
      "stg_orders 2026-08-30 failed: lab_orders.LabControlError: lab_control: dagster.stg_orders failed for 2026-08-30 after writing half of the rows (mode half)",
      "stg_orders 2026-08-31 failed: lab_orders.LabControlError: lab_control: dagster.stg_orders failed for 2026-08-31 before writing anything (mode clean)",
    ]);
    expect(await publishes()).toEqual([
      "fct_orders 2026-08-29 41",
      "finance_export 2026-08-29 1",
      "raw_orders 2026-08-29 41",
      "raw_orders 2026-08-30 42",
      "raw_orders 2026-08-31 43",
      "revenue_daily 2026-08-29 4",
      "running_balance 2026-08-29 4",
      "stg_orders 2026-08-29 41",
    ]);
    // The assets' tasks are the pipeline's (their runs descend from its Dagster runs).
    const tasks = await t.db.task.findMany({ where: { namespace: "dagster-lab" } });
    expect(tasks.filter((x) => x.pipelineId !== pipelineId).map((x) => x.name)).toEqual([]);

    const counts = async () => [await t.db.ingestedEvent.count(), await t.db.run.count(), await t.db.attempt.count(), await t.db.publish.count()];
    const before = await counts();
    const [again] = await pollDagsterSources(t.db, new Date(NOW.getTime() + 15_000), FROZEN);
    // Only the run updated within the overlap of the cursor is read again, and it is a duplicate.
    expect(again).toMatchObject({ runsRead: 1, events: 4, stored: 0, written: { runs: 0, attempts: 0, publishes: 0 }, error: null });
    expect(await counts()).toEqual(before);
    expect((await readSourceCursor(t.db, pipelineId, "dagster"))?.cursor).toEqual(first!.cursor);
  });

  it("a hostile answer is refused whole: nothing written, the cursor kept, the error stored, nothing thrown", async () => {
    const pipelineId = await connect();
    fake.hostile.runs = { runsOrError: { __typename: "Runs", results: [{ ...recordedRuns[0], status: "SUCCESS", startTime: "\u202eyesterday" }] } };
    const [refused] = await pollDagsterSources(t.db, NOW, FROZEN);
    expect(refused!.error).toMatch(/^reading Dagster's runs: the answer does not match what Reparo reads: data\.runsOrError\.results\.0\.startTime: /);
    expect(await t.db.ingestedEvent.count()).toBe(0);
    const stored = await readSourceCursor(t.db, pipelineId, "dagster");
    expect(stored).toMatchObject({ cursor: { after: null, page: null, high: null, since: null }, lastError: refused!.error });

    // Dagster answering well again: the same poll goes through, and the error is cleared.
    fake.hostile.runs = null;
    const [ok] = await pollDagsterSources(t.db, NOW, FROZEN);
    expect(ok).toMatchObject({ stored: 28, error: null });
    expect((await readSourceCursor(t.db, pipelineId, "dagster"))?.lastError).toBeNull();
  });

  it("a failed partition is a failed unit with Dagster's error; what it would have fed is missing", async () => {
    await connect();
    await pollDagsterSources(t.db, NOW, FROZEN);
    const detail = (dataset: string, unit: string) => getUnitDetail(formatNodeId("dataset", "dagster-lab", dataset), unit, NOW, t.db);
    const states: string[] = [];
    for (const [d, u] of [
      ["raw_orders", "2026-08-30"],
      ["stg_orders", "2026-08-29"],
      ["stg_orders", "2026-08-30"],
      ["stg_orders", "2026-08-31"],
      ["fct_orders", "2026-08-30"],
    ] as const)
      states.push(`${d} ${u} ${(await detail(d, u)).state}`);
    expect(states).toEqual([
      "raw_orders 2026-08-30 published",
      "stg_orders 2026-08-29 published",
      "stg_orders 2026-08-30 failed",
      "stg_orders 2026-08-31 failed",
      "fct_orders 2026-08-30 missing",
    ]);
    expect((await detail("stg_orders", "2026-08-30")).attempts.map((a) => [a.status, a.error])).toEqual([
      ["failed", "lab_orders.LabControlError: lab_control: dagster.stg_orders failed for 2026-08-30 after writing half of the rows (mode half)"],
    ]);
  });

  it("a poll that fails after Dagster's runs were read writes nothing: the cursor kept, the error stored", async () => {
    const pipelineId = await connect();
    fake.hostile.failures = { logsForRun: { __typename: "RunNotFoundError", message: "Run not found" } };
    const [refused] = await pollDagsterSources(t.db, NOW, FROZEN);
    expect(refused).toMatchObject({ stored: 0, written: { runs: 0, attempts: 0, publishes: 0 } });
    expect(refused!.error).toMatch(/^reading the failures of Dagster run [0-9a-f-]{36}: RunNotFoundError: Run not found$/);
    expect(fake.requests).toEqual(["ReparoSourceAssets", "ReparoSourceRuns", "ReparoSourceRunFailures"]);
    expect([await t.db.ingestedEvent.count(), await t.db.run.count(), await t.db.attempt.count(), await t.db.publish.count()]).toEqual([0, 0, 0, 0]);
    expect(await readSourceCursor(t.db, pipelineId, "dagster")).toMatchObject({ cursor: { after: null, page: null }, lastError: refused!.error });
  });

  it("connecting names the pipeline: created with its connection and its audit entry, or refused with nothing written", async () => {
    const pipelineId = await connect();
    const entries = await t.db.auditEntry.findMany({ where: { kind: "pipeline.orchestrator_set" } });
    expect(entries.map((e) => [e.actor, e.reason])).toEqual([["ada", "lab_orders runs in the lab's Dagster"]]);
    expect(await t.db.pipeline.findMany({ select: { id: true, namespace: true, name: true } })).toEqual([
      { id: pipelineId, namespace: "dagster-lab", name: "lab_orders" },
    ]);
    await expect(
      setPipelineConnection("dagster-lab/lab-orders", { connection: { kind: "dagster", baseUrl, assets: {} }, reason: "a dash" }, ADMIN, NOW, t.db),
    ).rejects.toThrow(/^params\.id: "lab-orders" is not a Dagster asset group/);
    await expect(setPipelineConnection("nope/lab_orders2", { connection: { kind: "none" }, reason: "not Dagster" }, ADMIN, NOW, t.db)).rejects.toThrow(
      "no pipeline nope/lab_orders2",
    );
    expect(await t.db.pipeline.count()).toBe(1);
    expect(await t.db.auditEntry.count({ where: { kind: "pipeline.orchestrator_set" } })).toBe(1);
  });

  it("a backlog beyond a poll's pages is read on by the next poll after the last run id: no run skipped", async () => {
    const pipelineId = await connect();
    // 520 runs of other jobs, created after the lab's but updated before them (Dagster pages by creation).
    const oldest = Math.min(...recordedRuns.map((r) => r.updateTime));
    const others = Array.from({ length: 520 }, (_, i) => ({
      ...recordedRuns[0]!,
      runId: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
      jobName: "other_job",
      updateTime: oldest - 100 + i / 100,
      stepStats: [],
    }));
    fake.hostile.instance = [...others, ...recordedRuns];
    const [first] = await pollDagsterSources(t.db, NOW, FROZEN);
    expect(first).toMatchObject({ runsRead: 500, runsOfPipeline: 0, stored: 0, error: null });
    expect(first!.cursor).toEqual({ after: null, page: others[499]!.runId, high: others[499]!.updateTime, since: 0 });
    expect(fake.requests.filter((r) => r === "ReparoSourceRuns")).toHaveLength(10);

    const [second] = await pollDagsterSources(t.db, NOW, FROZEN);
    expect(second).toMatchObject({ runsRead: 24, runsOfPipeline: 4, events: 28, stored: 28, error: null });
    const newest = Math.max(...recordedRuns.map((r) => r.updateTime));
    expect(second!.cursor).toEqual({ after: newest, page: null, high: null, since: null });
    expect((await readSourceCursor(t.db, pipelineId, "dagster"))?.cursor).toEqual(second!.cursor);

    const [third] = await pollDagsterSources(t.db, NOW, FROZEN);
    expect(third).toMatchObject({ runsRead: 1, stored: 0, error: null });
  });

  it("a Dagster without the pipeline's asset group: refused with the reason, and other pipelines are untouched", async () => {
    await setPipelineConnection("dagster-lab/no_such_group", { connection: { kind: "dagster", baseUrl, assets: {} }, reason: "a typo" }, ADMIN, NOW, t.db);
    const [result] = await pollDagsterSources(t.db, NOW, FROZEN);
    expect(result).toMatchObject({ pipeline: "no_such_group", stored: 0 });
    expect(result!.error).toContain("Dagster has no asset group named no_such_group");
  });
});
