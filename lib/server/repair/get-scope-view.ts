import type { ScopeLayout, ScopeWithLayout } from "@/lib/contracts/repair";
import { remember } from "../cache/recent-promises";
import { elkThreads } from "../lineage/layout/elk-threads";
import { layoutScope, type ScopeGraphShape } from "../lineage/layout/layout-scope";
import { contentHash } from "../ingestion/stable-id";
import { getScope } from "./get-scope";
import { processSingleton } from "../runtime/process-singleton";
import { compositeKey } from "@/lib/domain/composite-key";

/**
 * The Scope step's answer: the incident's scope and where each of its nodes sits on the scope
 * graph. The layout is kept by the graph's shape (its nodes and edges), so reloads, polls and
 * every browser on the step reuse it until the scope itself changes.
 */
export async function getScopeView(id: string): Promise<ScopeWithLayout> {
  const scope = await getScope(id);
  return { ...scope, layout: await scopeLayout(scope) };
}

function scopeLayout(scope: ScopeGraphShape): Promise<ScopeLayout> {
  const shape = {
    nodes: scope.nodes.map((n) => n.nodeId).sort(),
    edges: scope.edges.map((e) => compositeKey(e.from, e.to)).sort(),
  };
  return remember(layouts, contentHash(JSON.stringify(shape)), KEPT_LAYOUTS, () => layoutScope(elkThreads()[0]!, scope));
}

/** Scope layouts of the incidents being worked on (a few KB each). */
const KEPT_LAYOUTS = 64;
const layouts = processSingleton("scopeLayouts", () => new Map<string, Promise<ScopeLayout>>());
