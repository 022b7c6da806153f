import { applyDeclarations } from "../ingestion/apply-declarations";
import { listTasks } from "../repositories/lineage/catalog-reads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DbtImportBodySchema } from "@/lib/contracts/ingestion-dbt";
import type { Actor } from "../auth/roles";
import { getIncident } from "../incidents/get-incident";
import { openIncident } from "../incidents/open-incident";
import { importDbtArtifacts } from "../ingestion/import-dbt-artifacts";
import { setTaskProperties } from "../ingestion/set-task-properties";
import { fixtureText } from "../ingestion/testing/fixtures";
import { setPipelineConnection } from "../pipelines/orchestrator-connections";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import { confirmPlan } from "./confirm-plan";
import { previewDispatch } from "./dry-run";
import { getProgress } from "./get-progress";
import { launchRepair } from "./launch-repair";
import { recordScope } from "./record-scope";
import { OPERATOR } from "./testing/journey-steps";

const ADMIN: Actor = { id: "ada", role: "admin", source: "cli", namespaces: [] };
const read = (f: string) => JSON.parse(fixtureText(`dbt/ol_fixture_fail/${f}`));

/** The dbt project's failed run imported, its models declared free of side effects; the failed (model, unit). */
async function failedDbtProject(t: TestDatabase): Promise<{ taskNodeId: string; unitKey: string }> {
  await importDbtArtifacts(
    t.db,
    DbtImportBodySchema.parse({ manifest: read("manifest.json"), run_results: read("run_results.json") }),
    new Date("2026-11-30T12:00:00Z"),
  );
  // dbt does not say whether a model has side effects: unknown counts as external (excluded),
  // so the team declares its models' (PUT /api/v1/tasks/{id}).
  for (const task of await t.db.task.findMany({ where: { name: { startsWith: "model." } } })) {
    await setTaskProperties(task.nodeId, { sideEffect: "none", reason: "the model only writes its table" }, ADMIN, t.db);
  }
  const attempt = (await t.db.attempt.findFirst({ where: { status: "failed" }, include: { task: true } }))!;
  return { taskNodeId: attempt.task.nodeId, unitKey: attempt.unitKey };
}

/**
 * A dbt project's failed run repaired through the dbt adapter: Reparo cannot run dbt, so each
 * wave is the exact `dbt build` command for the operator, and its progress is what the team's
 * dbt reports back afterwards — here, the run_results.json of running that command, imported.
 */
describe("a repair of a dbt project, run by the operator", () => {
  let t: TestDatabase;
  let id = "";
  let failed: { taskNodeId: string; unitKey: string };
  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
    failed = await failedDbtProject(t);
  }, 180_000);
  afterAll(async () => t?.drop());

  it("the pipeline is connected to dbt; the plan's dry run is the command, with the project and target", async () => {
    const pipeline = (await t.db.pipeline.findFirst())!;
    await setPipelineConnection(
      pipeline.id,
      {
        connection: { kind: "dbt", projectDir: "/srv/dbt/bigquery_test", target: "prod", unitsVar: "reparo_units", tasks: {} },
        reason: "this project repairs with dbt build",
      },
      ADMIN,
      new Date(),
      t.db,
    );
    const incident = await openIncident(
      { taskNodeId: failed.taskNodeId, units: [failed.unitKey], reason: "the model failed in last night's run" },
      OPERATOR,
      new Date(),
      t.db,
    );
    id = incident.id;
    await recordScope(id, { reason: "closure reviewed", addPairs: [] }, OPERATOR, new Date(), t.db);
    const confirm = () =>
      confirmPlan(
        id,
        { strategy: "targeted_with_closure", replay: [], parameterOverrides: {}, reason: "rebuild the failed model and what reads it" },
        OPERATOR,
        new Date(),
        t.db,
      );
    // The manifest says how each model writes, not whether it reads its own earlier units:
    // unknown holds the plan, naming what to declare.
    await expect(confirm()).rejects.toMatchObject({
      details: { blockers: expect.arrayContaining([expect.objectContaining({ code: "unknown_independence" })]) },
    });
    await declareModels(t);
    await confirm();
    const preview = await previewDispatch(id, { resume: false }, OPERATOR, new Date(), t.db);
    expect(preview.unsupported).toEqual([]);
    expect(preview.requests.map((r) => r.path)).toEqual([
      "dbt build --select test_second_parallel_dbt_model --target prod --project-dir /srv/dbt/bigquery_test",
      "dbt build --select test_third_dbt_model --target prod --project-dir /srv/dbt/bigquery_test",
    ]);
    // The plan is exactly what the failed invocation failed and skipped: `dbt retry` does it in one go.
    expect(preview.requests.map((r) => r.alternative)).toEqual(["dbt retry --target prod --project-dir /srv/dbt/bigquery_test", undefined]);
  });

  it("launched, the run waits with the command for the operator; the imported results of running it are its progress, wave by wave", async () => {
    const { digest } = await previewDispatch(id, { resume: false }, OPERATOR, new Date(), t.db);
    const launched = await launchRepair(id, { resume: false, concurrency: 4, preview: digest, run: { pollMs: 200 } }, OPERATOR, new Date(), t.db);
    // The operator runs each command shown, and the project's run_results.json is imported.
    const ran = new Set<string>();
    const operator = (async () => {
      for (let i = 0; i < 200 && ran.size < 2; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const progress = await getProgress(id, t.db);
        const command = progress.dispatched[0]?.command;
        if (!command || ran.has(command)) continue;
        expect(progress.pairs.filter((p) => p.status === "pending").length).toBeGreaterThan(0);
        const model = command.split(" ")[3]!;
        const results = read("run_results.json");
        const at = new Date().toISOString();
        results.metadata = { ...results.metadata, invocation_id: `rerun-${ran.size}`, generated_at: at };
        results.results = results.results
          .filter((r: { unique_id: string }) => r.unique_id.endsWith(`.${model}`))
          .map((r: object) => ({
            ...r,
            status: "success",
            timing: [{ name: "execute", started_at: at, completed_at: at }],
            adapter_response: { rows_affected: 2 },
          }));
        await importDbtArtifacts(t.db, DbtImportBodySchema.parse({ manifest: read("manifest.json"), run_results: results }), new Date());
        ran.add(command);
      }
    })();
    expect(await launched.execution).toBe("succeeded");
    await operator;
    expect(ran.size).toBe(2);
    const progress = await getProgress(id, t.db);
    expect(progress).toMatchObject({ total: 2, succeeded: 2, failed: 0, dispatched: [] });
    expect((await getIncident(id, t.db)).status).toBe("validating");
    const kinds = (await getIncident(id, t.db)).timeline.map((e) => e.kind);
    expect(kinds.filter((k) => k === "repair.dispatched")).toHaveLength(2);
    // dbt is asked nothing (its progress is the ledger), yet each pair it finished is on the record.
    expect(kinds.filter((k) => k === "repair.progress").length).toBeGreaterThanOrEqual(2);
    expect(kinds.at(-1)).toBe("repair.finished");
  });
});

/** The team's declaration file for the project: its models write only their tables and do not read themselves. */
async function declareModels(t: TestDatabase): Promise<void> {
  const models = (await listTasks(t.db)).filter((m) => m.kind === "task");
  await applyDeclarations(
    {
      declarations: { version: 1, tasks: models.map((m) => ({ namespace: m.namespace, name: m.name, sideEffect: "none" as const, dependsOnOwnPast: false })) },
      reason: "the project's models write only their tables and do not read themselves",
      dryRun: false,
    },
    OPERATOR,
    t.db,
  );
}

/**
 * The same failed run repaired with `dbt retry`: one invocation re-runs the failed model and the
 * one it skipped, with the failed run's own flags; both waves take it as their progress.
 */
describe("a dbt repair done with one `dbt retry`", () => {
  let t: TestDatabase;
  let failed: { taskNodeId: string; unitKey: string };
  beforeAll(async () => {
    t = await createTestDatabase("sqlite");
    failed = await failedDbtProject(t);
    await declareModels(t);
  }, 180_000);
  afterAll(async () => t?.drop());

  it("the retry's run_results, imported once, finish every wave", async () => {
    const pipeline = (await t.db.pipeline.findFirst())!;
    await setPipelineConnection(
      pipeline.id,
      { connection: { kind: "dbt", projectDir: "/srv/dbt/bigquery_test", target: "prod", unitsVar: "reparo_units", tasks: {} }, reason: "dbt" },
      ADMIN,
      new Date(),
      t.db,
    );
    const { id } = await openIncident({ taskNodeId: failed.taskNodeId, units: [failed.unitKey], reason: "failed last night" }, OPERATOR, new Date(), t.db);
    await recordScope(id, { reason: "closure reviewed", addPairs: [] }, OPERATOR, new Date(), t.db);
    await confirmPlan(
      id,
      { strategy: "targeted_with_closure", replay: [], parameterOverrides: {}, reason: "retry the failed invocation" },
      OPERATOR,
      new Date(),
      t.db,
    );
    const { digest } = await previewDispatch(id, { resume: false }, OPERATOR, new Date(), t.db);
    const launched = await launchRepair(id, { resume: false, concurrency: 4, preview: digest, run: { pollMs: 100 } }, OPERATOR, new Date(), t.db);
    let shown: { command: string | null; alternative: string | null } | undefined;
    for (let i = 0; i < 100 && !shown; i++) {
      await new Promise((r) => setTimeout(r, 50));
      shown = (await getProgress(id, t.db)).dispatched[0];
    }
    expect(shown).toMatchObject({ command: expect.stringContaining("dbt build"), alternative: "dbt retry --target prod --project-dir /srv/dbt/bigquery_test" });
    // The operator runs `dbt retry`: dbt re-runs the failed and the skipped model in one invocation.
    const results = read("run_results.json");
    const at = new Date().toISOString();
    results.metadata = { ...results.metadata, invocation_id: "retry-1", generated_at: at };
    results.results = results.results
      .filter((r: { status: string }) => r.status !== "success")
      .map((r: object) => ({
        ...r,
        status: "success",
        timing: [{ name: "execute", started_at: at, completed_at: at }],
        adapter_response: { rows_affected: 2 },
      }));
    expect(results.results).toHaveLength(2);
    await importDbtArtifacts(t.db, DbtImportBodySchema.parse({ manifest: read("manifest.json"), run_results: results }), new Date());
    expect(await launched.execution).toBe("succeeded");
    expect(await getProgress(id, t.db)).toMatchObject({ total: 2, succeeded: 2, failed: 0 });
  });
});
