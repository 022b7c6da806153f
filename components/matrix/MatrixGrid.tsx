"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from "react";
import { NO_UNIT, stateOfCode, type MatrixSection } from "@/lib/contracts/units";
import { aggregateRow, bucketsOf, type Zoom } from "./aggregate";
import { describeCell } from "./describe-cell";
import { lastColumnWithData, locate, selectedBuckets, unitsOf, type ShownRow } from "./grid-overlay";
import { HEADER_H, LABEL_W, MatrixHeaderRow, MatrixRowHeader, ROW_H } from "./MatrixAxes";
import type { Selection } from "./selection";
import { useCellCanvas } from "./use-cell-canvas";
import styles from "./MatrixGrid.module.css";

const cellWidth = (zoom: Zoom, columns: number) => (zoom === "month" ? 30 : zoom === "week" ? 18 : columns <= 160 ? 16 : 12);
type At = { r: number; c: number };

export interface GridProps {
  section: MatrixSection;
  zoom: Zoom;
  /** Codes of the states the filter asks for; other cells are dimmed. Empty: none dimmed. */
  highlight: string;
  open: { dataset: string; unit: string } | null;
  selection: Selection | null;
  onOpen(dataset: string, unit: string): void;
  /** "replace": these keys are the selection now; "toggle": add or remove them. */
  onSelect(row: MatrixSection["rows"][number], keys: string[], mode: "toggle" | "replace"): void;
}

/**
 * One section of the matrix: rows × buckets drawn on a canvas (a DOM node per cell cannot
 * scroll 300 × 3,650 smoothly), the virtualisers giving the axes. The cell under the pointer and
 * the focused cell are real elements over the canvas: the tooltip, the accessible name, the
 * target of clicks and of aria-activedescendant. An ARIA grid: a header row of columnheaders,
 * then one row per dataset in view holding its rowheader and, when it has one, that gridcell.
 */
export function MatrixGrid({ section, zoom, highlight, open, selection, onOpen, onSelect }: GridProps) {
  const buckets = useMemo(() => bucketsOf(section, zoom), [section, zoom]);
  const rows = useMemo<ShownRow[]>(() => section.rows.map((r) => ({ ...r, shown: aggregateRow(r.cells, buckets) })), [section.rows, buckets]);
  const cw = cellWidth(zoom, buckets.length);
  const scroller = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  // The virtualizers re-render this component on every scroll by design; the compiler's
  // memoisation would only hide their updates, so it is skipped here knowingly.
  // Cells are drawn past the sticky labels and header: a unit is in view only between them and the
  // far edge, so scrolling to one reserves their size at the end (scrollPaddingEnd).
  // eslint-disable-next-line react-hooks/incompatible-library
  const rowV = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_H,
    overscan: 3,
    useFlushSync: false,
    scrollPaddingEnd: HEADER_H,
  });
  const colV = useVirtualizer({
    horizontal: true,
    count: buckets.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => cw,
    overscan: 4,
    useFlushSync: false,
    scrollPaddingEnd: LABEL_W,
  });
  // Time runs left to right and incidents are recent: start at the latest data (not the empty
  // right end of an open-ended feed), or at the open cell.
  const latest = useMemo(() => {
    const c = lastColumnWithData(rows);
    return c < 0 ? Math.max(0, buckets.length - 1) : c;
  }, [rows, buckets.length]);
  const [focus, setFocus] = useState<At>({ r: 0, c: latest });
  const [hover, setHover] = useState<At | null>(null);
  const [announce, setAnnounce] = useState("");
  const pointer = useRef<{ x: number; y: number } | null>(null);
  const openAt = useMemo(() => (open ? locate(section, rows, buckets, open.dataset, open.unit) : null), [section, rows, buckets, open]);
  const selectedRow = selection ? rows.findIndex((r) => r.nodeId === selection.dataset) : -1;
  const selectedCols = useMemo(() => (selection ? selectedBuckets(section, buckets, selection.keys) : null), [section, buckets, selection]);
  const width = LABEL_W + buckets.length * cw;
  const height = HEADER_H + rows.length * ROW_H;
  useCellCanvas(
    scroller,
    canvas,
    { rows, cw, rowH: ROW_H, highlight, open: openAt, selectedRow, selectedCols },
    { x: LABEL_W, y: HEADER_H },
    { width, height },
  );

  useEffect(() => {
    if (openAt) {
      setFocus(openAt);
      rowV.scrollToIndex(openAt.r, { align: "center" });
      colV.scrollToIndex(openAt.c, { align: "center" });
    } else colV.scrollToIndex(latest, { align: "end" });
    // Only when the picture changes, not on every focus move.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [section.id, zoom, buckets.length]);

  // A cell opened from elsewhere (a link, the panel narrowing the view) is brought into view.
  useEffect(() => {
    if (openAt) requestAnimationFrame(() => colV.scrollToIndex(openAt.c));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open?.dataset, open?.unit]);

  const describe = ({ r, c }: At) => describeCell(rows[r]!.name, buckets[c]!.label, rows[r]!.shown[c]!, unitsOf(section, rows[r]!, buckets[c]!).length);
  /** The unit a bucket opens: the first unit holding the bucket's (worst) state. */
  const unitToOpen = (row: ShownRow, c: number) => {
    // A bucket with no unit (its code matches the cells' own "no unit") opens nothing.
    if (!stateOfCode(row.shown[c] ?? NO_UNIT)) return null;
    const b = buckets[c]!;
    for (let i = b.from; i <= b.to; i++) if (row.cells[i] === row.shown[c]) return section.columns[i]!;
    return null;
  };
  /** Shift: every unit of the row from the selection's first unit to bucket c. */
  const rangeTo = (row: ShownRow, c: number) => {
    const first = selection?.dataset === row.nodeId ? section.columns.indexOf(selection.keys[0] ?? "") : -1;
    if (first < 0) return unitsOf(section, row, buckets[c]!);
    const [lo, hi] = [Math.min(first, buckets[c]!.from), Math.max(first, buckets[c]!.to)];
    const keys: string[] = [];
    for (let i = lo; i <= hi; i++) if (row.cells[i] !== NO_UNIT) keys.push(section.columns[i]!);
    return keys;
  };
  const activate = (r: number, c: number) => {
    const unit = unitToOpen(rows[r]!, c);
    if (unit) onOpen(rows[r]!.nodeId, unit);
  };
  const move = (r: number, c: number) => {
    const next = { r: Math.min(rows.length - 1, Math.max(0, r)), c: Math.min(buckets.length - 1, Math.max(0, c)) };
    setFocus(next);
    setAnnounce(describe(next));
    rowV.scrollToIndex(next.r);
    colV.scrollToIndex(next.c);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const { r, c } = focus;
    const step: Record<string, [number, number]> = {
      ArrowUp: [-1, 0],
      ArrowDown: [1, 0],
      ArrowLeft: [0, -1],
      ArrowRight: [0, 1],
      PageUp: [-10, 0],
      PageDown: [10, 0],
    };
    if (step[e.key]) {
      const [dr, dc] = step[e.key]!;
      const target = Math.min(buckets.length - 1, Math.max(0, c + dc));
      if (e.shiftKey && dc !== 0 && rows[r]) onSelect(rows[r]!, rangeTo(rows[r]!, target), "replace");
      move(r + dr, c + dc);
    } else if (e.key === "Home") move(r, 0);
    else if (e.key === "End") move(r, buckets.length - 1);
    else if (e.key === "Enter") activate(r, c);
    else if (e.key === " " && rows[r]) onSelect(rows[r]!, unitsOf(section, rows[r]!, buckets[c]!), "toggle");
    else return;
    e.preventDefault();
  };

  /** The cell under a point of the viewport, if the point is over a cell (not the axes, not a gap). */
  const cellAt = (x: number, y: number): At | null => {
    const el = scroller.current;
    if (!el) return null;
    const box = el.getBoundingClientRect();
    const [vx, vy] = [x - box.left - el.clientLeft, y - box.top - el.clientTop];
    if (vx < LABEL_W || vy < HEADER_H || vx >= el.clientWidth || vy >= el.clientHeight) return null;
    const [r, c] = [Math.floor((vy - HEADER_H + el.scrollTop) / ROW_H), Math.floor((vx - LABEL_W + el.scrollLeft) / cw)];
    return rows[r] && stateOfCode(rows[r]!.shown[c] ?? NO_UNIT) ? { r, c } : null;
  };
  const track = (x: number, y: number) => {
    pointer.current = { x, y };
    const at = cellAt(x, y);
    setHover((h) => (h?.r === at?.r && h?.c === at?.c ? h : at));
  };
  // The cell under a resting pointer changes as the grid scrolls under it.
  useEffect(() => {
    const el = scroller.current;
    const onScroll = () => pointer.current && track(pointer.current.x, pointer.current.y);
    el?.addEventListener("scroll", onScroll, { passive: true });
    return () => el?.removeEventListener("scroll", onScroll);
  });
  // Showing the latest units and then narrowed (the side panel opens): keep the latest in view.
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    let atEnd = false;
    let width = el.clientWidth;
    const onScroll = () => (atEnd = el.scrollLeft + el.clientWidth >= el.scrollWidth - 2);
    const resize = new ResizeObserver(() => {
      if (atEnd && el.clientWidth !== width) el.scrollLeft = el.scrollWidth;
      width = el.clientWidth;
    });
    el.addEventListener("scroll", onScroll, { passive: true });
    resize.observe(el);
    return () => {
      el.removeEventListener("scroll", onScroll);
      resize.disconnect();
    };
  }, []);
  const onClick = (e: MouseEvent) => {
    if ((e.target as Element).closest("a")) return;
    const at = cellAt(e.clientX, e.clientY);
    if (!at) return;
    const row = rows[at.r]!;
    setFocus(at);
    if (e.shiftKey) onSelect(row, rangeTo(row, at.c), "replace");
    else if (e.metaKey || e.ctrlKey) onSelect(row, unitsOf(section, row, buckets[at.c]!), "toggle");
    else activate(at.r, at.c);
  };

  const idOf = ({ r, c }: At) => `${section.id.replace(/[^A-Za-z0-9]/g, "_")}-r${r}-c${c}`;
  const marked = [focus, ...(hover && (hover.r !== focus.r || hover.c !== focus.c) ? [hover] : [])].filter((a) => rows[a.r] && buckets[a.c]);
  const hasFocusCell = rows[focus.r] !== undefined && buckets[focus.c] !== undefined;
  // The rows in the DOM: those in view, and those of the focused and the hovered cell (a gridcell lives in its row).
  const domRows = [...new Set([...rowV.getVirtualItems().map((v) => v.index), ...marked.map((a) => a.r)])].sort((a, b) => a - b);
  const markedCell = (at: At) => {
    const row = rows[at.r]!;
    const text = describe(at);
    const isFocus = at === focus;
    const units = unitsOf(section, row, buckets[at.c]!);
    return (
      <div
        key={isFocus ? "focus" : "hover"}
        id={isFocus ? idOf(at) : undefined}
        role="gridcell"
        aria-colindex={at.c + 2}
        aria-label={text}
        aria-selected={selection?.dataset === row.nodeId && units.some((k) => selection.keys.includes(k))}
        title={text}
        data-testid={`cell-${row.name}-${buckets[at.c]!.label}`}
        data-state={stateOfCode(row.shown[at.c]!) ?? "none"}
        className={[styles.cell, isFocus ? styles.focus : "", hover && hover.r === at.r && hover.c === at.c ? styles.hover : ""].join(" ")}
        style={{ left: LABEL_W + at.c * cw, width: cw - 1, height: ROW_H - 2 }}
      />
    );
  };
  return (
    <>
      <div
        ref={scroller}
        className={styles.scroller}
        style={{ height: Math.min(height + 16, 560) }}
        role="grid"
        aria-label={`Unit matrix: ${section.label}`}
        aria-rowcount={rows.length + 1}
        aria-colcount={buckets.length + 1}
        aria-activedescendant={hasFocusCell ? idOf(focus) : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onMouseMove={(e) => track(e.clientX, e.clientY)}
        onMouseLeave={() => {
          pointer.current = null;
          setHover(null);
        }}
        onClick={onClick}
        data-testid={`matrix-${section.id}`}
      >
        <div style={{ width, height, position: "relative" }}>
          <div className={styles.stage}>
            <canvas ref={canvas} className={styles.canvas} style={{ left: LABEL_W, top: HEADER_H }} aria-hidden="true" />
          </div>
          <MatrixHeaderRow rows={rows} buckets={buckets} cw={cw} width={width} colItems={colV.getVirtualItems()} />
          {domRows.map((r) => (
            <div key={r} role="row" aria-rowindex={r + 2} className={styles.row} style={{ top: HEADER_H + r * ROW_H, width, height: ROW_H }}>
              <MatrixRowHeader row={rows[r]!} />
              {marked.filter((a) => a.r === r).map(markedCell)}
            </div>
          ))}
        </div>
      </div>
      <p className={styles.live} aria-live="polite">
        {announce}
      </p>
    </>
  );
}
