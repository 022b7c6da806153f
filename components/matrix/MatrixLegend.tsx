"use client";

import { STATE_LABELS, UNIT_STATES, type MatrixState } from "@/lib/contracts/units";
import { useState } from "react";
import { StateSwatch } from "@/components/shell/StateSwatch";
import { focusSibling, rovingTarget } from "./roving-focus";
import styles from "./MatrixLegend.module.css";

/** Each of the thirteen states, its colour and mark, with its count; pressing one filters the matrix to it. */
export function MatrixLegend({ counts, active, onToggle }: { counts: Record<MatrixState, number>; active: MatrixState[]; onToggle(state: MatrixState): void }) {
  // One Tab stop for the thirteen states (a toolbar): arrows move between them, Tab leaves for the grid.
  const [current, setCurrent] = useState(0);
  return (
    <div className={styles.legend} role="toolbar" aria-label="States (press to filter)" data-testid="matrix-legend">
      {UNIT_STATES.map((s, i) => (
        <button
          key={s}
          type="button"
          tabIndex={i === current ? 0 : -1}
          onFocus={() => setCurrent(i)}
          onKeyDown={(e) => {
            const next = rovingTarget(e.key, i, UNIT_STATES.length);
            if (next !== null) focusSibling(e, "button", next);
          }}
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
