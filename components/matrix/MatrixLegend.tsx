"use client";

import { STATE_LABELS, UNIT_STATES, type MatrixState } from "@/lib/contracts/units";
import { StateSwatch } from "@/components/shell/StateSwatch";
import styles from "./MatrixLegend.module.css";

/** Each of the thirteen states, its colour and mark, with its count; pressing one filters the matrix to it. */
export function MatrixLegend({ counts, active, onToggle }: { counts: Record<MatrixState, number>; active: MatrixState[]; onToggle(state: MatrixState): void }) {
  return (
    <div className={styles.legend} role="group" aria-label="States (press to filter)" data-testid="matrix-legend">
      {UNIT_STATES.map((s) => (
        <button
          key={s}
          type="button"
          className={`${styles.item} ${active.includes(s) ? styles.active : ""} ${counts[s] === 0 ? styles.zero : ""}`}
          aria-pressed={active.includes(s)}
          onClick={() => onToggle(s)}
          data-testid={`legend-${s}`}
        >
          <StateSwatch state={s} />
          {STATE_LABELS[s]} <strong>{counts[s].toLocaleString("en")}</strong>
        </button>
      ))}
    </div>
  );
}
