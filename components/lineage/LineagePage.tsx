"use client";

import { ReactFlowProvider } from "@xyflow/react";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { CLOSURE_ALONE_UP_TO, type Closure } from "@/lib/contracts/lineage";
import { lineageKeys } from "@/lib/client/query-keys";
import { useClosure, useClosureHoldings, useClosureLayout, useLineageFailures, useLineageGraph, type ClosureSelection } from "@/lib/client/use-lineage";
import { useLineageLayout } from "@/lib/client/use-lineage-layout";
import { closureAlone } from "./closure-alone";
import { ClosurePanel } from "./ClosurePanel";
import { ClosurePeopleCard } from "./ClosurePeopleCard";
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
import { useBoxSize } from "./use-box-size";
import { useLineageView } from "./use-lineage-view";
import { ViewBar } from "./ViewBar";
import styles from "./Lineage.module.css";
import { compositeKey } from "@/lib/domain/composite-key";

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
  // What each node holds, and who must know, are asked for once the closure is painted: on a
  // wide closure the server's work for them (and their megabytes) would compete with that paint.
  const [painted, setPainted] = useState<Closure | null>(null);
  const closurePainted = selection !== null && painted !== null && painted === closure.data && !closure.isPlaceholderData;
  const holdings = useClosureHoldings(closurePainted ? selection : null);
  useApplyHighlight(store, closure.data, holdings.data, selection !== null && !closure.isError, setPainted);
  // Collapsing a pipeline is a change to the whole lineage: it is shown, if the closure was alone.
  const toggleGroup = useCallback(
    (p: string) => {
      setView((v) => ({ collapsed: v.collapsed.includes(p) ? v.collapsed.filter((c) => c !== p) : [...v.collapsed, p], whole: true }));
    },
    [setView],
  );
  const showAlone = useCallback((alone: boolean) => setView({ whole: !alone }), [setView]);
  const select = useCallback((nodeId: string) => setView((v) => ({ node: nodeId, units: nodeId === v.node ? v.units : "" })), [setView]);
  const pipelines = useMemo(() => countByPipeline(graph.data?.nodes ?? []), [graph.data]);
  const drawn = graph.data !== undefined && layout.data !== undefined && !mismatch && graph.data.nodes.length > 0;
  // Opened on a selection, its closure is laid out on its own (in the whole lineage's layout its
  // nodes are scattered among unrelated pipelines), for a canvas of the shape it is shown on.
  const [box, measure] = useBoxSize();
  // Whether it is small enough is the closure's to say: nothing is laid out before it is known.
  // (Its consumers are listed, not laid out alone: they are drawn on the whole lineage.)
  const canAlone =
    selection !== null &&
    !closure.isError &&
    closure.data !== undefined &&
    closure.data.nodes.filter((n) => n.kind !== "consumer").length <= CLOSURE_ALONE_UP_TO;
  const aloneLayout = useClosureLayout(canAlone && !view.whole ? selection : null, box && box.height > 0 ? box.width / box.height : 0);
  const alone = canAlone && !view.whole && !aloneLayout.isError;
  const shown = useMemo(() => {
    if (!drawn) return null;
    if (!alone) return { graph: graph.data, layout: layout.data };
    return aloneLayout.data ? closureAlone(graph.data, aloneLayout.data) : null;
  }, [drawn, alone, graph.data, layout.data, aloneLayout.data]);
  const placed = useMemo(() => {
    if (!shown) return null;
    const pipelineOf = new Map(shown.graph.nodes.map((n) => [n.id, n.pipeline]));
    return placedOf(shown.layout, (id) => pipelineOf.get(id));
  }, [shown]);
  const boxes = useMemo(() => (shown ? (shown.layout.groups.length > 0 ? shown.layout.groups : (placed ?? []).map((p) => p.rect)) : []), [shown, placed]);
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
          <FrameView placed={placed} focus={focus} picture={alone ? "closure" : "lineage"} />
          <SelectionBar key={compositeKey(view.units, view.asOf)} view={view} onChange={setView} />
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
              ) : graph.data?.nodes.length === 0 ? (
                <p className="notice">
                  No lineage as of {graph.data.asOf}: no task or dataset has an edge at that time. Load the demo or send OpenLineage events.
                </p>
              ) : (
                <>
                  {placed ? <ViewBar placed={placed} boxes={boxes} closureIds={closureIds} alone={alone} onAlone={canAlone ? showAlone : null} /> : null}
                  {aloneLayout.isError && !view.whole ? (
                    <p className="notice" role="status">
                      The closure is shown in the whole lineage: {aloneLayout.error.message}
                    </p>
                  ) : null}
                  <div ref={measure} data-testid="lineage-canvas-box">
                    {shown ? (
                      <LineageCanvas
                        graph={shown.graph}
                        layout={shown.layout}
                        alone={alone}
                        closureActive={selection !== null && closure.data !== undefined}
                        onSelect={select}
                      />
                    ) : (
                      <div className={styles.loading} data-testid="lineage-loading">
                        {alone && drawn ? "Laying out the closure…" : graph.data ? `Laying out ${graph.data.nodes.length} nodes…` : "Loading the lineage…"}
                      </div>
                    )}
                  </div>
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
              {selection !== null && !closure.isError ? <ClosurePeopleCard selection={selection} closure={closure.data} painted={closurePainted} /> : null}
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
