import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PUT as partitions } from "@/app/api/v1/datasets/[id]/partitions/route";
import { POST as lineage } from "@/app/api/v1/lineage/route";
import type { NodeId } from "@/lib/domain/ids";
import { loadRepairContext } from "../repair/load-repair-context";
import { loadUnitStateIndex } from "../repair/unit-state-index";
import { getOverview } from "../overview/get-overview";
import { createTestDatabase, type TestDatabase } from "../testing/test-database";

/**
 * What the real dbt 1.12 + openlineage-dbt 1.54 sent for the peers lab's month
 * (test/fixtures/peers/dbt/openlineage-events.ndjson: `dbt-ol build --consume-structured-logs`
 * over August, the microbatch model revenue_daily failing its batches 2026-08-17 and 2026-08-23,
 * a partial success). Before: the 29 COMPLETEs and 2 FAILs of its one run were 31 tries of one
 * unit ending in success — no failure on the overview — and each of the 194 SQL statements dbt-ol
 * reports as a job (`<model>.sql.<n>`) became a task.
 */
const EVENTS = path.resolve(__dirname, "../../../test/fixtures/peers/dbt/openlineage-events.ndjson");
const REVENUE = "dataset:postgres://127.0.0.1:5432:reparo_lab_warehouse.dbt_lab.revenue_daily";
const MODEL = "job:dbt-lab:model.reparo_lab_orders.revenue_daily";
const DAILY = { kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-31", timezone: "UTC" };
const NOW = new Date("2026-12-05T12:00:00Z");
const AUGUST = Array.from({ length: 31 }, (_, i) => `2026-08-${String(i + 1).padStart(2, "0")}`);
const saved = process.env.DATABASE_URL;

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
async function call(handler: Handler, body: string, params: Record<string, string> = {}, type = "application/json") {
  const res = await handler(new Request("http://console.test/x", { method: "POST", body, headers: { "content-type": type, "x-reparo-user": "ingest-bot" } }), {
    params: Promise.resolve(params),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${res.status}: ${text.slice(0, 400)}`);
  return JSON.parse(text) as Record<string, unknown>;
}
const send = () => call(lineage, fs.readFileSync(EVENTS, "utf8"), {}, "application/x-ndjson");
const declare = () => call(partitions, JSON.stringify({ partitionDef: DAILY, reason: "one microbatch batch per day" }), { id: REVENUE });

async function fresh(): Promise<TestDatabase> {
  const t = await createTestDatabase("sqlite");
  process.env.DATABASE_URL = t.target.url;
  await t.db.user.create({ data: { id: "ingest-bot", displayName: "Ingestion", role: "operator" } });
  return t;
}

async function revenueStates(t: TestDatabase): Promise<Record<string, string[]>> {
  const index = await loadUnitStateIndex(t.db, NOW, [REVENUE]);
  const out: Record<string, string[]> = {};
  for (const day of AUGUST) {
    const state = index.get(REVENUE, day)!.result.state;
    out[state] = [...(out[state] ?? []), day];
  }
  return out;
}

describe("dbt-ol's structured logs of a microbatch model's partial success (the real dbt of the peers lab)", () => {
  let t: TestDatabase | undefined;
  afterAll(async () => {
    await t?.drop();
    process.env.DATABASE_URL = saved;
  });

  for (const order of ["declared first", "declared after the events"] as const)
    it(`each batch is its day's attempt: 2026-08-17 and 08-23 failed, the 29 others published (${order})`, async () => {
      await t?.drop();
      t = await fresh();
      if (order === "declared first") await declare();
      await send();
      if (order === "declared after the events") await declare();
      const states = await revenueStates(t);
      expect(states.failed).toEqual(["2026-08-17", "2026-08-23"]);
      expect(states.rows_unknown).toHaveLength(29);
      expect(Object.keys(states).sort()).toEqual(["failed", "rows_unknown"]);
      // One try per batch: 2026-08-17 is try 1 of its unit, not try 17 of the month.
      const attempts = await t.db.attempt.findMany({ where: { task: { nodeId: MODEL } }, select: { unitKey: true, tryNumber: true, status: true } });
      expect(attempts).toHaveLength(31);
      expect(new Set(attempts.map((a) => a.tryNumber))).toEqual(new Set([1]));
      const overview = await getOverview(NOW, t.db);
      const ofModel = overview.failures.filter((f) => f.taskNodeId === MODEL);
      expect(ofModel.map((f) => [f.unitKey, f.tries, f.error])).toEqual([
        ["2026-08-17", 1, "ERROR"],
        ["2026-08-23", 1, "ERROR"],
      ]);
      // A statement is part of its model's run, not a task.
      expect(await t.db.task.count({ where: { name: { contains: ".sql." } } })).toBe(0);
      expect((await t.db.task.findMany({ select: { name: true } })).map((x) => x.name).sort()).toEqual([
        "dbt-run-reparo_lab_orders",
        "model.reparo_lab_orders.fct_orders",
        "model.reparo_lab_orders.finance_export",
        "model.reparo_lab_orders.raw_orders",
        "model.reparo_lab_orders.revenue_daily",
        "model.reparo_lab_orders.running_balance",
        "model.reparo_lab_orders.stg_duplicates",
        "model.reparo_lab_orders.stg_orders",
        "test.reparo_lab_orders.accepted_values_raw_orders_country__DE__FR__NL__US.7ae33656a9",
        "test.reparo_lab_orders.not_null_raw_orders_order_id.e74425a338",
        "test.reparo_lab_orders.not_null_revenue_daily_revenue.24fb946d56",
      ]);
    });

  it("a dbt test reads what it checks, yet a repair of that model does not reach it: it builds nothing", async () => {
    await t?.drop();
    t = await fresh();
    await send();
    const test = "job:dbt-lab:test.reparo_lab_orders.not_null_revenue_daily_revenue.24fb946d56" as NodeId;
    expect(await t.db.task.findUniqueOrThrow({ where: { nodeId: test }, select: { kind: true } })).toEqual({ kind: "check" });
    // The lineage keeps its read (the lineage page draws it; a failing test alerts on revenue_daily)…
    expect(await t.db.lineageEdge.count({ where: { task: { nodeId: test }, direction: "read" } })).toBe(1);
    // …the repair's graph does not: it was held for an unknown write mode in the peers lab's loop.
    const { graph } = await loadRepairContext(t.db, NOW);
    const downstream = (id: string) => graph.out[graph.index.get(id as NodeId)!]!.map((e) => graph.nodes[e.to]!.id);
    expect(graph.index.has(test)).toBe(true);
    expect(graph.in[graph.index.get(test)!]).toEqual([]);
    expect(downstream(REVENUE).sort()).toEqual([MODEL.replace("revenue_daily", "finance_export"), MODEL.replace("revenue_daily", "running_balance")]);
  });
});
