"use client";

import Link from "next/link";
import type { VirtualItem } from "@tanstack/react-virtual";
import type { Bucket } from "./aggregate";
import type { ShownRow } from "./grid-overlay";
import styles from "./MatrixGrid.module.css";
import { nameTail, pageFont, textWidth } from "./name-tail";
import { counted } from "@/lib/domain/words";

export const ROW_H = 22;
export const HEADER_H = 28;
export const LABEL_W = 210;

interface AxesProps {
  rows: ShownRow[];
  buckets: Bucket[];
  cw: number;
  width: number;
  colItems: VirtualItem[];
}

/** A row header's accessible name: its parts read as words, not run together ("stg_ordersorders"). */
export function rowName(row: Pick<ShownRow, "name" | "pipeline" | "note">): string {
  return [row.name, row.note ? "units unknown" : null, row.pipeline ? `pipeline ${row.pipeline}` : null].filter(Boolean).join(", ");
}

/**
 * The grid's first row: the corner (naming the row headers below it) and one columnheader per
 * visible bucket, named by its key, with text every few columns so labels do not collide.
 * Sticky at the top; virtualised along the columns (aria-colindex says where each one is).
 */
export function MatrixHeaderRow({ rows, buckets, cw, width, colItems }: AxesProps) {
  const labelEvery = Math.max(1, Math.ceil(76 / cw));
  return (
    <div className={styles.header} style={{ width, height: HEADER_H }} role="row" aria-rowindex={1}>
      <div className={styles.corner} style={{ width: LABEL_W }} role="columnheader" aria-colindex={1}>
        {counted(rows.length, "dataset")}
      </div>
      {colItems.map((v) => (
        <div
          key={v.key}
          role="columnheader"
          aria-colindex={v.index + 2}
          aria-label={buckets[v.index]!.label}
          className={styles.colTick}
          style={{ left: LABEL_W + v.start, width: cw }}
        >
          {v.index % labelEvery === 0 ? <span className={styles.colLabel}>{buckets[v.index]!.label}</span> : null}
        </div>
      ))}
    </div>
  );
}

/**
 * The header's room for the name (MatrixGrid.module.css `.rowLabel`): its width less its padding,
 * its right border and the gap before the pipeline; beside a note, less the note and its gap.
 */
const NAME_ROOM = LABEL_W - 16 - 1 - 6;
const noteRoom = (text: string) => textWidth(text, pageFont(400, 10)) + 10 + 6;

/**
 * A row's header, sticky at the left edge of its row: the dataset (a link to its page), a note, its
 * pipeline. A name longer than the header keeps its end, cut at a separator (name-tail.ts); the
 * whole name is the link's accessible name and, with the node id, its tooltip.
 */
export function MatrixRowHeader({ row }: { row: ShownRow }) {
  const font = pageFont(600, 12);
  // Beside a name the note would cut, the note is a "?" (its words stay the tooltip and the row's name).
  const note = row.note ? (textWidth(row.name, font) <= NAME_ROOM - noteRoom("units unknown") ? "units unknown" : "?") : "";
  const room = NAME_ROOM - (note ? noteRoom(note) : 0);
  const shown = nameTail(row.name, (text) => textWidth(text, font) <= room);
  return (
    <div className={styles.rowLabel} style={{ width: LABEL_W, height: ROW_H }} role="rowheader" aria-colindex={1} aria-label={rowName(row)}>
      <Link
        href={`/units/${encodeURIComponent(row.nodeId)}`}
        title={`${row.name}\n${row.nodeId}`}
        aria-label={shown === row.name ? undefined : row.name}
        tabIndex={-1}
        data-testid="row-name"
      >
        {shown}
      </Link>
      {row.note ? (
        <span className={styles.rowNote} title={`units unknown: ${row.note}`}>
          {note}
        </span>
      ) : null}
      <span className={`muted ${styles.rowPipeline}`} title={row.pipeline ?? undefined}>
        {row.pipeline ?? ""}
      </span>
    </div>
  );
}
