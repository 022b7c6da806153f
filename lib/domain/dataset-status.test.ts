import { describe, expect, it } from "vitest";
import { datasetStatus, type StatusProblemInput } from "./dataset-status";
import { escapeXml, statusBadgeSvg } from "./status-badge";

const KEYS = ["2026-08-14", "2026-08-15", "2026-08-16", "2026-08-17", "2026-08-18"];
const repairing = { id: "inc-1", title: "stg_orders failed", status: "repairing" };
const opened = { id: "inc-2", title: "stg_orders failed", status: "open" };
const problem = (unitKey: string, effect: StatusProblemInput["effect"], onIt = [] as StatusProblemInput["onIt"]): StatusProblemInput => ({
  unitKey,
  effect,
  onIt,
});

describe("datasetStatus", () => {
  it("a complete period is complete through its last key", () => {
    const s = datasetStatus({ name: "revenue_daily", keys: KEYS, verdict: "complete", problems: [] });
    expect(s).toMatchObject({ state: "complete", completeThrough: "2026-08-18", problems: [] });
    expect(s.headline).toBe("revenue_daily · complete through 2026-08-18");
  });

  it("a unit being repaired: complete up to the day before it, and said to be repaired", () => {
    const s = datasetStatus({ name: "revenue_daily", keys: KEYS, verdict: "incomplete", problems: [problem("2026-08-17", "absent", [repairing])] });
    expect(s.state).toBe("being_repaired");
    expect(s.completeThrough).toBe("2026-08-16");
    expect(s.headline).toBe("revenue_daily · complete through 2026-08-16 · 2026-08-17 missing (being repaired)");
  });

  it("problems in key order, an open incident not yet a repair, and no one on the other: incomplete", () => {
    const s = datasetStatus({
      name: "revenue_daily",
      keys: KEYS,
      verdict: "incomplete",
      problems: [problem("2026-08-17", "absent", [opened]), problem("2026-08-15", "overstated")],
    });
    expect(s.state).toBe("incomplete");
    expect(s.completeThrough).toBe("2026-08-14");
    expect(s.problems.map((p) => [p.unitKey, p.word, p.beingRepaired])).toEqual([
      ["2026-08-15", "overstated", false],
      ["2026-08-17", "missing", false],
    ]);
    expect(s.headline).toBe("revenue_daily · complete through 2026-08-14 · 2026-08-15 overstated, 2026-08-17 missing (incident open)");
  });

  it("the first unit wrong: nothing is called complete; past three problems, the rest counted", () => {
    const s = datasetStatus({
      name: "d",
      keys: KEYS,
      verdict: "incomplete",
      problems: KEYS.map((k) => problem(k, "unknown")),
    });
    expect(s.completeThrough).toBeNull();
    expect(s.headline).toBe("d · not complete from 2026-08-14 · 2026-08-14 uncertain, 2026-08-15 uncertain, 2026-08-16 uncertain +2 more");
  });

  it("a dataset without partitions is one unit: complete, or the whole table is not", () => {
    expect(datasetStatus({ name: "dim_customers", keys: ["*"], verdict: "complete", problems: [] }).headline).toBe("dim_customers · complete");
    const s = datasetStatus({ name: "dim_customers", keys: ["*"], verdict: "incomplete", problems: [problem("*", "absent")] });
    expect(s).toMatchObject({ completeThrough: null, headline: "dim_customers · not complete · the whole table missing" });
  });

  it("an incomplete verdict naming no unit of its own keys does not claim how far it is whole", () => {
    const s = datasetStatus({ name: "d", keys: KEYS, verdict: "incomplete", problems: [] });
    expect(s).toMatchObject({ state: "incomplete", completeThrough: null, headline: "d · not complete" });
  });
});

describe("statusBadgeSvg", () => {
  it("is an SVG with the status as its title and accessible name, coloured by its state", () => {
    const svg = statusBadgeSvg("revenue_daily", "complete through 2026-08-16 · 2026-08-17 missing (being repaired)", "being_repaired");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="\d+" height="20"/);
    expect(svg).toContain('aria-label="revenue_daily · complete through 2026-08-16 · 2026-08-17 missing (being repaired)"');
    expect(svg).toContain("<title>revenue_daily · complete through 2026-08-16 · 2026-08-17 missing (being repaired)</title>");
    expect(svg).toContain('fill="#b45309"');
    expect(svg).not.toMatch(/<script|href=/);
  });

  it("escapes a producer's name rather than letting it into the markup", () => {
    const svg = statusBadgeSvg(`x"><script>alert(1)</script>`, "complete through 2026-08-16", "complete");
    expect(svg).not.toContain("<script>");
    expect(svg).toContain(escapeXml(`x"><script>alert(1)</script>`));
  });

  it("a longer text makes a wider badge, and a very long one is cut", () => {
    const width = (svg: string) => Number(/width="(\d+)"/.exec(svg)![1]);
    expect(width(statusBadgeSvg("d", "complete through 2026-08-16 · 2026-08-17 missing", "incomplete"))).toBeGreaterThan(
      width(statusBadgeSvg("d", "complete", "complete")),
    );
    expect(statusBadgeSvg("d", "x".repeat(500), "incomplete")).toContain(`${"x".repeat(119)}…`);
  });
});
