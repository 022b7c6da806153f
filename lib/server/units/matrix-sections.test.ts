import { describe, expect, it } from "vitest";
import { resolvePartitions, type PartitionDef } from "@/lib/domain/partitions";
import type { DatasetRecord } from "../repositories/lineage/catalog-reads";
import { buildSections } from "./matrix-sections";
import { NOT_EXPECTED, RANK } from "./state-codes";
import type { DatasetStateCodes } from "./state-service";

const DAILY: PartitionDef = { kind: "time", grain: "day", start: "2026-08-01", end: "2026-08-05", timezone: "UTC" };
const ALL = { fromMs: null, toEndMs: null };

function aDataset(name: string, states: (keyof typeof CODE)[]): DatasetStateCodes {
  const dataset: DatasetRecord = {
    id: `id-${name}`,
    nodeId: `dataset:${name}`,
    namespace: "warehouse",
    name,
    pipeline: "daily",
    kind: "table",
    external: false,
    partitionDef: DAILY,
    tolerance: 0.05,
    sourceImmutable: null,
    partitionsDeclared: true,
  };
  const codes = Uint8Array.from(states.map((s) => CODE[s]));
  return { dataset, writer: null, space: resolvePartitions(DAILY), codes, problems: new Map(), invalidLedgerKeys: [], prevailing: null };
}

const CODE = { published: RANK.get("published")!, failed: RANK.get("failed")!, missing: RANK.get("missing")!, none: NOT_EXPECTED };

describe("buildSections", () => {
  // orders:    published published failed    missing   published
  // customers: published published published published published   (its states replaced by a write)
  it("keeps a dataset's row while its states stay, and counts it as a fresh build does", () => {
    const orders = aDataset("orders", ["published", "published", "failed", "missing", "published"]);
    const customers = aDataset("customers", ["published", "published", "published", "published", "none"]);
    const first = new Uint32Array(256);
    const [before] = buildSections([orders, customers], ALL, first);
    const written = { ...customers, codes: Uint8Array.from([CODE.published, CODE.published, CODE.published, CODE.published, CODE.published]) };
    const again = new Uint32Array(256);
    const [after] = buildSections([orders, written], ALL, again);

    expect(after!.rows[0]).toBe(before!.rows[0]);
    expect(after!.rows[1]).not.toBe(before!.rows[1]);
    expect(after!.rows.map((r) => r.nodeId)).toEqual(["dataset:orders", "dataset:customers"]);
    expect(after!.rows[1]!.cells).toBe(before!.rows[0]!.cells[0]!.repeat(5));
    expect([first[CODE.published], first[CODE.failed], first[CODE.missing], first[NOT_EXPECTED]]).toEqual([7, 1, 1, 1]);
    expect([again[CODE.published], again[CODE.failed], again[CODE.missing], again[NOT_EXPECTED]]).toEqual([8, 1, 1, 0]);
  });

  it("builds a kept dataset's row again for another window", () => {
    const orders = aDataset("orders", ["published", "published", "failed", "missing", "published"]);
    const [whole] = buildSections([orders], ALL);
    const tally = new Uint32Array(256);
    const [window] = buildSections([orders], { fromMs: Date.parse("2026-08-03T00:00:00Z"), toEndMs: Date.parse("2026-08-05T00:00:00Z") }, tally);

    expect(window!.columns).toEqual(["2026-08-03", "2026-08-04"]);
    expect(window!.rows[0]!.cells).toBe(whole!.rows[0]!.cells.slice(2, 4));
    expect([tally[CODE.failed], tally[CODE.missing], tally[CODE.published]]).toEqual([1, 1, 0]);
  });
});
