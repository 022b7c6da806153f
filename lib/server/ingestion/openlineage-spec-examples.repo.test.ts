import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeClosure } from "../lineage/compute-closure";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";
import officialSpec from "./openlineage-spec/OpenLineage.json";
import { receiveLineageRequest } from "../http/ingestion-requests";
import { fixtureEvents, FIXTURES_DIR, lineageRequest } from "./testing/fixtures";

/**
 * The bar "the spec, all of it": every example of the OpenLineage spec (one per facet, each
 * wrapped into an event where its facet schema says it goes) and every event of the fixtures is
 * accepted — or refused for the reason the official schema gives, checked here against the
 * unpatched schema — and an accepted run's inputs and outputs are its direct closure neighbours.
 */
const PEERS = path.join(FIXTURES_DIR, "peers/openlineage");
const NOW = new Date("2026-12-01T12:00:00Z");

const official = new Ajv2020({ allErrors: true, strict: false });
addFormats(official);
const officialValid = official.compile(officialSpec);

type Place = "run" | "job" | "dataset" | "input" | "output";
const PLACE_OF_BASE: Record<string, Place> = {
  RunFacet: "run",
  JobFacet: "job",
  DatasetFacet: "dataset",
  InputDatasetFacet: "input",
  OutputDatasetFacet: "output",
};

/** Where a facet goes, from its schema: the core facet type its definitions extend (the example's own definition first). */
function placeOf(facetDir: string, example: Record<string, { _schemaURL?: string }>): Place {
  const schema = JSON.parse(fs.readFileSync(path.join(PEERS, "facets", `${facetDir}.json`), "utf8")) as {
    $defs: Record<string, { allOf?: { $ref?: string }[] }>;
  };
  const fragment = Object.values(example)[0]?._schemaURL?.split("#/$defs/")[1];
  const defs = Object.entries(schema.$defs).sort(([a], [b]) => Number(b === fragment) - Number(a === fragment));
  for (const [, def] of defs) {
    for (const part of def.allOf ?? []) {
      const base = part.$ref?.split("#/$defs/")[1];
      if (base && PLACE_OF_BASE[base]) return PLACE_OF_BASE[base];
    }
  }
  throw new Error(`no core facet type for ${facetDir}`);
}

function eventWith(place: Place, facets: Record<string, unknown>, n: number) {
  const dataset = { namespace: "spec-examples", name: `dataset_${n}` };
  return {
    eventType: "COMPLETE",
    eventTime: "2026-08-18T02:10:00Z",
    producer: "https://github.com/OpenLineage/OpenLineage/blob/v1-0-0/client",
    schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
    run: { runId: `3f5e4c1b-0000-4000-8000-${String(n).padStart(12, "0")}`, ...(place === "run" ? { facets } : {}) },
    job: { namespace: "spec-examples", name: `job_${n}`, ...(place === "job" ? { facets } : {}) },
    inputs: [{ ...dataset, ...(place === "dataset" ? { facets } : {}), ...(place === "input" ? { inputFacets: facets } : {}) }],
    outputs: [{ namespace: "spec-examples", name: `out_${n}`, ...(place === "output" ? { outputFacets: facets } : {}) }],
  };
}

const examples = fs
  .readdirSync(path.join(PEERS, "tests"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    fs.readdirSync(path.join(PEERS, "tests", d.name)).map((f) => ({
      facet: d.name,
      file: f,
      facets: JSON.parse(fs.readFileSync(path.join(PEERS, "tests", d.name, f), "utf8")) as Record<string, { _schemaURL?: string }>,
    })),
  );

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("sqlite");
});
afterAll(async () => t.drop());

describe("the OpenLineage spec's own examples", () => {
  it("holds an example for each of the 33 facets, and the full event", () => {
    expect(new Set(examples.map((e) => e.facet)).size).toBe(33);
  });

  it.each(examples.map((e, n) => ({ ...e, n })))(
    "$facet/$file, wrapped where its schema puts it, is accepted (the official schema accepts it too)",
    async ({ facet, facets, n }) => {
      const event = eventWith(placeOf(facet, facets), facets, n);
      expect(officialValid(event), JSON.stringify(officialValid.errors)).toBe(true);
      const res = await receiveLineageRequest(lineageRequest(JSON.stringify(event)), t.db, NOW);
      expect(res.status, await res.clone().text()).toBe(200);
    },
  );

  it("example_full_event.json (a job with no inputs or outputs) is accepted, and its run is stored", async () => {
    const event = JSON.parse(fs.readFileSync(path.join(PEERS, "tests/example_full_event.json"), "utf8")) as { run: { runId: string } };
    const res = await receiveLineageRequest(lineageRequest(JSON.stringify(event)), t.db, NOW);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await t.db.run.count({ where: { externalId: event.run.runId } })).toBe(1);
  });
});

/** Runs of a fixture that completed: their job, the instant, and the datasets they named. */
function completedRuns(events: unknown[]) {
  const out: { job: string; at: string; inputs: string[]; outputs: string[]; check: boolean }[] = [];
  const all = events as {
    eventType?: string;
    eventTime: string;
    run?: { runId: string };
    job?: { namespace: string; name: string; facets?: { jobType?: { jobType?: string } } };
    inputs?: { namespace: string; name: string }[];
    outputs?: { namespace: string; name: string }[];
  }[];
  for (const e of all) {
    if (e.eventType !== "COMPLETE" || !e.run || !e.job) continue;
    const same = all.filter((x) => x.run?.runId === e.run!.runId && x.job?.name === e.job!.name && x.job?.namespace === e.job!.namespace);
    const ids = (list: { namespace: string; name: string }[] | undefined) => (list ?? []).map((d) => `dataset:${d.namespace}:${d.name}`);
    out.push({
      job: `job:${e.job.namespace}:${e.job.name}`,
      at: e.eventTime,
      inputs: [...new Set(same.flatMap((x) => ids(x.inputs)))],
      outputs: [...new Set(same.flatMap((x) => ids(x.outputs)))],
      check: same.some((x) => x.job?.facets?.jobType?.jobType === "TEST"),
    });
  }
  return out;
}

const FIXTURES = [
  "openlineage/compat_airflow_3dags.ndjson",
  "openlineage/compat_spark_bigquery_shakespeare.ndjson",
  "openlineage/compat_spark_cll.ndjson",
  "openlineage/compat_spark_dataproc_hive_t1_t2.ndjson",
  "openlineage/dbt_ol_postgres_build_events.json",
  "openlineage/dbt_ol_postgres_failed_run_events.json",
  "openlineage/dbt_ol_postgres_test_events.json",
  "openlineage/ol_client_python_example_full_event.json",
  "marquez/apples.ndjson",
  "marquez/metadata.json",
];

describe("the fixtures' events", () => {
  it.each(FIXTURES)("%s: every event accepted; each completed run's inputs and outputs are its direct neighbours in the closure as of then", async (file) => {
    const db = await createTestDatabase("sqlite");
    try {
      const events = fixtureEvents(file);
      const res = await receiveLineageRequest(lineageRequest(events.map((e) => JSON.stringify(e)).join("\n")), db.db, NOW);
      expect(res.status).toBe(200);
      // A run that named no dataset (an Airflow DAG's own run, a Spark application) has no neighbours.
      for (const run of completedRuns(events).filter((r) => r.inputs.length + r.outputs.length > 0)) {
        const asOf = new Date(Date.parse(run.at)).toISOString();
        const down = await computeClosure({ nodeId: run.job, direction: "downstream", asOf }, NOW, db.db);
        const up = await computeClosure({ nodeId: run.job, direction: "upstream", asOf }, NOW, db.db);
        const near = (c: typeof down) =>
          c.nodes
            .filter((n) => n.depth === 1)
            .map((n) => n.nodeId)
            .sort();
        // A check (dbt test) writes nothing to complete; a dataset both read and written is the job's own (in place).
        const outputs = run.check ? [] : run.outputs;
        expect(near(down), `${run.job} as of ${asOf}`).toEqual(expect.arrayContaining(outputs));
        expect(near(up), `${run.job} as of ${asOf}`).toEqual(expect.arrayContaining(run.inputs.filter((i) => !outputs.includes(i))));
      }
    } finally {
      await db.drop();
    }
  });
});
