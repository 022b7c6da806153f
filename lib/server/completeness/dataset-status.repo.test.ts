import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as badge } from "@/app/api/v1/datasets/[id]/badge.svg/route";
import { GET as status } from "@/app/api/v1/datasets/[id]/status/route";
import { GET as pipelineStatus } from "@/app/api/v1/pipelines/[id]/status/route";
import { DatasetStatusSchema, PipelineStatusSchema } from "@/lib/contracts/dataset-status";
import { launchRepair } from "../repair/launch-repair";
import { COMMANDER, plannedIncident } from "../repair/testing/journey-steps";
import { validateIncident } from "../repair/validate-incident";
import { providersUnderTest, type TestDatabase } from "../testing/test-database";
import { createDemoTestDatabase } from "../testing/demo-test-database";
import { getCompleteness } from "./get-completeness";

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const REVENUE = "dataset:warehouse:revenue_daily";
const read = (handler: unknown, id: string) =>
  (handler as Handler)(new Request(`http://console.test/x`, { headers: { "x-reparo-user": "demo-viewer" } }), { params: Promise.resolve({ id }) });

/**
 * A dataset's status and its badge (issue "Who must know", item 4) on the demo world: the same
 * units as the completeness certificate, said in one line; an incident repairing a unit shows on
 * both; after the repair validates the unit leaves the line.
 */
describe.each(providersUnderTest())("dataset status and badge (%s)", (provider) => {
  let t: TestDatabase;
  const saved = process.env.DATABASE_URL;
  beforeAll(async () => {
    t = await createDemoTestDatabase(provider);
    process.env.DATABASE_URL = t.target.url;
  }, 180_000);
  afterAll(async () => {
    process.env.DATABASE_URL = saved;
    await t?.drop();
  });

  it("says in one line what the certificate says, unit for unit, cacheable for a minute", async () => {
    const res = await read(status, REVENUE);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=60");
    const s = DatasetStatusSchema.parse(await res.json());
    const cert = await getCompleteness({ dataset: REVENUE }, new Date(), t.db);
    expect(s.period).toEqual(cert.period);
    expect(s.problems.map((p) => p.unitKey)).toEqual(cert.byUnit.map((u) => u.unitKey));
    expect(s.problems.map((p) => `${p.unitKey} ${p.word}`)).toEqual(["2026-08-10 overstated", "2026-08-17 missing", "2026-08-23 missing"]);
    expect(s).toMatchObject({ state: "incomplete", completeThrough: "2026-08-09", incidents: [] });
    expect(s.headline).toBe("revenue_daily · complete through 2026-08-09 · 2026-08-10 overstated, 2026-08-17 missing, 2026-08-23 missing");
    expect(s.links.badge).toBe("/api/v1/datasets/dataset%3Awarehouse%3Arevenue_daily/badge.svg");
    // By name as well as by node id, as the completeness API.
    expect((await (await read(status, "revenue_daily")).json()).headline).toBe(s.headline);
  });

  it("the badge is an SVG of that line; an unknown dataset is a 404 naming it, a name too long a 400 naming the field", async () => {
    const res = await read(badge, REVENUE);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const svg = await res.text();
    expect(svg).toContain("<title>revenue_daily · complete through 2026-08-09 · 2026-08-10 overstated, 2026-08-17 missing, 2026-08-23 missing</title>");
    const missing = await read(badge, "dataset:warehouse:nope");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("nope");
    const long = await read(status, "x".repeat(301));
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("params.id");
  });

  it("a pipeline's status holds each dataset's own line, and leads with the worst", async () => {
    const res = await read(pipelineStatus, "orders");
    expect(res.status).toBe(200);
    const p = PipelineStatusSchema.parse(await res.json());
    const revenue = p.datasets.find((d) => d.nodeId === REVENUE)!;
    const own = DatasetStatusSchema.parse(await (await read(status, REVENUE)).json());
    expect(revenue).toMatchObject({ state: own.state, headline: own.headline, completeThrough: own.completeThrough, problems: own.problems.length });
    expect(p.state).toBe("incomplete");
    const complete = p.datasets.filter((d) => d.state === "complete").length;
    expect(p.headline).toMatch(new RegExp(`^orders · ${complete} of ${p.datasets.length} datasets complete · \\d+ not complete`));
    expect((await read(pipelineStatus, "no-such-pipeline")).status).toBe(404);
  });

  it("an incident's repair shows on the line while it runs, and the repaired units leave it once it validates", async () => {
    const id = await plannedIncident(t.db);
    const planned = DatasetStatusSchema.parse(await (await read(status, REVENUE)).json());
    expect(planned.problems.find((p) => p.unitKey === "2026-08-17")).toMatchObject({ beingRepaired: true, incidents: [{ id, status: "planned" }] });
    expect(planned.incidents.map((i) => i.id)).toContain(id);
    // When it should be whole: the confirmed plan timed from its tasks' recorded attempts (the demo's history has them).
    const eta = planned.incidents.find((i) => i.id === id)!.eta!;
    expect(eta.basis).toMatch(/^from the median of \d+ attempts of \d+ tasks/);
    expect(Date.parse(eta.at!)).toBeGreaterThanOrEqual(Date.now() - 60_000);
    expect(planned.headline).toContain("2026-08-17 missing (being repaired)");
    expect(await (await read(badge, REVENUE)).text()).toContain("2026-08-17 missing (being repaired)");

    const launched = await launchRepair(id, { resume: false, concurrency: 4 }, COMMANDER, new Date(), t.db);
    expect(await launched.execution).toBe("succeeded");
    await validateIncident(id, new Date(), t.db);
    const after = DatasetStatusSchema.parse(await (await read(status, REVENUE)).json());
    expect(after.problems.map((p) => p.unitKey)).not.toContain("2026-08-17");
    expect(after.problems.map((p) => p.unitKey)).not.toContain("2026-08-23");
    expect(await (await read(badge, REVENUE)).text()).not.toContain("2026-08-17");
  }, 120_000);
});
