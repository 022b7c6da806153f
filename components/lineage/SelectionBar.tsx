"use client";

import { useState } from "react";
import { Name } from "@/components/shell/Name";
import type { LineageView } from "./use-lineage-view";
import styles from "./Lineage.module.css";

/** Remounted (keyed) when the URL changes the units or instant, so the inputs start from it. The selection in words and its controls: units, direction (blast radius or built-from), as-of. */
export function SelectionBar({ view, onChange }: { view: LineageView; onChange: (patch: Partial<LineageView>) => void }) {
  const [units, setUnits] = useState(view.units);
  const [asOf, setAsOf] = useState(view.asOf);
  return (
    <form
      className={styles.selection}
      onSubmit={(e) => {
        e.preventDefault();
        onChange({ units: units.trim(), asOf: asOf.trim() });
      }}
      aria-label="Selection"
    >
      <div>
        <span className="muted">Selected </span>
        <span className="mono" data-testid="selected-node">
          {view.node ? <Name>{view.node}</Name> : <strong>nothing yet</strong>}
        </span>
      </div>
      <label>
        Units <input value={units} onChange={(e) => setUnits(e.target.value)} placeholder="2026-08-17 or 2026-08-01..2026-08-07 (empty: all)" size={34} />
      </label>
      <label>
        As of <input value={asOf} onChange={(e) => setAsOf(e.target.value)} placeholder="now (or 2026-08-20T00:00Z)" size={20} />
      </label>
      <button type="submit">Apply</button>
      <div role="group" aria-label="Direction" className={styles.segmented}>
        <button type="button" aria-pressed={view.direction === "downstream"} onClick={() => onChange({ direction: "downstream" })}>
          Downstream (blast radius)
        </button>
        <button type="button" aria-pressed={view.direction === "upstream"} onClick={() => onChange({ direction: "upstream" })}>
          Upstream (built from)
        </button>
      </div>
      {view.node ? (
        <button type="button" onClick={() => onChange({ node: "", units: "" })}>
          Clear selection
        </button>
      ) : null}
    </form>
  );
}
