"use client";

import { ReactFlowProvider } from "@xyflow/react";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import type { Closure } from "@/lib/contracts/lineage";
import { lineageKeys, useClosure, useClosureHoldings, useLineageFailures, useLineageGraph, type ClosureSelection } from "@/lib/client/use-lineage";
import { useLineageLayout } from "@/lib/client/use-lineage-layout";
import { ClosurePanel } from "./ClosurePanel";
import { FailurePicker } from "./FailurePicker";
import { FrameView } from "./FrameView";
import { placedOf } from "./framing";
import { GroupToggleContext } from "./group-toggle-context";
import { HighlightContext, HighlightStore } from "./highlight-store";
import { incidentHref } from "./incident-link";
import { LineageCanvas } from "./LineageCanvas";
import { LineageSearch } from "./LineageSearch";
import { PipelineList } from "./PipelineList";
import { SelectionBar } from "./SelectionBar";
import { useApplyHighlight } from "./use-apply-highlight";
import { useLineageView } from "./use-lineage-view";
import { ViewBar } from "./ViewBar";
import styles from "./Lineage.module.css";

/** /lineage: the graph, the failures to pick from, and the closure of the selection. */
export function LineagePage() {
  const [view, setView] = useLineageView();
  const [store] = useState(() => new HighlightStore());
  const graph = useLineageGraph(view.asOf);
  const layout = useLineageLayout(view.asOf, view.collapsed);
  // Graph and layout are fetched side by side; if the catalog changed between the two answers,
  // both are asked again rather than drawing one graph with another's positions.
  const queryClient = useQueryClient();
  const mismatch = graph.data !== undefined && layout.data !== undefined && !layout.isPlaceholderData && graph.data.hash !== layout.data.hash;
  useEffect(() => {
    if (mismatch) void queryClient.invalidateQueries({ queryKey: lineageKeys.all });
  }, [mismatch, queryClient]);
  const selection: ClosureSelection | null = view.node ? { nodeId: view.node, units: view.units, direction: view.direction, asOf: view.asOf } : null;
  const closure = useClosure(selection);
  // What each node holds is asked for once the closure is painted: on a wide closure the
  // server's holdings work (and its megabytes) would otherwise compete with that first paint.
  const [painted, setPainted] = useState<Closure | null>(null);
  const holdings = useClosureHoldings(selection !== null && painted !== null && painted === closure.data && !closure.isPlaceholderData ? selection : null);
  useApplyHighlight(store, closure.data, holdings.data, selection !== null && !closure.isError, setPainted);
  const toggleGroup = useCallback(
    (p: string) => {
      setView((v) => ({ collapsed: v.collapsed.includes(p) ? v.collapsed.filter((c) => c !== p) : [...v.collapsed, p] }));
    },
    [setView],
  );
  const select = useCallback((nodeId: string) => setView((v) => ({ node: nodeId, units: nodeId === v.node ? v.units : "" })), [setView]);
  const pipelines = useMemo(() => countByPipeline(graph.data?.nodes ?? []), [graph.data]);
  const drawn = graph.data !== undefined && layout.data !== undefined && !mismatch && graph.data.nodes.length > 0;
  const placed = useMemo(() => {
    if (!drawn) return null;
    const pipelineOf = new Map(graph.data.nodes.map((n) => [n.id, n.pipeline]));
    return placedOf(layout.data, (id) => pipelineOf.get(id));
  }, [drawn, graph.data, layout.data]);
  const boxes = useMemo(() => layout.data?.groups ?? [], [layout.data]);
  // What the camera frames: the selection's closure (seed first, then by depth), or — nothing
  // selected — the current failures; null while the one it depends on is loading.
  const failures = useLineageFailures();
  const focus = useMemo(() => {
    if (!view.node) return failures.data ? failures.data.failures.map((f) => f.taskNodeId) : failures.isError ? [] : null;
    if (closure.data) return [...closure.data.nodes].sort((x, y) => Number(y.seed) - Number(x.seed) || x.depth - y.depth).map((n) => n.nodeId);
    return closure.isError ? [view.node] : null;
  }, [view.node, closure.data, closure.isError, failures.data, failures.isError]);
  const closureIds = useMemo(() => (view.node && closure.data ? closure.data.nodes.map((n) => n.nodeId) : null), [view.node, closure.data]);
  const openIncident = selection && closure.data && graph.data ? incidentHref(selection.nodeId, closure.data, graph.data) : null;
  return (
    <HighlightContext.Provider value={store}>
      <GroupToggleContext.Provider value={toggleGroup}>
        <ReactFlowProvider>
          <FrameView placed={placed} focus={focus} />
          <SelectionBar key={`${view.units}|${view.asOf}`} view={view} onChange={setView} />
          <div className={styles.layout}>
            <aside className={styles.side}>
              <section className="card">
                <h2>Current failures</h2>
                <FailurePicker selected={view} onPick={(node, unit) => setView({ node, units: unit, direction: "downstream" })} />
              </section>
              <section className="card">
                <h2>Find</h2>
                <LineageSearch nodes={graph.data?.nodes ?? []} query={view.q} onQuery={(q) => setView({ q })} onSelect={select} />
              </section>
              <section className="card">
                <h2>Pipelines</h2>
                <PipelineList pipelines={pipelines} collapsed={view.collapsed} onToggle={toggleGroup} />
              </section>
            </aside>
            <div className={styles.main}>
              {graph.isError ? (
                <p className="error-box" role="alert">
                  The lineage could not be loaded: {graph.error.message}
                </p>
              ) : layout.isError ? (
                <p className="error-box" role="alert">
                  {layout.error.message}
                </p>
              ) : !graph.data || !layout.data || mismatch ? (
                <div className={styles.loading} data-testid="lineage-loading">
                  {graph.data ? `Laying out ${graph.data.nodes.length} nodes…` : "Loading the lineage…"}
                </div>
              ) : graph.data.nodes.length === 0 ? (
                <p className="notice">
                  No lineage as of {graph.data.asOf}: no task or dataset has an edge at that time. Load the demo or send OpenLineage events.
                </p>
              ) : (
                <>
                  {placed ? <ViewBar placed={placed} boxes={boxes} closureIds={closureIds} /> : null}
                  <LineageCanvas graph={graph.data} layout={layout.data} closureActive={selection !== null && closure.data !== undefined} onSelect={select} />
                </>
              )}
              {closure.isError ? (
                <p className="error-box" role="alert" data-testid="closure-error">
                  The closure could not be computed: {closure.error.message}
                </p>
              ) : null}
              {selection === null ? (
                <p className="notice">Pick a failure, click a node (or focus it and press Enter) to light up its downstream closure.</p>
              ) : closure.data ? (
                <ClosurePanel closure={closure.data} holdings={holdings.data} incidentHref={openIncident} />
              ) : closure.isPending ? (
                <div className="skeleton" aria-label="Computing the closure" />
              ) : null}
            </div>
          </div>
        </ReactFlowProvider>
      </GroupToggleContext.Provider>
    </HighlightContext.Provider>
  );
}

function countByPipeline(nodes: { pipeline: string }[]) {
  const counts = new Map<string, number>();
  for (const n of nodes) counts.set(n.pipeline, (counts.get(n.pipeline) ?? 0) + 1);
  return [...counts].map(([name, count]) => ({ name, count }));
}
