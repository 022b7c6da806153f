import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { PUT as partitions } from "@/app/api/v1/datasets/[id]/partitions/route";
import { POST as lineage } from "@/app/api/v1/lineage/route";
import { POST as publishes } from "@/app/api/v1/publishes/route";
import { POST as sourceCounts } from "@/app/api/v1/source-counts/route";
import { PUT as taskProps } from "@/app/api/v1/tasks/[id]/route";
import { GET as completeness } from "@/app/api/v1/completeness/route";
import { GET as cell } from "@/app/api/v1/units/cell/route";
import { GET as matrix } from "@/app/api/v1/units/matrix/route";
import { stateOfCode, UnitMatrixFromRunsSchema, type UnitMatrix } from "@/lib/contracts/units";
import type { Completeness } from "@/lib/contracts/completeness";
import { getDb } from "../db/client";
import { arbSequence, partitionDefAt, type ProducerSequence } from "../ingestion/testing/arbitrary-producers";
import { getRoute } from "../testing/read-routes";
import { createTestDatabase } from "../testing/test-database";

/**
 * One unit-state service for every screen (issue "one unit-state service"): random producers'
 * ledgers, then for every cell the matrix shows, the cell API says the same state, and the
 * dataset's completeness counts the unit complete exactly when that state is one completeness
 * accepts (published, repaired, input-mismatch) and otherwise lists it with that same state.
 */
const RUNS = 25;
const PER_RUN = 30;
const WORLDS = 30;

/**
 * A small ledger world where trouble travels: chains of three daily datasets over five days
 * (job j_i reads d_(i-1), writes d_i; the last one also reads its own past), random write modes,
 * publishes (some twice), source counts (some off), failed tries that leave rows.
 */
const DAYS = ["2026-08-01", "2026-08-02", "2026-08-03", "2026-08-04", "2026-08-05"];
const arbWorld = fc.record({
  chains: fc.integer({ min: 1, max: 3 }),
  modes: fc.array(fc.constantFrom("append", "replace", "merge"), { minLength: 9, maxLength: 9 }),
  units: fc.array(
    fc.record({
      chain: fc.nat(2),
      step: fc.nat(2),
      day: fc.nat(4),
      publishes: fc.integer({ min: 0, max: 2 }),
      rows: fc.constantFrom(0, 60, 100, 100, 100),
      source: fc.option(fc.constantFrom(100, 140), { freq: 2 }),
      failedRows: fc.option(fc.constantFrom(0, 30), { freq: 3 }),
      minute: fc.nat(50),
    }),
    { minLength: 10, maxLength: 40 },
  ),
});
type World = typeof arbWorld extends fc.Arbitrary<infer T> ? T : never;

async function loadWorld(w: World) {
  const daily = { kind: "time", grain: "day", start: DAYS[0], end: DAYS[4], timezone: "UTC" };
  const ds = (c: number, i: number) => ({ namespace: "w", name: `c${c}_d${i}` });
  for (let c = 0; c < w.chains; c++) {
    for (let i = 0; i < 3; i++) {
      await send(partitions, "PUT", JSON.stringify({ partitionDef: daily, reason: "daily" }), { id: `dataset:w:c${c}_d${i}` });
      await send(taskProps, "PUT", JSON.stringify({ writeMode: w.modes[c * 3 + i], reason: "mode" }), { id: `job:w:c${c}_j${i}` });
    }
    const jobs = [0, 1, 2].map((i) => ({
      eventTime: "2026-07-31T00:00:00Z",
      job: { namespace: "w", name: `c${c}_j${i}` },
      inputs: [...(i > 0 ? [ds(c, i - 1)] : []), ...(i === 2 ? [ds(c, 2)] : [])],
      outputs: [ds(c, i)],
    }));
    await send(lineage, "POST", JSON.stringify(jobs));
  }
  const events: unknown[] = [];
  const pubs: unknown[] = [];
  const counts: unknown[] = [];
  w.units
    .filter((u) => u.chain < w.chains)
    .forEach((u, n) => {
      const day = DAYS[u.day]!;
      const at = (m: number) => `2026-08-0${u.day + 2}T0${u.step}:${String(u.minute + m).padStart(2, "0")}:00Z`;
      const job = { namespace: "w", name: `c${u.chain}_j${u.step}` };
      const output = {
        ...ds(u.chain, u.step),
        outputFacets: {
          outputStatistics: { rowCount: u.failedRows ?? 0 },
          subset: { outputCondition: { type: "partition", partitions: [{ identifier: day }] } },
        },
      };
      if (u.failedRows !== null) {
        const run = { runId: `fail-${n}` };
        events.push(
          { eventType: "START", eventTime: at(0), run, job, outputs: [output] },
          { eventType: "FAIL", eventTime: at(1), run, job, outputs: [output] },
        );
      }
      for (let p = 0; p < u.publishes; p++)
        pubs.push({ dataset: ds(u.chain, u.step), unitKey: day, run: { externalId: `pub-${n}-${p}`, job }, publishedAt: at(2 + p), rowCount: u.rows });
      if (u.source !== null) counts.push({ dataset: ds(u.chain, u.step), unitKey: day, rowCount: u.source, measuredAt: at(5) });
    });
  if (events.length > 0) await send(lineage, "POST", JSON.stringify(events));
  if (pubs.length > 0) await send(publishes, "POST", JSON.stringify(pubs));
  if (counts.length > 0) await send(sourceCounts, "POST", JSON.stringify(counts));
}
const COMPLETE = new Set(["published", "repaired", "input_mismatch", "rows_unknown"]);

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
const saved = process.env.DATABASE_URL;
afterAll(() => {
  process.env.DATABASE_URL = saved;
});

async function send(handler: Handler, method: string, body: string, params: Record<string, string> = {}) {
  await handler(new Request("http://console.test/x", { method, body, headers: { "content-type": "application/json", "x-reparo-user": "ingest-bot" } }), {
    params: Promise.resolve(params),
  });
}

async function load(seqs: ProducerSequence[]) {
  for (const s of seqs) {
    for (const d of [...s.declareBefore, ...s.declareAfter]) {
      await send(partitions, "PUT", JSON.stringify({ partitionDef: partitionDefAt(d.def), reason: "declared" }), { id: `dataset:${s.ns}-data:d${d.dataset}` });
    }
  }
  await send(lineage, "POST", JSON.stringify(seqs.flatMap((s) => s.events)));
  const pubs = seqs.flatMap((s) => s.publishes);
  if (pubs.length > 0) await send(publishes, "POST", JSON.stringify(pubs));
  const counts = seqs.flatMap((s) => s.sourceCounts);
  if (counts.length > 0) await send(sourceCounts, "POST", JSON.stringify(counts));
}

/** Every cell the matrix shows, asked of the cell API and of the dataset's completeness. */
async function disagreementsOnEveryCell(): Promise<{ found: string[]; checked: number; states: Set<string> }> {
  let checked = 0;
  const m = JSON.parse((await getRoute(matrix, "/api/v1/units/matrix")).body) as UnitMatrix;
  // The page's form (rows in runs) reads back to the same cells.
  expect(UnitMatrixFromRunsSchema.parse(JSON.parse((await getRoute(matrix, "/api/v1/units/matrix?cells=runs")).body))).toEqual(m);
  const byDataset = new Map<string, { key: string; state: string }[]>();
  for (const section of m.sections) {
    for (const row of section.rows) {
      [...row.cells].forEach((code, i) => {
        const state = stateOfCode(code);
        if (state) byDataset.set(row.nodeId, [...(byDataset.get(row.nodeId) ?? []), { key: section.columns[i]!, state }]);
      });
    }
  }
  const disagreements: string[] = [];
  for (const [dataset, cells] of [...byDataset].slice(0, 12)) {
    for (const c of cells.slice(0, 6)) {
      const detail = await getRoute(cell, `/api/v1/units/cell?dataset=${encodeURIComponent(dataset)}&unit=${encodeURIComponent(c.key)}`);
      const state = detail.status === 200 ? (JSON.parse(detail.body) as { state: string }).state : `${detail.status}`;
      if (state !== c.state) disagreements.push(`cell ${dataset} ${c.key}: matrix ${c.state}, cell API ${state}`);
      checked++;
    }
    const answer = await getRoute(completeness, `/api/v1/completeness?dataset=${encodeURIComponent(dataset)}`);
    if (answer.status !== 200) continue;
    const reasons = (JSON.parse(answer.body) as Completeness).reasons.filter((r) => r.role === "target");
    for (const c of cells) {
      const listed = reasons.filter((r) => r.unitKey === c.key).map((r) => r.state);
      if (COMPLETE.has(c.state) ? listed.length > 0 : !listed.includes(c.state as never)) {
        disagreements.push(`completeness ${dataset} ${c.key}: matrix ${c.state}, completeness lists [${listed.join(", ")}]`);
      }
    }
  }
  return { found: disagreements, checked, states: new Set([...byDataset.values()].flat().map((c) => c.state)) };
}

describe("one unit-state service (property)", () => {
  it(`${RUNS} runs × ${PER_RUN} random producers: the matrix, the cell API and completeness agree on every cell`, async () => {
    let checked = 0;
    const outcome = await fc.check(
      fc.asyncProperty(fc.tuple(...Array.from({ length: PER_RUN }, (_, i) => arbSequence(i))), async (seqs) => {
        const t = await createTestDatabase("sqlite");
        process.env.DATABASE_URL = t.target.url;
        try {
          await t.db.user.create({ data: { id: "ingest-bot", displayName: "Ingestion", role: "operator" } });
          await load(seqs);
          const disagreements = await disagreementsOnEveryCell();
          checked += disagreements.checked;
          if (disagreements.found.length > 0) throw new Error(disagreements.found.slice(0, 10).join("\n"));
        } finally {
          await getDb().$disconnect();
          await t.drop();
        }
      }),
      { numRuns: RUNS, seed: 20_261_212, endOnFailure: true },
    );
    if (outcome.failed)
      throw new Error(
        `seed ${outcome.seed}, path ${outcome.counterexamplePath}: ${String((outcome.errorInstance as Error | undefined)?.message ?? outcome.errorInstance).slice(0, 4_000)}`,
      );
    expect(checked).toBeGreaterThan(200);
  }, 600_000);

  it(`${WORLDS} random ledger worlds where trouble travels: the same agreement, and suspect units among them`, async () => {
    const seen = new Set<string>();
    let checked = 0;
    const outcome = await fc.check(
      fc.asyncProperty(arbWorld, async (w) => {
        const t = await createTestDatabase("sqlite");
        process.env.DATABASE_URL = t.target.url;
        try {
          await t.db.user.create({ data: { id: "ingest-bot", displayName: "Ingestion", role: "operator" } });
          await loadWorld(w);
          const d = await disagreementsOnEveryCell();
          checked += d.checked;
          for (const s of d.states) seen.add(s);
          if (d.found.length > 0) throw new Error(d.found.slice(0, 10).join("\n"));
        } finally {
          await getDb().$disconnect();
          await t.drop();
        }
      }),
      { numRuns: WORLDS, seed: 20_261_213, endOnFailure: true },
    );
    if (outcome.failed)
      throw new Error(
        `seed ${outcome.seed}, path ${outcome.counterexamplePath}: ${String((outcome.errorInstance as Error | undefined)?.message ?? outcome.errorInstance).slice(0, 4_000)}`,
      );
    expect(checked).toBeGreaterThan(300);
    // The worlds reach the states that travel: otherwise the agreement on them would be untested.
    expect([...seen].sort()).toEqual(expect.arrayContaining(["duplicate", "divergent", "empty", "failed", "missing", "published", "suspect"]));
  }, 600_000);
});
