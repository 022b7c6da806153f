"use client";

import Link from "next/link";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { NO_UNIT, stateOfCode, type MatrixSection } from "@/lib/contracts/units";
import { aggregateRow, bucketsOf, type Zoom } from "./aggregate";
import { describeCell } from "./describe-cell";
import type { Selection } from "./selection";
import styles from "./MatrixGrid.module.css";

const ROW_H = 22;
const UNPUBLISHED = new Set(["m", "f", "b"].map((c) => c));
const HEADER_H = 28;
const LABEL_W = 210;
const cellWidth = (zoom: Zoom, columns: number) => (zoom === "month" ? 30 : zoom === "week" ? 18 : columns <= 160 ? 16 : 12);

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

/** One section of the matrix: rows × buckets, both axes virtualised, one focusable grid. */
export function MatrixGrid({ section, zoom, highlight, open, selection, onOpen, onSelect }: GridProps) {
  const buckets = useMemo(() => bucketsOf(section, zoom), [section, zoom]);
  const rows = useMemo(() => section.rows.map((r) => ({ ...r, shown: aggregateRow(r.cells, buckets) })), [section.rows, buckets]);
  const cw = cellWidth(zoom, buckets.length);
  const scroller = useRef<HTMLDivElement>(null);
  // The virtualizers re-render this component on every scroll by design; the compiler's
  // memoisation would only hide their updates, so it is skipped here knowingly.
  // eslint-disable-next-line react-hooks/incompatible-library
  const rowV = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_H, overscan: 3, useFlushSync: false });
  const colV = useVirtualizer({ horizontal: true, count: buckets.length, getScrollElement: () => scroller.current, estimateSize: () => cw, overscan: 4, useFlushSync: false });
  const [focus, setFocus] = useState({ r: 0, c: Math.max(0, buckets.length - 1) });
  const labelEvery = Math.max(1, Math.ceil(76 / cw));

  // Time runs left to right and incidents are recent: start at the latest units, or the open cell.
  useEffect(() => {
    const r = open ? rows.findIndex((x) => x.nodeId === open.dataset) : -1;
    const c = r >= 0 ? buckets.findIndex((b) => section.columns.slice(b.from, b.to + 1).includes(open!.unit)) : -1;
    if (r >= 0 && c >= 0) {
      setFocus({ r, c });
      rowV.scrollToIndex(r, { align: "center" });
      colV.scrollToIndex(c, { align: "center" });
    } else colV.scrollToIndex(buckets.length - 1, { align: "end" });
    // Only when the picture changes, not on every focus move.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [section.id, zoom, buckets.length]);

  // A cell opened from elsewhere (a link, the panel narrowing the view) is brought into view.
  useEffect(() => {
    if (!open) return;
    const r = rows.findIndex((x) => x.nodeId === open.dataset);
    const c = r >= 0 ? buckets.findIndex((b) => section.columns.slice(b.from, b.to + 1).includes(open.unit)) : -1;
    if (c >= 0) requestAnimationFrame(() => colV.scrollToIndex(c));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open?.dataset, open?.unit]);

  const unitsOf = (row: (typeof rows)[number], c: number) => {
    const b = buckets[c]!;
    const keys: string[] = [];
    for (let i = b.from; i <= b.to; i++) if (row.cells[i] !== NO_UNIT) keys.push(section.columns[i]!);
    return keys;
  };
  /** The unit a bucket opens: the first unit holding the bucket's (worst) state. */
  const unitToOpen = (row: (typeof rows)[number], c: number) => {
    const b = buckets[c]!;
    for (let i = b.from; i <= b.to; i++) if (row.cells[i] === row.shown[c]) return section.columns[i]!;
    return null;
  };
  /** Shift: every unit of the row from the selection's first unit to bucket c. */
  const rangeTo = (row: (typeof rows)[number], c: number) => {
    const first = selection?.dataset === row.nodeId ? section.columns.indexOf(selection.keys[0] ?? "") : -1;
    if (first < 0) return unitsOf(row, c);
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
    rowV.scrollToIndex(next.r);
    colV.scrollToIndex(next.c);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const { r, c } = focus;
    const step: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], PageUp: [-10, 0], PageDown: [10, 0] };
    if (step[e.key]) {
      const [dr, dc] = step[e.key]!;
      const target = Math.min(buckets.length - 1, Math.max(0, c + dc));
      if (e.shiftKey && dc !== 0 && rows[r]) onSelect(rows[r]!, rangeTo(rows[r]!, target), "replace");
      move(r + dr, c + dc);
    } else if (e.key === "Home") move(r, 0);
    else if (e.key === "End") move(r, buckets.length - 1);
    else if (e.key === "Enter") activate(r, c);
    else if (e.key === " " && rows[r]) onSelect(rows[r]!, unitsOf(rows[r]!, c), "toggle");
    else return;
    e.preventDefault();
  };

  const idOf = (r: number, c: number) => `${section.id.replace(/[^A-Za-z0-9]/g, "_")}-r${r}-c${c}`;
  const selected = new Set(selection?.keys ?? []);
  const width = LABEL_W + colV.getTotalSize();
  const height = HEADER_H + rowV.getTotalSize();
  return (
    <div
      ref={scroller}
      className={styles.scroller}
      style={{ height: Math.min(height + 16, 560) }}
      role="grid"
      aria-label={`Unit matrix: ${section.label}`}
      aria-rowcount={rows.length}
      aria-colcount={buckets.length}
      aria-activedescendant={rows.length > 0 ? idOf(focus.r, focus.c) : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid={`matrix-${section.id}`}
    >
      <div style={{ width, height, position: "relative" }}>
        <div className={styles.header} style={{ width, height: HEADER_H }} role="row">
          <div className={styles.corner} style={{ width: LABEL_W }}>{section.rows.length} dataset{section.rows.length === 1 ? "" : "s"}</div>
          {colV.getVirtualItems().filter((v) => v.index % labelEvery === 0).map((v) => (
            <div key={v.key} role="columnheader" className={styles.colLabel} style={{ left: LABEL_W + v.start }}>{buckets[v.index]!.label}</div>
          ))}
        </div>
        <div className={styles.labels} style={{ width: LABEL_W, height: rowV.getTotalSize() }}>
          {rowV.getVirtualItems().map((v) => {
            const row = rows[v.index]!;
            return (
              <div key={v.key} className={styles.rowLabel} style={{ top: v.start, height: ROW_H }} role="rowheader">
                <Link href={`/units/${encodeURIComponent(row.nodeId)}`} title={row.nodeId} tabIndex={-1}>{row.name}</Link>
                <span className="muted">{row.pipeline ?? ""}</span>
              </div>
            );
          })}
        </div>
        {rowV.getVirtualItems().map((rv) => {
          const row = rows[rv.index]!;
          return colV.getVirtualItems().map((cv) => {
            const code = row.shown[cv.index]!;
            const state = stateOfCode(code);
            if (!state) return null;
            const b = buckets[cv.index]!;
            const units = unitsOf(row, cv.index);
            const isOpen = open?.dataset === row.nodeId && units.includes(open.unit);
            const isFocus = focus.r === rv.index && focus.c === cv.index;
            const isSelected = selection?.dataset === row.nodeId && units.some((k) => selected.has(k));
            const text = describeCell(row.name, b.label, code, units.length);
            return (
              <div
                key={`${rv.key}:${cv.key}`}
                id={idOf(rv.index, cv.index)}
                role="gridcell"
                aria-label={text}
                aria-selected={isSelected}
                title={text}
                data-testid={`cell-${row.name}-${b.label}`}
                data-state={state}
                className={[styles.cell, isFocus ? styles.focus : "", isOpen ? styles.open : "", isSelected ? styles.selected : "", UNPUBLISHED.has(code) ? styles.unpublished : "", highlight && !highlight.includes(code) ? styles.dim : ""].join(" ")}
                style={{ top: HEADER_H + rv.start, left: LABEL_W + cv.start, width: cw - 1, height: ROW_H - 2, backgroundColor: `var(--state-${state})` }}
                onClick={(e) => {
                  setFocus({ r: rv.index, c: cv.index });
                  if (e.shiftKey) onSelect(row, rangeTo(row, cv.index), "replace");
                  else if (e.metaKey || e.ctrlKey) onSelect(row, units, "toggle");
                  else activate(rv.index, cv.index);
                }}
              />
            );
          });
        })}
      </div>
    </div>
  );
}
