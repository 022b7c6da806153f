"use client";

import { useCallback, useEffect, useRef, useState, type MouseEvent } from "react";
import { codeOfState, type MatrixState } from "@/lib/contracts/units";
import { useUnitMatrix } from "@/lib/client/use-units";
import { CellPanel } from "./CellPanel";
import { KeyProblemsCards } from "./KeyProblemsCards";
import { MatrixFilters } from "./MatrixFilters";
import { MatrixGrid } from "./MatrixGrid";
import { MatrixLegend } from "./MatrixLegend";
import { SelectionBar } from "./SelectionBar";
import { toggleKeys, type Selection } from "./selection";
import { useMatrixParams } from "./use-matrix-params";
import { StatesNotice } from "@/components/shell/StatesNotice";
import { counted } from "@/lib/domain/words";
import { compositeKey } from "@/lib/domain/composite-key";

/** The unit matrix with its filters, legend, selection and side panel; `dataset` pins one row. */
export function UnitsView({ dataset }: { dataset?: string }) {
  const [params, update] = useMatrixParams();
  const { data, error, isPending, isFetching } = useUnitMatrix({
    pipeline: dataset ? undefined : params.pipeline,
    dataset,
    states: params.states,
    from: params.from,
    to: params.to,
  });
  const [selection, setSelection] = useState<Selection | null>(null);
  const toggleState = (s: MatrixState) => update({ states: params.states.includes(s) ? params.states.filter((x) => x !== s) : [...params.states, s] });
  const highlight = params.states.map(codeOfState).join("");
  // A performance mark once the first matrix is on screen (bench/matrix-bench.ts reads it).
  const painted = Boolean(data);
  useEffect(() => {
    if (painted && performance.getEntriesByName("units:matrix-painted").length === 0) requestAnimationFrame(() => performance.mark("units:matrix-painted"));
  }, [painted]);
  const selectedSection = data?.sections.find((s) => s.rows.some((r) => r.nodeId === selection?.dataset));
  const root = useRef<HTMLDivElement>(null);
  // Whatever opened the panel (the grid, its focused cell the active descendant) gets the focus back when it closes.
  const opener = useRef<HTMLElement | null>(null);
  const firstGrid = () => root.current?.querySelector<HTMLElement>('[role="grid"]') ?? null;
  const open = (d: string, unit: string) => {
    if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body) opener.current = document.activeElement;
    update({ cell: { dataset: d, unit } });
  };
  const close = useCallback(() => {
    update({ cell: null });
    const back = opener.current?.isConnected ? opener.current : firstGrid();
    opener.current = null;
    back?.focus({ preventScroll: true });
  }, [update]);
  const skipToGrid = (e: MouseEvent) => {
    const grid = firstGrid();
    if (!grid) return;
    e.preventDefault();
    grid.focus({ preventScroll: true });
    grid.scrollIntoView({ block: "nearest" });
  };
  return (
    <div ref={root} style={{ display: "grid", gap: 16, gridTemplateColumns: "minmax(0, 1fr)", marginRight: params.cell ? "min(520px, 45vw)" : 0 }}>
      {data && data.sections.length > 0 ? (
        <a href="#unit-matrix" className="skip-link" onClick={skipToGrid}>
          Skip to the matrix
        </a>
      ) : null}
      <section className="card" aria-label="Filters and legend" style={{ display: "grid", gap: 12 }}>
        <MatrixFilters params={params} pipelines={data?.pipelines ?? []} onChange={update} showPipeline={!dataset} />
        {data ? <MatrixLegend counts={data.counts} active={params.states} onToggle={toggleState} /> : null}
        <p className="muted" style={{ margin: 0, fontSize: 12 }}>
          Click a cell for its records. Arrow keys move, Enter opens, Space selects, Shift+arrows or Shift+click select a range of one dataset.
          {isFetching && !isPending ? " Refreshing…" : ""}
        </p>
      </section>
      {data ? <StatesNotice states={data.states} /> : null}
      {isPending ? <div className="skeleton" style={{ height: 320 }} aria-label="Loading the unit matrix" data-testid="matrix-loading" /> : null}
      {error ? (
        <p className="error-box" role="alert">
          Could not load the unit matrix: {error.message}
        </p>
      ) : null}
      {data && data.sections.length === 0 && !data.states.computing ? (
        <p className="empty card" data-testid="matrix-empty">
          {params.states.length || params.pipeline || params.from || params.to
            ? "No dataset matches these filters."
            : "No datasets yet: ingest lineage events or load the demo (npm run demo:load)."}
        </p>
      ) : null}
      {data?.sections.map((s, i) => (
        <section key={s.id} id={i === 0 ? "unit-matrix" : undefined} className="card" aria-labelledby={`section-${s.id}`}>
          <h2 id={`section-${s.id}`}>{s.label}</h2>
          <p className="sub">
            {counted(s.rows.length, "dataset")} × {counted(s.columns.length, "unit")}
            {s.columns.length > 1 ? `, ${s.columns[0]} → ${s.columns[s.columns.length - 1]}` : ""}
          </p>
          <MatrixGrid
            key={compositeKey(s.id, params.zoom)}
            section={s}
            zoom={params.zoom}
            highlight={highlight}
            open={params.cell}
            selection={selection}
            onOpen={open}
            onSelect={(row, keys, mode) =>
              setSelection((cur) =>
                mode === "replace" ? { dataset: row.nodeId, writerNodeId: row.writerNodeId, keys } : toggleKeys(cur, row.nodeId, row.writerNodeId, keys),
              )
            }
          />
        </section>
      ))}
      {selection && selectedSection ? (
        <SelectionBar
          selection={selection}
          columns={selectedSection.columns}
          name={selectedSection.rows.find((r) => r.nodeId === selection.dataset)!.name}
          onClear={() => setSelection(null)}
        />
      ) : null}
      {data ? <KeyProblemsCards sections={data.sections} invalidKeys={data.invalidKeys} /> : null}
      {params.cell ? <CellPanel dataset={params.cell.dataset} unit={params.cell.unit} onClose={close} /> : null}
    </div>
  );
}
