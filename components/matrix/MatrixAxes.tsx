"use client";

import Link from "next/link";
import type { VirtualItem } from "@tanstack/react-virtual";
import type { Bucket } from "./aggregate";
import type { ShownRow } from "./grid-overlay";
import styles from "./MatrixGrid.module.css";
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

/** A row's header, sticky at the left edge of its row: the dataset (a link to its page), a note, its pipeline. */
export function MatrixRowHeader({ row }: { row: ShownRow }) {
  return (
    <div className={styles.rowLabel} style={{ width: LABEL_W, height: ROW_H }} role="rowheader" aria-colindex={1} aria-label={rowName(row)}>
      <Link href={`/units/${encodeURIComponent(row.nodeId)}`} title={row.nodeId} tabIndex={-1}>
        <span>{row.name}</span>
      </Link>
      {row.note ? (
        <span className={styles.rowNote} title={row.note}>
          units unknown
        </span>
      ) : null}
      <span className={`muted ${styles.rowPipeline}`} title={row.pipeline ?? undefined}>
        {row.pipeline ?? ""}
      </span>
    </div>
  );
}
