import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UnitMatrixFromRunsSchema, type UnitMatrix } from "@/lib/contracts/units";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { createDb } from "../db/client";
import { receiveLineageRequest } from "../http/ingestion-requests";
import { lineageRequest } from "../ingestion/testing/fixtures";
import { appendPublishes } from "../repositories/ledger/ingested-runs";
import { getUnitDetail } from "./get-unit-detail";
import { getUnitStateSnapshot, keepUnitStates, problemsLookup, type UnitStateSnapshot } from "./state-service";
import { getUnitMatrix, getUnitMatrixInRuns } from "./get-unit-matrix";
import { loadUnitStates } from "./load-unit-states";
import { closure } from "@/lib/domain/closure";
import type { DatasetId } from "@/lib/domain/ids";
import { buildLineageGraph } from "@/lib/domain/lineage-graph";
import { resolvePartitions } from "@/lib/domain/partitions";
import { UnitSet } from "@/lib/domain/unit-set";
import { listDatasets, listEdgesAt, listTasks } from "../repositories/lineage/catalog-reads";
import { buildLineageSpec } from "../lineage/lineage-spec";
import { persist } from "./state-service/kept-states";
import { stateOf } from "./state-service/service-state";

// The demo world seen through the matrix API, on each database. "Now" is fixed so the meters'
// monthly definition expects 2026-01 … 2026-10.
const NOW = new Date("2026-11-29T12:00:00Z");

function cellOf(m: UnitMatrix, name: string, key: string): string | undefined {
  for (const s of m.sections) {
    const row = s.rows.find((r) => r.name === name);
    const i = s.columns.indexOf(key);
    if (row && i >= 0) return row.cells[i];
  }
  return undefined;
}

describe.each(providersUnderTest())("the unit matrix API on %s", (provider) => {
  let t: TestDatabase;
  let m: UnitMatrix;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
    m = await getUnitMatrix({ states: [] }, NOW, t.db);
  }, 180_000);
  afterAll(async () => t.drop());

  it("holds each demo failure in its state, one character per cell", () => {
    expect(cellOf(m, "fct_orders", "2026-08-17")).toBe("b");
    expect(cellOf(m, "fct_orders", "2026-08-23")).toBe("b");
    expect(cellOf(m, "fct_orders", "2026-08-10")).toBe("v");
    expect(cellOf(m, "stg_orders", "2026-08-10")).toBe("d");
    expect(cellOf(m, "stg_orders", "2026-08-17")).toBe("f");
    expect(cellOf(m, "meter_readings_raw", "2026-07")).toBe("f");
    expect(cellOf(m, "meter_readings_screened", "2026-07")).toBe("v");
    expect(cellOf(m, "meter_readings_deduped", "2026-07")).toBe("v");
    expect(cellOf(m, "meter_consumption", "2026-01")).toBe("-");
    expect(m.sections.map((s) => [s.label, s.columns.length, s.rows.length])).toEqual([
      ["Daily (UTC)", 100, 7],
      ["Weekly, ISO weeks (UTC)", 14, 1],
      ["Monthly (UTC)", 10, 5],
      ["Unpartitioned", 1, 2],
    ]);
    expect(m.counts).toMatchObject({ failed: 3, blocked: 18, divergent: 3, duplicate: 1, input_mismatch: 0, suspect: 16, published: 723, missing: 0 });
    // Built on stg_orders 2026-08-10's one and a half copies (through fct_orders' divergent day): seed 001's "green, but wrong".
    for (const name of ["revenue_daily", "executive_dashboard", "order_features", "running_balance"]) expect(cellOf(m, name, "2026-08-10"), name).toBe("u");
    expect(cellOf(m, "weekly_revenue_export", "2026-W33")).toBe("u");
    // A running balance carries the inflated day into every later balance, up to the blocked 2026-08-17.
    expect(["2026-08-16", "2026-08-17"].map((k) => cellOf(m, "running_balance", k))).toEqual(["u", "b"]);
  });

  it("lists invalid keys apart, each with the definition's reason", () => {
    expect(m.invalidKeys.map((k) => [k.nodeId, k.unitKey, k.reason])).toEqual([
      ["job:ml:build_order_features", "2026-08-31", '"2026-08-31" is after the last unit 2026-08-25'],
      ["job:ml:build_order_features", "2026-8-24", '"2026-8-24" is not a day key (expected yyyy-MM-dd)'],
    ]);
  });

  it("filters by state, pipeline, date range and dataset", async () => {
    const failed = await getUnitMatrix({ states: ["failed"] }, NOW, t.db);
    expect(failed.sections.flatMap((s) => s.rows.map((r) => r.name))).toEqual(["stg_orders", "meter_readings_raw"]);
    const meters = await getUnitMatrix({ states: [], pipeline: "meters" }, NOW, t.db);
    expect(meters.counts).toMatchObject({ failed: 1, divergent: 2, blocked: 0 });
    expect(meters.invalidKeys).toEqual([]);
    const week = await getUnitMatrix({ states: [], from: "2026-08-10", to: "2026-08-16", dataset: "dataset:warehouse:stg_orders" }, NOW, t.db);
    expect(week.sections[0]!.columns).toEqual(["2026-08-10", "2026-08-11", "2026-08-12", "2026-08-13", "2026-08-14", "2026-08-15", "2026-08-16"]);
    expect(week.sections[0]!.rows.map((r) => [r.name, r.writerNodeId, r.cells])).toEqual([["stg_orders", "job:orders:stg_orders", "dpppppp"]]);
    await expect(getUnitMatrix({ states: [], dataset: "dataset:nowhere:x" }, NOW, t.db)).rejects.toThrow('dataset: no dataset "dataset:nowhere:x"');
  });

  it("answers the page's form, rows in runs, that reads back to the same matrix, filtered alike", async () => {
    const runs = await getUnitMatrixInRuns({ states: [] }, NOW, t.db);
    const stg = runs.sections[0]!.rows.find((r) => r.name === "stg_orders")!;
    expect(stg).not.toHaveProperty("cells");
    expect(stg.runs.length).toBeLessThan(runs.sections[0]!.columns.length / 4);
    expect(UnitMatrixFromRunsSchema.parse(JSON.parse(JSON.stringify(runs)))).toEqual(JSON.parse(JSON.stringify(m)));
    const failed = await getUnitMatrixInRuns({ states: ["failed"] }, NOW, t.db);
    expect(UnitMatrixFromRunsSchema.parse(JSON.parse(JSON.stringify(failed)))).toEqual(
      JSON.parse(JSON.stringify(await getUnitMatrix({ states: ["failed"] }, NOW, t.db))),
    );
  });

  it("opens a cell: every publish and attempt, source count and deviation", async () => {
    const failed = await getUnitDetail("dataset:warehouse:stg_orders", "2026-08-17", NOW, t.db);
    expect(failed).toMatchObject({ state: "failed", sourceCount: 40, partialRows: 20, publishes: [], interventions: [] });
    // The writer's write mode says where it came from (the demo's facts are the team's declarations).
    expect(failed.writer).toEqual({
      nodeId: "job:orders:stg_orders",
      name: "stg_orders",
      writeMode: "append",
      writeModeFrom: "declared",
      owner: "orders-team",
      ownerFrom: "declared",
    });
    expect(failed.attempts.map((a) => [a.tryNumber, a.status, a.rowsWritten])).toEqual([
      [1, "failed", 20],
      [2, "failed", 0],
    ]);
    const divergent = await getUnitDetail("dataset:warehouse:fct_orders", "2026-08-10", NOW, t.db);
    expect(divergent).toMatchObject({ state: "divergent", sourceCount: 44, deviation: 0.5 });
    expect(divergent.publishes.map((p) => p.rowCount)).toEqual([66]);
    const blocked = await getUnitDetail("dataset:warehouse:fct_orders", "2026-08-17", NOW, t.db);
    expect(blocked.attempts.map((a) => a.status)).toEqual(["upstream_failed"]);
    await expect(getUnitDetail("dataset:warehouse:fct_orders", "2026-8-17", NOW, t.db)).rejects.toThrow(
      'query.unit: "2026-8-17" is not a day key (expected yyyy-MM-dd)',
    );
  });

  it("answers from its snapshot until the ledger changes, then recomputes", async () => {
    const ds = await t.db.dataset.findFirstOrThrow({ where: { nodeId: "dataset:warehouse:fct_orders" } });
    const run = await t.db.run.findFirstOrThrow({ where: { kind: "scheduled" } });
    await t.db.publish.create({
      data: { datasetId: ds.id, unitKey: "2026-08-17", runId: run.id, publishedAt: new Date("2026-11-01T00:00:00Z"), rowCount: 40 },
    });
    const after = await getUnitMatrix({ states: [] }, NOW, t.db);
    expect(cellOf(after, "fct_orders", "2026-08-17")).not.toBe("b");
    expect(after.counts.blocked).toBe(17);
  });

  it("a new hour recomputes nothing when no dataset gained an expected unit", async () => {
    const before = await getUnitStateSnapshot(t.db, NOW);
    const later = await getUnitStateSnapshot(t.db, new Date(NOW.getTime() + 3_600_000));
    expect(later.computedAt.toISOString()).toBe("2026-11-29T13:00:00.000Z");
    expect(later.datasets.length).toBe(before.datasets.length);
    for (const [i, d] of later.datasets.entries()) expect(d.codes, d.dataset.nodeId).toBe(before.datasets[i]!.codes);
  });

  it("a load the kept states cannot inform yet (a first start still computing) computes the upstream itself", async () => {
    const d = await t.db.dataset.findFirstOrThrow({ where: { nodeId: { endsWith: ":revenue_daily" } } });
    const [revenue] = await loadUnitStates(t.db, NOW, { datasetNodeIds: [d.nodeId], knownProblems: () => undefined });
    expect(revenue!.dataset.nodeId).toBe(d.nodeId);
    const unit = revenue!.units.find((u) => u.key === "2026-08-10")!;
    expect(unit.result.state).toBe("suspect");
    expect(revenue!.units.map((u) => u.result.state)).toEqual(
      (await loadUnitStates(t.db, NOW, { datasetNodeIds: [d.nodeId], knownProblems: problemsLookup(await getUnitStateSnapshot(t.db, NOW)) }))[0]!.units.map(
        (u) => u.result.state,
      ),
    );
  });

  it("a load of a question's closure only (completeness during a first start) gives those units the full load's states", async () => {
    const [datasets, tasks, edges] = await Promise.all([listDatasets(t.db), listTasks(t.db), listEdgesAt(t.db, NOW)]);
    const graph = buildLineageGraph(buildLineageSpec(tasks, datasets, edges), { asOf: NOW.getTime() });
    const full = new Map((await loadUnitStates(t.db, NOW)).map((d) => [d.dataset.nodeId, d]));
    // running_balance reads its own past: its August is built on every earlier unit, and on the
    // duplicated 2026-08-10 of stg_orders upstream.
    for (const name of ["running_balance", "revenue_daily"]) {
      const target = datasets.find((d) => d.nodeId.endsWith(`:${name}`))!;
      const period = resolvePartitions(target.partitionDef, { asOf: NOW.getTime() });
      const days = Array.from({ length: 31 }, (_, i) => `2026-08-${String(i + 1).padStart(2, "0")}`);
      const august = UnitSet.fromOrdinals(days.map((k) => period.validate(k)).flatMap((v) => (v.valid ? [v.ordinal] : [])));
      expect(august.size).toBeGreaterThan(20);
      const up = closure(graph, [{ node: target.nodeId as DatasetId, units: august }], "upstream");
      const ids = [...up.entries.values()].filter((e) => e.nodeKind === "dataset").map((e) => e.node as string);
      const partial = await loadUnitStates(t.db, NOW, {
        datasetNodeIds: ids,
        knownProblems: () => undefined,
        units: (nodeId) => up.entries.get(nodeId as DatasetId)?.units,
      });
      let compared = 0;
      for (const d of partial) {
        const all = new Map(full.get(d.dataset.nodeId)!.units.map((u) => [u.ordinal, u.result]));
        for (const u of d.units) {
          expect(up.entries.get(d.dataset.nodeId as DatasetId)!.units.contains(u.ordinal)).toBe(true);
          expect([d.dataset.name, u.key, u.result.state, u.result.reasons]).toEqual([
            d.dataset.name,
            u.key,
            all.get(u.ordinal)!.state,
            all.get(u.ordinal)!.reasons,
          ]);
          compared++;
        }
      }
      const own = partial.find((d) => d.dataset.nodeId === target.nodeId)!;
      expect(own.units.find((u) => u.key === "2026-08-10")?.result.state).toBe("suspect");
      // Far fewer units than the datasets hold: the closure, not every unit of them.
      expect(compared).toBeLessThan(ids.reduce((n, id) => n + full.get(id)!.units.length, 0));
      expect(compared).toBeGreaterThan(30);
    }
  });

  it("kept states written under another state vocabulary are computed again, never remapped", async () => {
    const row = await t.db.unitStateSnapshot.findFirstOrThrow();
    const rows = await t.db.unitStateKept.findMany();
    const body = JSON.parse(row.body) as { vocabulary: string };
    await t.db.unitStateSnapshot.update({
      where: { id: row.id },
      data: { body: JSON.stringify({ ...body, vocabulary: "known_bad,skipped,failed,missing,blocked" }) },
    });
    const other = createDb(t.target);
    try {
      const at = new Date(NOW.getTime() + 1_000);
      const fresh = await getUnitStateSnapshot(other, at);
      expect(fresh.computedAt.toISOString()).toBe(at.toISOString());
      expect(cellOf(await getUnitMatrix({ states: [] }, at, other), "revenue_daily", "2026-08-10")).toBe("u");
    } finally {
      await other.$disconnect();
      // The states kept before, as they were (the console above kept its own since).
      await t.db.unitStateSnapshot.update({ where: { id: row.id }, data: { body: row.body, computedAt: row.computedAt } });
      await t.db.unitStateKept.deleteMany({});
      await t.db.unitStateKept.createMany({ data: rows });
    }
  });

  it("a console started on the same database answers from the kept snapshot, then recomputes only what changed", async () => {
    const kept = await getUnitStateSnapshot(t.db, new Date(NOW.getTime() + 3_600_000));
    const other = createDb(t.target);
    try {
      // The kept snapshot (persisted at most every 30 s) plus the changes and newly due units since: the same states.
      const restored = await getUnitStateSnapshot(other, new Date(NOW.getTime() + 3_700_000));
      const codes = (s: UnitStateSnapshot) => Object.fromEntries(s.datasets.map((d) => [d.dataset.nodeId, Buffer.from(d.codes).toString("base64")]));
      expect(codes(restored)).toEqual(codes(kept));
      // Each problem unit's state, reasons and facts come back as they were kept (a string table on disk).
      const problems = (s: UnitStateSnapshot) => Object.fromEntries(s.datasets.map((d) => [d.dataset.nodeId, [...d.problems]]));
      expect(problems(restored)).toEqual(problems(kept));
      expect(Object.values(problems(restored)).flat().length).toBeGreaterThan(20);

      const ds = await other.dataset.findFirstOrThrow({ where: { nodeId: "dataset:warehouse:fct_orders" } });
      const run = await other.run.findFirstOrThrow({ where: { kind: "scheduled" } });
      // Through the ledger's repository, as every write path does: the change is logged with it.
      await other.$transaction((tx) =>
        appendPublishes(tx, [
          {
            id: "p-0823",
            datasetId: ds.id,
            unitKey: "2026-08-23",
            runId: run.id,
            attemptId: null,
            publishedAt: new Date("2026-11-02T00:00:00Z"),
            inputVersion: "",
            codeVersion: "",
            rowCount: 40,
          },
        ]),
      );
      const after = await getUnitStateSnapshot(other, new Date(NOW.getTime() + 3_800_000));
      expect(after.computedAt.toISOString()).toBe("2026-11-29T13:03:20.000Z");
      const byId = (s: UnitStateSnapshot, name: string) => s.datasets.find((d) => d.dataset.nodeId.endsWith(`:${name}`))!;
      // The unit published to and what is built from it are recomputed; a dataset outside its reach is the kept snapshot's own.
      expect(byId(after, "fct_orders").codes).not.toBe(byId(restored, "fct_orders").codes);
      expect(byId(after, "revenue_daily").codes).not.toBe(byId(restored, "revenue_daily").codes);
      expect(byId(after, "meter_readings_raw").codes).toBe(byId(restored, "meter_readings_raw").codes);
      const matrix = await getUnitMatrix({ states: [] }, new Date(NOW.getTime() + 3_800_000), other);
      expect(cellOf(matrix, "fct_orders", "2026-08-23")).not.toBe("b");
      expect(cellOf(matrix, "fct_orders", "2026-08-22")).toBe(cellOf(await getUnitMatrix({ states: [] }, NOW, t.db), "fct_orders", "2026-08-22"));

      // A write that bypasses the change log (someone's SQL) still shows: the states are computed again.
      await other.publish.create({
        data: { datasetId: ds.id, unitKey: "2026-08-21", runId: run.id, publishedAt: new Date("2026-11-03T00:00:00Z"), rowCount: 40 },
      });
      const direct = await getUnitMatrix({ states: [] }, new Date(NOW.getTime() + 3_900_000), other);
      expect(cellOf(direct, "fct_orders", "2026-08-21")).toBe("p");
    } finally {
      await other.$disconnect();
    }
  });
});

// Its own world: the ingested run below changes what the tests above compare with.
describe.each(providersUnderTest())("the unit matrix's pipelines on %s", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
  }, 180_000);
  afterAll(async () => t.drop());

  it("lists every pipeline of the catalog, one ingestion created from a run's parent job too, and filters by the writer's pipeline", async () => {
    const m = await getUnitMatrix({ states: [] }, NOW, t.db);
    expect(m.pipelines).toEqual(["finance", "meters", "ml", "orders"]);
    const event = {
      eventType: "COMPLETE",
      eventTime: "2026-08-18T02:10:00Z",
      producer: "https://example.test/producer",
      schemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
      run: {
        runId: "3f5e4c1b-0000-4000-8000-00000000b111",
        facets: {
          parent: {
            _producer: "https://example.test/producer",
            _schemaURL: "https://openlineage.io/spec/facets/1-1-0/ParentRunFacet.json#/$defs/ParentRunFacet",
            run: { runId: "3f5e4c1b-0000-4000-8000-00000000b110" },
            job: { namespace: "billing", name: "billing_dag" },
          },
        },
      },
      job: { namespace: "billing", name: "billing_dag" },
      inputs: [],
      outputs: [{ namespace: "warehouse", name: "invoices" }],
    };
    const res = await receiveLineageRequest(lineageRequest(JSON.stringify(event)), t.db, NOW);
    expect(res.status, await res.clone().text()).toBe(200);
    const after = await getUnitMatrix({ states: [] }, NOW, t.db);
    expect(after.pipelines).toEqual([...m.pipelines, "billing_dag"].sort());
    const billing = await getUnitMatrix({ states: [], pipeline: "billing_dag" }, NOW, t.db);
    expect(billing.sections.flatMap((s) => s.rows.map((r) => [r.name, r.pipeline]))).toEqual([["invoices", "billing_dag"]]);
  });
});

// Its own world: a change log with nothing pending past the kept states.
describe.each(providersUnderTest())("the kept unit states on %s", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
  }, 180_000);
  afterAll(async () => t.drop());

  it("a console that took up the kept states keeps them again only once they move (at 10M units a rewrite is seconds of the event loop)", async () => {
    const at = new Date(NOW.getTime() + 4_000_000);
    await getUnitMatrix({ states: [] }, at, t.db);
    await keepUnitStates(t.db, at);
    const other = createDb(t.target);
    const marker = new Date("2000-01-01T00:00:00Z");
    const keptAt = async () => (await t.db.unitStateSnapshot.findUniqueOrThrow({ where: { id: "current" } })).computedAt.toISOString();
    try {
      await getUnitStateSnapshot(other, at);
      // Marks the row without changing what it holds: a rewrite would replace the mark.
      await t.db.unitStateSnapshot.update({ where: { id: "current" }, data: { computedAt: marker } });
      await keepUnitStates(other, at);
      expect(await keptAt()).toBe(marker.toISOString());

      const ds = await other.dataset.findFirstOrThrow({ where: { nodeId: "dataset:warehouse:fct_orders" } });
      const run = await other.run.findFirstOrThrow({ where: { kind: "scheduled" } });
      await other.$transaction((tx) =>
        appendPublishes(tx, [
          {
            id: "p-0820",
            datasetId: ds.id,
            unitKey: "2026-08-20",
            runId: run.id,
            attemptId: null,
            publishedAt: new Date("2026-11-04T00:00:00Z"),
            inputVersion: "",
            codeVersion: "",
            rowCount: 40,
          },
        ]),
      );
      // Each dataset's row marked the same way (a trailing space: the same JSON): only the
      // datasets the publish reached are written again.
      const rows = await t.db.unitStateKept.findMany();
      for (const r of rows) await t.db.unitStateKept.update({ where: { datasetId: r.datasetId }, data: { body: `${r.body} ` } });
      await keepUnitStates(other, at);
      expect(await keptAt()).not.toBe(marker.toISOString());
      const nodeOf = new Map((await t.db.dataset.findMany()).map((d) => [d.id, d.nodeId]));
      const rewritten = (await t.db.unitStateKept.findMany()).filter((r) => !r.body.endsWith(" ")).map((r) => nodeOf.get(r.datasetId));
      expect(rewritten).toContain("dataset:warehouse:fct_orders");
      expect(rewritten).not.toContain("dataset:meters:meter_readings_raw");
      expect(rewritten.length).toBeLessThan(rows.length / 2);

      // A third console takes up the header and the rows, old and new: the states `other` has.
      const third = createDb(t.target);
      try {
        const mine = await getUnitStateSnapshot(other, at);
        const taken = await getUnitStateSnapshot(third, at);
        const codes = (s: UnitStateSnapshot) => Object.fromEntries(s.datasets.map((d) => [d.dataset.nodeId, Buffer.from(d.codes).toString("base64")]));
        expect(codes(taken)).toEqual(codes(mine));
        expect(taken.datasets.map((d) => [d.dataset.nodeId, [...d.problems]])).toEqual(mine.datasets.map((d) => [d.dataset.nodeId, [...d.problems]]));
      } finally {
        await third.$disconnect();
      }
    } finally {
      await other.$disconnect();
    }
  });

  it("two consoles keeping in turn, one of them behind: a console taking up the kept states gets the newest, not the rows of the one behind", async () => {
    const at = new Date(NOW.getTime() + 4_000_000);
    const other = createDb(t.target);
    const third = createDb(t.target);
    const publish = async (node: string, unitKey: string, id: string) => {
      const ds = await t.db.dataset.findFirstOrThrow({ where: { nodeId: node } });
      const run = await t.db.run.findFirstOrThrow({ where: { kind: "scheduled" } });
      await t.db.$transaction((tx) =>
        appendPublishes(tx, [
          {
            id,
            datasetId: ds.id,
            unitKey,
            runId: run.id,
            attemptId: null,
            publishedAt: new Date("2026-11-05T00:00:00Z"),
            inputVersion: "",
            codeVersion: "",
            rowCount: 40,
          },
        ]),
      );
    };
    try {
      await getUnitStateSnapshot(t.db, at);
      await keepUnitStates(t.db, at);
      await getUnitStateSnapshot(other, at);
      // t.db brings its states up past one publish, `other` past a second, and keeps them.
      await publish("dataset:warehouse:fct_orders", "2026-08-19", "p-k-1");
      await getUnitStateSnapshot(t.db, at);
      await publish("dataset:warehouse:fct_orders", "2026-08-18", "p-k-2");
      await getUnitStateSnapshot(other, at);
      await keepUnitStates(other, at);
      // t.db keeps the states it has, one publish behind (a keep due on a timer, before its next read).
      await persist(t.db, stateOf(t.db).entry!);
      // `other` moves on elsewhere and keeps again: its fct_orders are those it kept before.
      await publish("dataset:warehouse:meter_readings_raw", "2026-05", "p-k-3");
      await getUnitStateSnapshot(other, at);
      await keepUnitStates(other, at);
      const mine = await getUnitStateSnapshot(other, at);
      const taken = await getUnitStateSnapshot(third, at);
      const fct = (s: UnitStateSnapshot) => s.datasets.find((d) => d.dataset.nodeId === "dataset:warehouse:fct_orders")!;
      expect(Buffer.from(fct(taken).codes).toString("base64")).toBe(Buffer.from(fct(mine).codes).toString("base64"));
      expect([...fct(taken).problems]).toEqual([...fct(mine).problems]);
    } finally {
      await other.$disconnect();
      await third.$disconnect();
    }
  });
});
