import { LineageLayoutSchema, type LineageLayout, type LineageLayoutResult } from "@/lib/contracts/lineage";
import { keepJson, type KeptJson } from "../http/kept-json";
import { remember } from "../cache/recent-promises";
import { getDb, type Db } from "../repositories/database";
import { elkThreads } from "./layout/elk-threads";
import { layoutLineage } from "./layout/layout-lineage";
import { getKeptLineageGraphView, getLineageGraphView } from "./get-lineage-graph-view";
import { log } from "../observability/log";
import { processSingleton } from "../runtime/process-singleton";
import { compositeKey } from "@/lib/domain/composite-key";

/**
 * The ELK layout of the lineage graph (of `asOf`, default now) with the named pipelines drawn
 * collapsed, computed on the server's layout threads and kept by the graph's content hash: every
 * browser, every reload and every console sharing the catalog's content gets the same layout
 * without laying it out again, and the page never runs ELK itself. Pipelines the graph does not
 * have are ignored (a link kept from before a pipeline was removed still opens).
 */
export async function getLineageLayout(query: { asOf?: string; collapsed?: string }, now: Date, db: Db = getDb()): Promise<LineageLayout> {
  return (await layoutOf(query, now, db)).answer;
}

async function layoutOf(query: { asOf?: string; collapsed?: string }, now: Date, db: Db): Promise<{ layout: LineageLayoutResult; answer: LineageLayout }> {
  const view = await getLineageGraphView(query.asOf, now, db);
  const pipelines = new Set(view.nodes.map((n) => n.pipeline));
  const collapsed = [...new Set((query.collapsed ?? "").split(",").map((p) => p.trim()))].filter((p) => pipelines.has(p)).sort();
  const key = compositeKey(view.hash, ...collapsed);
  const layout = remember(layouts, key, KEPT_LAYOUTS, () =>
    layoutLineage(elkThreads(), {
      nodes: view.nodes.map((n) => ({ id: n.id, pipeline: n.pipeline })),
      // Self-reads and cut edges close cycles; the layout is of the lineage closures walk.
      edges: view.edges.filter((e) => e.status === "exact" || e.status === "degraded").map((e) => ({ source: e.source, target: e.target })),
      collapsed,
    }),
  );
  const result = await layout;
  return { layout: result, answer: { hash: view.hash, collapsed, ...result } };
}

/**
 * The same answer kept serialised (http/kept-json.ts) while its layout is kept: 50,000 positions
 * are megabytes to serialise, and every visit asks for the same ones.
 */
export async function getKeptLineageLayout(query: { asOf?: string; collapsed?: string }, now: Date, db: Db = getDb()): Promise<KeptJson> {
  const { layout, answer } = await layoutOf(query, now, db);
  let body = kept.get(layout);
  if (!body) {
    if (process.env.NODE_ENV !== "production") LineageLayoutSchema.parse(answer);
    kept.set(layout, (body = keepJson(answer)));
  }
  return body;
}

// Per process, like the layouts: what the start-up warm-up keeps is what the route sends.
const kept = processSingleton("keptLayoutAnswers", () => new WeakMap<LineageLayoutResult, KeptJson>());

/** The most recently used layouts (~1 MB each at 10,000 nodes): the current lineage, a few collapsed views, an asOf or two. */
const KEPT_LAYOUTS = 8;
const layouts = processSingleton("lineageLayouts", () => new Map<string, Promise<LineageLayoutResult>>());

/**
 * Server start: lay out the current lineage in the background, then keep its graph (the compact
 * form the page asks for) and layout answers serialised, so the first visit to /lineage finds them ready. Never awaited and never
 * throws: a failure only means the first visit does this work.
 */
export function warmLineageLayout(): void {
  const started = Date.now();
  getLineageLayout({}, new Date())
    .then(async (l) => {
      log.info(`lineage layout ready (${Object.keys(l.positions).length} nodes, ${Date.now() - started} ms)`);
      const now = new Date();
      await Promise.all([getKeptLineageGraphView(undefined, now, undefined, "compact"), getKeptLineageLayout({}, now)]);
      log.info(`lineage answers kept (${Date.now() - started} ms)`);
    })
    .catch((e: unknown) => log.error(`laying out the lineage failed (the first /lineage visit will retry): ${(e as Error).message}`));
}
