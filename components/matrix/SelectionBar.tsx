"use client";

import Link from "next/link";
import { describeRanges } from "@/components/units/describe-units";
import { lineageHref, repairHref, type Selection } from "./selection";
import styles from "./SelectionBar.module.css";
import { counted } from "@/lib/domain/words";

/** Consecutive keys of one definition collapsed into ranges, in the order given (columns order). */
function runsOf(keys: string[], columns: string[]): [string, string][] {
  const index = new Map(columns.map((k, i) => [k, i]));
  const sorted = [...keys].sort((a, b) => (index.get(a) ?? 0) - (index.get(b) ?? 0));
  const out: [string, string][] = [];
  for (const k of sorted) {
    const last = out[out.length - 1];
    if (last && (index.get(k) ?? -2) === (index.get(last[1]) ?? -9) + 1) last[1] = k;
    else out.push([k, k]);
  }
  return out;
}

export function SelectionBar({ selection, columns, name, onClear }: { selection: Selection; columns: string[]; name: string; onClear(): void }) {
  const href = repairHref(selection);
  const n = selection.keys.length;
  return (
    <div className={styles.bar} role="region" aria-label="Selected units" data-testid="selection-bar">
      <span>
        <strong>{counted(n, "unit")}</strong> of {name}:{" "}
        <span className="mono" data-testid="selection-units">
          {describeRanges(runsOf(selection.keys, columns))}
        </span>
      </span>
      {href ? (
        <Link href={href} prefetch={false} data-testid="plan-repair">
          Plan a repair for these →
        </Link>
      ) : (
        <span className="muted">No task writes this dataset: nothing to re-run.</span>
      )}
      {selection.writerNodeId && n > 0 ? <Link href={lineageHref(selection.writerNodeId, selection.keys[0]!)}>Lineage →</Link> : null}
      <button type="button" onClick={onClear}>
        Clear selection
      </button>
    </div>
  );
}
