"use client";

import type { Zoom } from "./aggregate";
import { focusSibling, rovingTarget } from "./roving-focus";
import type { MatrixParams } from "./use-matrix-params";
import styles from "./MatrixFilters.module.css";

const ZOOMS: [Zoom, string][] = [
  ["unit", "Units"],
  ["week", "Weeks"],
  ["month", "Months"],
];

/** Pipeline, date range and zoom (one Tab stop, arrows choose); the state filter is the legend. All of it is in the URL. */
export function MatrixFilters({
  params,
  pipelines,
  onChange,
  showPipeline = true,
}: {
  params: MatrixParams;
  pipelines: string[];
  onChange(patch: Partial<MatrixParams>): void;
  showPipeline?: boolean;
}) {
  return (
    <div className={styles.bar}>
      {showPipeline ? (
        <label>
          Pipeline{" "}
          <select value={params.pipeline ?? ""} onChange={(e) => onChange({ pipeline: e.target.value || undefined, cell: null })}>
            <option value="">All pipelines</option>
            {pipelines.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label>
        From <input type="date" value={params.from ?? ""} onChange={(e) => onChange({ from: e.target.value || undefined })} aria-label="From date" />
      </label>
      <label>
        To <input type="date" value={params.to ?? ""} onChange={(e) => onChange({ to: e.target.value || undefined })} aria-label="To date" />
      </label>
      <div role="radiogroup" aria-label="Zoom" className={styles.zoom}>
        {ZOOMS.map(([z, label], i) => (
          <button
            key={z}
            type="button"
            role="radio"
            aria-checked={params.zoom === z}
            tabIndex={params.zoom === z ? 0 : -1}
            className={params.zoom === z ? styles.on : ""}
            onClick={() => onChange({ zoom: z })}
            onKeyDown={(e) => {
              const next = rovingTarget(e.key, i, ZOOMS.length);
              if (next === null) return;
              focusSibling(e, "[role=radio]", next);
              onChange({ zoom: ZOOMS[next]![0] });
            }}
          >
            {label}
          </button>
        ))}
      </div>
      {params.pipeline || params.from || params.to || params.states.length > 0 ? (
        <button type="button" className={styles.clear} onClick={() => onChange({ pipeline: undefined, from: undefined, to: undefined, states: [] })}>
          Clear filters
        </button>
      ) : null}
    </div>
  );
}
